package org.getafix.simulator.cluster;

import org.getafix.core.placement.capacity.MeasuredRound;

import java.util.HashMap;
import java.util.Map;

/**
 * What a Historical's Druid metrics and stats report would say about its round, at Druid's granularity: each scan's
 * {@code query/segment/time} in whole milliseconds, truncated (its wall time on a core, so a slow or straggling
 * node's scans take longer), {@code query/cpu/time} in µs (the scans only), the process CPU (the scans and the per
 * query work beside them), and the processing threads and CPU cores the node reports,
 * which need not be equal (a Historical in a 0.25-core cgroup quota still runs its configured threads). The
 * Coordinator's conversion ({@link MeasuredRound}) then sees what it sees on a live cluster.
 */
final class HistoricalMeter
{
  private final int processingThreads;
  private final double cpuCores;

  private final Map<String, long[]> scans = new HashMap<>();
  private double cpuSeconds;
  private double processCpuSeconds;

  /**
   * @param processingThreads processing threads the node reports ({@code druid.processing.numThreads})
   * @param cpuCores          CPU cores the node reports (its quota), in speed-1 cores
   */
  HistoricalMeter(int processingThreads, double cpuCores)
  {
    this.processingThreads = processingThreads;
    this.cpuCores = cpuCores;
  }

  void onDone(Task task, double serviceSeconds)
  {
    // CPU time is the task's own work: a straggler slowed by contention burns the same instructions, only later.
    record(task, serviceSeconds, task.work + task.overhead);
  }

  /** A scan cancelled after {@code ranSeconds} on its core, having burnt {@code cpuSeconds} of its work. */
  void onCancelled(Task task, double ranSeconds, double cpuSeconds)
  {
    record(task, ranSeconds, cpuSeconds);
  }

  /** A task that held its core {@code serviceSeconds} and burnt {@code cpu}, its per query work first. */
  private void record(Task task, double serviceSeconds, double cpu)
  {
    // The per query work runs outside the processing threads in Druid: not in the scan's time, nor its CPU time.
    final double scanCpu = Math.max(0, cpu - task.overhead);
    final double scanSeconds = cpu > 0 ? serviceSeconds * scanCpu / cpu : 0;
    final long[] s = scans.computeIfAbsent(task.segment.id(), id -> new long[2]);
    s[0] += (long) Math.floor(scanSeconds * 1000);
    s[1]++;
    cpuSeconds += scanCpu;
    processCpuSeconds += cpu;
  }

  /**
   * The round's counters, then starts the next round. Scans still running count in the round they finish.
   *
   * @param stalledSeconds how long in the round the node could not run (its stall meter's count)
   */
  MeasuredRound.NodeCounters takeRound(double wallSeconds, double stalledSeconds)
  {
    final Map<String, MeasuredRound.ScanCounters> segments = new HashMap<>();
    scans.forEach((id, s) -> segments.put(id, new MeasuredRound.ScanCounters(s[0], s[1])));
    final MeasuredRound.NodeCounters counters = new MeasuredRound.NodeCounters(
        Math.round(wallSeconds * 1000),
        processingThreads,
        cpuCores,
        Math.round(cpuSeconds * 1e6),
        Math.round(processCpuSeconds * 1e6),
        Math.round(stalledSeconds * 1000),
        segments
    );
    scans.clear();
    cpuSeconds = 0;
    processCpuSeconds = 0;
    return counters;
  }
}
