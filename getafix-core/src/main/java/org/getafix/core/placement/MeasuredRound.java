package org.getafix.core.placement;

import java.util.HashMap;
import java.util.Map;

/**
 * One round of a tier's query counters, as Druid measures them on each Historical, turned into what the planner
 * needs: each segment's access time (popularity input) and each node's {@link NodeRoundStats} (capacity input).
 * The Coordinator and the simulator both measure through this one conversion, so the simulator's estimator sees the
 * same granularity the live one does.
 *
 * <p>Access time: Druid reports segment times in whole milliseconds, truncated, so a scan that took t ms reports
 * ⌊t⌋: on average 0.5 ms too little, and on small segments almost every scan reports 0. Each scan's time is therefore
 * counted as reported + 0.5 ms, the unbiased estimate, which also makes scan counts matter when every time is 0.
 *
 * <p>Capacity: work is the node's query CPU time, busy time the larger of two lower bounds of how long its CPU
 * allowance was in use, capped at the round: CPU time / CPU cores (the cgroup quota, or the machine's cores), and
 * processing-thread time (truncated segment times, not corrected) / processing threads, which also counts time a
 * thread waited for a core it did not get (throttling, a noisy neighbour, page faults). So work / busy is the CPU the
 * node delivers when fully busy, in cores; a straggler's threads take longer for the same CPU and lower it.
 * Why not what it was before (issue 11): work was Σ scans × the segment's cluster-wide mean scan time, and busy
 * included Little's law over {@code query/time}. With one replica per segment, as Getafix-H plans, a segment's mean
 * scan time is its holder's own, so a slow node's work was inflated by its own slowness; and Σ query/time counts
 * per-query overhead, queueing and Broker back-pressure, which caps every busy node at the round and turns work /
 * busy into the load a node was given. On a live 1.0 / 0.5 / 0.25-core cluster that rated the 0.5-core node above
 * the 1.0-core one; the simulator, measuring the same way, even put the 0.25-core node first. CPU time needs no
 * shared unit: throttled or starved, a scan burns the same instructions, only later.
 *
 * @param accessTimeMillis segment id → query time spent on it in the round, in ms, summed over nodes
 * @param nodeStats        node → its round for the capacity estimator: CPU seconds, busy seconds, wall seconds, and
 *                         work units (= CPU seconds)
 */
public record MeasuredRound(Map<String, Double> accessTimeMillis, Map<String, NodeRoundStats> nodeStats)
{
  static final double TRUNCATION_CORRECTION_MILLIS = 0.5;

  /**
   * @param timeMillis sum of the scans' {@code query/segment/time}, whole ms each
   * @param scans      number of scans
   */
  public record ScanCounters(long timeMillis, long scans)
  {
  }

  /**
   * One node's counters for one round.
   *
   * @param wallMillis        length of the round on the node's clock
   * @param processingThreads the node's processing threads ({@code druid.processing.numThreads})
   * @param cpuCores          the CPU the node may use, in cores (its cgroup quota, or the machine's cores); 0 when
   *                          the node does not say (an older Historical), then its processing threads stand in
   * @param cpuTimeMicros     query CPU time ({@code query/cpu/time})
   * @param segments          segment id → its scans on this node this round
   */
  public record NodeCounters(
      long wallMillis,
      int processingThreads,
      double cpuCores,
      long cpuTimeMicros,
      Map<String, ScanCounters> segments
  )
  {
    /** The CPU allowance busy time is measured against. */
    double allowanceCores()
    {
      return cpuCores > 0 && Double.isFinite(cpuCores) ? cpuCores : processingThreads;
    }
  }

  public static MeasuredRound of(Map<String, NodeCounters> nodes)
  {
    final Map<String, Double> accessTime = new HashMap<>();
    nodes.values().forEach(node -> node.segments().forEach(
        (segment, s) -> accessTime.merge(segment, correctedMillis(s), Double::sum)
    ));

    final Map<String, NodeRoundStats> nodeStats = new HashMap<>();
    nodes.forEach((id, node) -> {
      final double wallSeconds = node.wallMillis() / 1000.0;
      final double cpuSeconds = node.cpuTimeMicros() / 1e6;
      long threadBusyMillis = 0;
      for (ScanCounters s : node.segments().values()) {
        threadBusyMillis += s.timeMillis();
      }
      final double threadBusySeconds = threadBusyMillis / 1000.0 / node.processingThreads();
      final double cpuBusySeconds = cpuSeconds / node.allowanceCores();
      final double busySeconds = Math.min(wallSeconds, Math.max(threadBusySeconds, cpuBusySeconds));
      nodeStats.put(id, new NodeRoundStats(cpuSeconds, busySeconds, wallSeconds, cpuSeconds));
    });
    return new MeasuredRound(accessTime, nodeStats);
  }

  private static double correctedMillis(ScanCounters s)
  {
    return s.timeMillis() + TRUNCATION_CORRECTION_MILLIS * s.scans();
  }
}
