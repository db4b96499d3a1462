package org.getafix.druid.historical;

import org.getafix.core.wire.HistoricalStatsReport;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Monotonic query counters of one Historical: per segment (query time and number of scans) and per node (CPU time,
 * segment time, wait time, query wall time, queries). Recording runs on query threads, so it only touches {@link LongAdder}s in a
 * {@link ConcurrentHashMap} and never blocks.
 *
 * <p>The counters only grow, and {@link #report} does not reset them: the Coordinator diffs two reports. A lost or
 * late pull therefore loses nothing (the next diff covers both rounds), and a second reader (a new leader, an
 * operator with curl) never steals the leader's deltas, which "totals since the last pull" would. The {@link #epoch}
 * changes when the process restarts, so the Coordinator knows when counters start again from zero. Segments not
 * scanned for {@code idleEvictionMillis} are forgotten, which bounds memory on a node whose segments churn; their
 * counters restart from zero if they come back, which the Coordinator treats like a restart of that one counter.
 */
public final class QueryStatsCollector
{
  private final String epoch = UUID.randomUUID().toString();
  private final long startNanos = System.nanoTime();
  private final long idleEvictionNanos;

  private final ConcurrentHashMap<String, SegmentCounters> segments = new ConcurrentHashMap<>();
  private final LongAdder cpuTimeMicros = new LongAdder();
  private final LongAdder queries = new LongAdder();
  private final LongAdder segmentTimeMillis = new LongAdder();
  private final LongAdder segmentScans = new LongAdder();
  private final LongAdder waitTimeMillis = new LongAdder();
  private final LongAdder queryTimeMillis = new LongAdder();
  private final LongAdder queryTimes = new LongAdder();

  public QueryStatsCollector(long idleEvictionMillis)
  {
    if (idleEvictionMillis <= 0) {
      throw new IllegalArgumentException("idleEvictionMillis must be > 0, got [" + idleEvictionMillis + "]");
    }
    this.idleEvictionNanos = TimeUnit.MILLISECONDS.toNanos(idleEvictionMillis);
  }

  /** One segment scan that took {@code timeMillis} (Druid reports whole milliseconds, often 0). */
  public void recordSegmentTime(String segmentId, long timeMillis)
  {
    if (segmentId == null || timeMillis < 0) {
      return;
    }
    SegmentCounters counters = segments.get(segmentId);
    if (counters == null) {
      counters = segments.computeIfAbsent(segmentId, id -> new SegmentCounters());
    }
    counters.timeMillis.add(timeMillis);
    counters.scans.increment();
    segmentTimeMillis.add(timeMillis);
    segmentScans.increment();
  }

  /** CPU time of one query on this node (Druid reports it once per query per node). */
  public void recordCpuTime(long micros)
  {
    if (micros < 0) {
      return;
    }
    cpuTimeMicros.add(micros);
    queries.increment();
  }

  /** Wall time of one query on this node ({@code query/time}, once per query). */
  public void recordQueryTime(long timeMillis)
  {
    if (timeMillis < 0) {
      return;
    }
    queryTimeMillis.add(timeMillis);
    queryTimes.increment();
  }

  public void recordWaitTime(long timeMillis)
  {
    if (timeMillis >= 0) {
      waitTimeMillis.add(timeMillis);
    }
  }

  /**
   * The counters now, with the node's CPU allowance and its process CPU time (0 when the JVM cannot tell). Also forgets segments that were not scanned since {@code idleEvictionMillis}; called by the
   * stats endpoint only, a few times a minute, so the eviction scan costs nothing on query threads.
   */
  public synchronized HistoricalStatsReport report(
      int numProcessingThreads,
      double cpuCores,
      long processCpuMicros,
      long stalledMillis
  )
  {
    final long now = System.nanoTime();
    final Map<String, HistoricalStatsReport.SegmentStats> perSegment = new TreeMap<>();
    segments.forEach((id, counters) -> {
      final long scans = counters.scans.sum();
      if (scans != counters.scansAtLastReport) {
        counters.scansAtLastReport = scans;
        counters.lastChangeNanos = now;
      } else if (now - counters.lastChangeNanos > idleEvictionNanos) {
        segments.remove(id, counters);
        return;
      }
      perSegment.put(id, new HistoricalStatsReport.SegmentStats(counters.timeMillis.sum(), scans));
    });
    return new HistoricalStatsReport(
        epoch,
        TimeUnit.NANOSECONDS.toMillis(now - startNanos),
        numProcessingThreads,
        cpuTimeMicros.sum(),
        queries.sum(),
        segmentTimeMillis.sum(),
        segmentScans.sum(),
        waitTimeMillis.sum(),
        queryTimeMillis.sum(),
        queryTimes.sum(),
        perSegment,
        cpuCores,
        processCpuMicros,
        stalledMillis
    );
  }

  public String epoch()
  {
    return epoch;
  }

  private static final class SegmentCounters
  {
    private final LongAdder timeMillis = new LongAdder();
    private final LongAdder scans = new LongAdder();
    // Guarded by the collector's monitor (only report() reads or writes them).
    private long scansAtLastReport = -1;
    private long lastChangeNanos;
  }
}
