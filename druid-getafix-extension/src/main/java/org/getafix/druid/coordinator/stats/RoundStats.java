package org.getafix.druid.coordinator.stats;

import org.getafix.core.placement.capacity.MeasuredRound;
import org.getafix.core.placement.capacity.NodeRoundStats;
import org.getafix.core.wire.HistoricalStatsReport;

import java.util.HashMap;
import java.util.Map;

/**
 * One round's statistics of the whole tier, in the units getafix-core expects, from the per-node deltas: the
 * Historicals' counters go through getafix-core's {@link MeasuredRound}, the conversion the simulator measures
 * through too.
 *
 * @param accessTime segment id → query time spent on it in the round, in ms, summed over nodes (popularity input)
 * @param nodeStats  node → its round for the capacity estimator (see {@link MeasuredRound})
 */
public record RoundStats(Map<String, Double> accessTime, Map<String, NodeRoundStats> nodeStats)
{
  /**
   * @param roundMillis the time since the last round's reports were received, on the reader's clock; 0 when unknown
   *                    (see {@link MeasuredRound#of(Map, long)}: a delta that covers missed rounds counts as one)
   */
  public static RoundStats of(Map<String, NodeStatsTracker.NodeDelta> deltas, long roundMillis)
  {
    final Map<String, MeasuredRound.NodeCounters> counters = new HashMap<>();
    deltas.forEach((node, delta) -> counters.put(node, countersOf(delta)));
    final MeasuredRound round = MeasuredRound.of(counters, roundMillis);
    return new RoundStats(round.accessTimeMillis(), round.nodeStats());
  }

  private static MeasuredRound.NodeCounters countersOf(NodeStatsTracker.NodeDelta delta)
  {
    final Map<String, MeasuredRound.ScanCounters> segments = new HashMap<>();
    for (Map.Entry<String, HistoricalStatsReport.SegmentStats> e : delta.segments().entrySet()) {
      segments.put(e.getKey(), new MeasuredRound.ScanCounters(e.getValue().timeMillis(), e.getValue().scans()));
    }
    return new MeasuredRound.NodeCounters(
        delta.wallMillis(),
        delta.numProcessingThreads(),
        delta.cpuCores(),
        delta.cpuTimeMicros(),
        delta.processCpuMicros(),
        delta.stalledMillis(),
        segments
    );
  }
}
