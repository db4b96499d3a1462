package org.getafix.demo;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * What was observed while one strategy ran: the samples of the whole phase (hand-over, warm-up, measurement) and the
 * measured workload.
 *
 * @param strategy          what ran
 * @param nodes             the Historicals, in launcher order
 * @param samples           cluster samples, in time order
 * @param measureFrom       phase second at which measurement started
 * @param measureTo         phase second at which it ended
 * @param straggler         the Historical throttled halfway through the measurement, null when there was none
 * @param stragglerAt       phase second at which it was throttled (NaN when there was none)
 * @param settled           whether placement settled before measurement (otherwise it was measured after the timeout)
 * @param latencyMicros     latency of the measured queries, all kinds, microseconds
 * @param latencyByType     the same per query kind
 * @param queries           measured queries
 * @param failures          measured queries that failed
 * @param failureExamples   a few failure messages
 * @param wallSeconds       measured wall time
 * @param segmentIds        segment ids, oldest hour first
 * @param segmentSizes      segment id → bytes
 * @param segmentAccesses   per segment (segmentIds order), measured queries that read it
 * @param gamma             Getafix balancer bound in force (0 for stock)
 * @param timeline          measured queries that answered, in the order they were sent
 * @param quality           budgets and mature runs of the phase; null when its queries carried no budget (stock)
 * @param warmUp            how the phase was warmed before its measurement
 * @param statsRejected     Historical-rounds whose statistics the Coordinator rejected as implausible, whole phase
 * @param statsMissing      Historical-rounds whose statistics did not come in time, whole phase
 */
public record PhaseRecord(
    Strategy strategy,
    List<Node> nodes,
    List<Sample> samples,
    double measureFrom,
    double measureTo,
    String straggler,
    double stragglerAt,
    boolean settled,
    Histogram latencyMicros,
    Map<String, Histogram> latencyByType,
    long queries,
    long failures,
    List<String> failureExamples,
    double wallSeconds,
    List<String> segmentIds,
    Map<String, Long> segmentSizes,
    long[] segmentAccesses,
    double gamma,
    List<TimedQuery> timeline,
    QualityRecord quality,
    PhaseWarmUp warmUp,
    long statsRejected,
    long statsMissing
)
{
  public PhaseRecord
  {
    nodes = List.copyOf(nodes);
    samples = List.copyOf(samples);
    failureExamples = List.copyOf(failureExamples);
    segmentIds = List.copyOf(segmentIds);
    segmentSizes = Map.copyOf(segmentSizes);
    latencyByType = Map.copyOf(latencyByType);
    timeline = List.copyOf(timeline);
  }

  /** Seconds into the measurement at which the straggler was throttled; NaN when there was none. */
  public double stragglerAfter()
  {
    return stragglerAt - measureFrom;
  }

  /** Samples taken while the workload was measured. */
  public List<Sample> measured()
  {
    return samples.stream().filter(s -> s.seconds() >= measureFrom && s.seconds() <= measureTo).toList();
  }
}
