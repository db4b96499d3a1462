package org.getafix.simulator.cluster;

import org.getafix.core.placement.MeasuredRound;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What a Historical's Druid metrics would say about its round, at Druid's granularity: each scan's
 * {@code query/segment/time} in whole milliseconds, truncated; {@code query/cpu/time} in µs; one {@code query/time}
 * per query per node, whole milliseconds, from the query's first task arriving on the node to its last one finishing
 * plus the per-query work outside segment processing (HTTP, merging, serialisation), which Druid counts in
 * {@code query/time} but in no segment's time. The Coordinator's conversion ({@link MeasuredRound}) then sees the
 * same noise as on a live cluster.
 */
final class HistoricalMeter
{
  private final int processingThreads;
  private final double queryOverheadSeconds;

  private final Map<String, long[]> scans = new HashMap<>();
  private final Map<Query, OpenQuery> open = new IdentityHashMap<>();
  private double cpuSeconds;
  private long queryTimeMillis;
  private long queryTimes;

  /**
   * @param processingThreads    processing threads the node reports ({@code druid.processing.numThreads})
   * @param queryOverheadMillis  wall time a query spends on the node outside segment processing
   */
  HistoricalMeter(int processingThreads, double queryOverheadMillis)
  {
    this.processingThreads = processingThreads;
    this.queryOverheadSeconds = queryOverheadMillis / 1000.0;
  }

  void onSubmit(Task task, double now)
  {
    open.computeIfAbsent(task.query, q -> new OpenQuery(now)).tasks++;
  }

  void onDone(Task task, double serviceSeconds, double now)
  {
    final long[] s = scans.computeIfAbsent(task.segment.id(), id -> new long[2]);
    s[0] += (long) Math.floor(serviceSeconds * 1000);
    s[1]++;
    // CPU time is the task's own work: a straggler slowed by contention burns the same instructions, only later.
    cpuSeconds += task.work;
    final OpenQuery q = open.get(task.query);
    if (q != null && --q.tasks == 0) {
      open.remove(task.query);
      queryTimeMillis += (long) Math.floor((now - q.startedAt + queryOverheadSeconds) * 1000);
      queryTimes++;
    }
  }

  /** The round's counters, then starts the next round. Queries still in flight count in the round they finish. */
  MeasuredRound.NodeCounters takeRound(double wallSeconds)
  {
    final Map<String, MeasuredRound.ScanCounters> segments = new HashMap<>();
    scans.forEach((id, s) -> segments.put(id, new MeasuredRound.ScanCounters(s[0], s[1])));
    final MeasuredRound.NodeCounters counters = new MeasuredRound.NodeCounters(
        Math.round(wallSeconds * 1000),
        processingThreads,
        Math.round(cpuSeconds * 1e6),
        queryTimeMillis,
        queryTimes,
        segments
    );
    scans.clear();
    cpuSeconds = 0;
    queryTimeMillis = 0;
    queryTimes = 0;
    return counters;
  }

  private static final class OpenQuery
  {
    private final double startedAt;
    private int tasks;

    private OpenQuery(double startedAt)
    {
      this.startedAt = startedAt;
    }
  }
}
