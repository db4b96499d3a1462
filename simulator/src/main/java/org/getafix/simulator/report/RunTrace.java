package org.getafix.simulator.report;

import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * What the report plots for one run, beyond the summary figures.
 *
 * @param latencyMicros        latency histogram of the measured queries, microseconds
 * @param nodeIds              node ids, most cores first (the heat map's x axis, as in thesis Fig 4.3)
 * @param tierByRound          per measured round, per node (in nodeIds order): 0 = HOT, 1 = WARM, 2 = COLD
 * @param roundTimes           simulated time of each row of tierByRound
 * @param segmentAccesses      per segment, tasks run on it in the last minute of injection
 * @param segmentReplicas      per segment, replicas held at the end of injection
 * @param control              the budget or queue-limit controller over time; null for runs without one
 */
public record RunTrace(
    Histogram latencyMicros,
    List<String> nodeIds,
    List<int[]> tierByRound,
    List<Double> roundTimes,
    long[] segmentAccesses,
    int[] segmentReplicas,
    ControlTrace control
)
{
}
