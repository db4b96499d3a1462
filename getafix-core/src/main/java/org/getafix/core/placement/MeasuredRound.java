package org.getafix.core.placement;

import java.util.HashMap;
import java.util.Map;

/**
 * One round of a tier's query counters, as Druid measures them on each Historical, turned into what the planner
 * needs: each segment's access time (popularity input) and each node's {@link NodeRoundStats} (capacity input).
 * The Coordinator and the simulator both measure through this one conversion, so the simulator's estimator sees the
 * same granularity the live one does.
 *
 * <p>Druid reports segment times in whole milliseconds, truncated, so a scan that took t ms reports ⌊t⌋: on
 * average 0.5 ms too little, and on small segments almost every scan reports 0. Each scan's time is therefore
 * counted as reported + 0.5 ms, the unbiased estimate, which also makes scan counts matter when every time is 0.
 *
 * @param accessTimeMillis segment id → query time spent on it in the round, in ms, summed over nodes
 * @param nodeStats        node → its round for the capacity estimator: CPU seconds, busy seconds, wall seconds, and
 *                         work units = Σ over its scans of the segment's cluster-wide mean time per scan. Busy
 *                         seconds are the larger of two estimates of utilisation × round, capped at the round:
 *                         processing-thread busy time (segment times) / processing threads, and query wall time
 *                         (Little's law: Σ query/time / round is the mean number of queries in flight, ≥ 1 means
 *                         always busy). A node slower than the others on the same segments thus does less work per
 *                         busy second.
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
   * @param wallMillis           length of the round on the node's clock
   * @param processingThreads    the node's processing threads ({@code druid.processing.numThreads})
   * @param cpuTimeMicros        query CPU time ({@code query/cpu/time})
   * @param queryTimeMillis      wall time of the queries the node served ({@code query/time}, whole ms each)
   * @param queryTimes           number of those queries
   * @param segments             segment id → its scans on this node this round
   */
  public record NodeCounters(
      long wallMillis,
      int processingThreads,
      long cpuTimeMicros,
      long queryTimeMillis,
      long queryTimes,
      Map<String, ScanCounters> segments
  )
  {
  }

  public static MeasuredRound of(Map<String, NodeCounters> nodes)
  {
    final Map<String, Double> accessTime = new HashMap<>();
    final Map<String, Long> scans = new HashMap<>();
    nodes.values().forEach(node -> node.segments().forEach((segment, s) -> {
      accessTime.merge(segment, correctedMillis(s), Double::sum);
      scans.merge(segment, s.scans(), Long::sum);
    }));

    final Map<String, NodeRoundStats> nodeStats = new HashMap<>();
    nodes.forEach((id, node) -> {
      final double wallSeconds = node.wallMillis() / 1000.0;
      double threadBusyMillis = 0;
      double workUnits = 0;
      for (Map.Entry<String, ScanCounters> e : node.segments().entrySet()) {
        threadBusyMillis += correctedMillis(e.getValue());
        final long totalScans = scans.get(e.getKey());
        if (totalScans > 0) {
          workUnits += e.getValue().scans() * (accessTime.get(e.getKey()) / totalScans);
        }
      }
      final double threadBusySeconds = threadBusyMillis / 1000.0 / node.processingThreads();
      final double queryBusySeconds =
          (node.queryTimeMillis() + TRUNCATION_CORRECTION_MILLIS * node.queryTimes()) / 1000.0;
      final double busySeconds = Math.min(wallSeconds, Math.max(threadBusySeconds, queryBusySeconds));
      nodeStats.put(id, new NodeRoundStats(node.cpuTimeMicros() / 1e6, busySeconds, wallSeconds, workUnits));
    });
    return new MeasuredRound(accessTime, nodeStats);
  }

  private static double correctedMillis(ScanCounters s)
  {
    return s.timeMillis() + TRUNCATION_CORRECTION_MILLIS * s.scans();
  }
}
