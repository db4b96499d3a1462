package org.getafix.druid.coordinator;

import org.getafix.core.placement.NodeRoundStats;
import org.getafix.core.wire.HistoricalStatsReport;

import java.util.HashMap;
import java.util.Map;

/**
 * One round's statistics of the whole tier, in the units getafix-core expects, from the per-node deltas.
 *
 * <p>Druid reports segment times in whole milliseconds, truncated, so a scan that took t ms reports ⌊t⌋: on
 * average 0.5 ms too little, and on small segments almost every scan reports 0. Each scan's time is therefore
 * counted as reported + 0.5 ms, the unbiased estimate, which also makes scan counts matter when every time is 0.
 *
 * @param accessTime segment id → query time spent on it in the round, in ms, summed over nodes (popularity input)
 * @param nodeStats  node → its round for the capacity estimator: CPU seconds, busy seconds, wall seconds, and work
 *                   units = Σ over its scans of the segment's cluster-wide mean time per scan. Busy seconds are the
 *                   larger of two estimates of utilisation × round, capped at the round: processing-thread busy time
 *                   (segment times) / processing threads, and query wall time (Little's law: Σ query/time / round
 *                   is the mean number of queries in flight, ≥ 1 means always busy). The second matters on small
 *                   segments, whose scans mostly report 0 ms while a whole query reports a measurable time. A node
 *                   slower than the others on the same segments thus does less work per busy second.
 */
public record RoundStats(Map<String, Double> accessTime, Map<String, NodeRoundStats> nodeStats)
{
  static final double TRUNCATION_CORRECTION_MILLIS = 0.5;

  public static RoundStats of(Map<String, NodeStatsTracker.NodeDelta> deltas)
  {
    final Map<String, Double> accessTime = new HashMap<>();
    final Map<String, Long> scans = new HashMap<>();
    deltas.values().forEach(delta -> delta.segments().forEach((segment, s) -> {
      accessTime.merge(segment, correctedMillis(s), Double::sum);
      scans.merge(segment, s.scans(), Long::sum);
    }));

    final Map<String, NodeRoundStats> nodeStats = new HashMap<>();
    deltas.forEach((node, delta) -> {
      final double wallSeconds = delta.wallMillis() / 1000.0;
      double threadBusyMillis = 0;
      double workUnits = 0;
      for (Map.Entry<String, HistoricalStatsReport.SegmentStats> e : delta.segments().entrySet()) {
        threadBusyMillis += correctedMillis(e.getValue());
        final long totalScans = scans.get(e.getKey());
        if (totalScans > 0) {
          workUnits += e.getValue().scans() * (accessTime.get(e.getKey()) / totalScans);
        }
      }
      final double threadBusySeconds = threadBusyMillis / 1000.0 / delta.numProcessingThreads();
      final double queryBusySeconds =
          (delta.queryTimeMillis() + TRUNCATION_CORRECTION_MILLIS * delta.queryTimes()) / 1000.0;
      final double busySeconds = Math.min(wallSeconds, Math.max(threadBusySeconds, queryBusySeconds));
      nodeStats.put(node, new NodeRoundStats(delta.cpuTimeMicros() / 1e6, busySeconds, wallSeconds, workUnits));
    });
    return new RoundStats(accessTime, nodeStats);
  }

  private static double correctedMillis(HistoricalStatsReport.SegmentStats s)
  {
    return s.timeMillis() + TRUNCATION_CORRECTION_MILLIS * s.scans();
  }
}
