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
  /** A delta this many times the common round or longer covered rounds it missed. */
  static final double CATCH_UP_RATIO = 1.5;

  /**
   * @param roundMillis the time since the last round's reports were received, on the reader's clock; 0 when unknown.
   *                    A delta more than {@value #CATCH_UP_RATIO} times that long covers rounds whose report was
   *                    late or rejected. Its segments' access time is scaled to one round: those segments were not
   *                    measured in the rounds it missed and kept their popularity, so counting the catch-up whole
   *                    would add those rounds' access on top.
   */
  public static RoundStats of(Map<String, NodeStatsTracker.NodeDelta> deltas, long roundMillis)
  {
    final Map<String, Double> accessTime = new HashMap<>();
    final Map<String, NodeRoundStats> nodeStats = new HashMap<>();
    deltas.forEach((node, delta) -> {
      final MeasuredRound round = MeasuredRound.of(Map.of(node, countersOf(delta)));
      final double scale = roundMillis > 0 && delta.wallMillis() > CATCH_UP_RATIO * roundMillis
                           ? (double) roundMillis / delta.wallMillis()
                           : 1;
      round.accessTimeMillis().forEach((segment, millis) -> accessTime.merge(segment, millis * scale, Double::sum));
      nodeStats.putAll(round.nodeStats());
    });
    return new RoundStats(accessTime, nodeStats);
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
