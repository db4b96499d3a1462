package org.getafix.simulator.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.HdrHistogram.Histogram;

import java.util.Map;

/**
 * One run's figures, as written to results.json (thesis §4.1 metrics). Memory and replica figures are averaged
 * over the measured window (after warm-up); latency covers queries that arrived in it.
 *
 * @param strategy                   getafix-core strategy name
 * @param routing                    the routing policy's name (RoutingPolicies)
 * @param capacityEstimator          estimator behind capacity-aware strategies (null for uniform ones)
 * @param gamma                      balancer bound used
 * @param totalReplicas              time-averaged number of replicas held (loaded or loading)
 * @param extraReplicas              time-averaged replicas beyond one per segment: the memory replication costs
 * @param effectiveReplicationFactor totalReplicas / time-averaged number of segments
 * @param totalMemoryBytes           time-averaged sum over nodes of bytes held
 * @param maxNodeMemoryBytes         peak bytes held by any one node
 * @param latencyMs                  query latency (arrival to last task done)
 * @param latencyMsByType            the same per query type
 * @param makespanMs                 time from the start until the last query completed
 * @param tieringAccuracy            share of node-rounds whose load tier matches the hardware tier; null when
 *                                   the scenario has no hardware tiers
 * @param tieringAccuracyNaturalBreaks the same with tiers found by natural breaks instead of known tier sizes
 * @param queries                    queries measured
 * @param tasks                      per-segment tasks run, whole run
 * @param replicaLoads               loads started, whole run, first replicas included
 * @param movedLoads                 loads started in the measured window of the segments served when it opened: the
 *                                   churn (new segments' loads are ingestion, which every strategy pays)
 * @param movedDataPerHour           those loads' bytes per hour, as a share of the data set (0.05 = 5% of the data
 *                                   loaded again each hour); NaN where not measured. The live demo counts its
 *                                   bytes before the straggler only, where a steady workload asks for none
 * @param meanUtilisation            mean core utilisation over nodes in the measured window
 * @param meanPlanMillis             mean wall milliseconds one plan took
 * @param execution                  budgeted execution or admission figures; absent for runs without them
 * @param redundancy                 redundant sub-query figures; absent for scenarios without redundancy settings
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RunResult(
    String strategy,
    String routing,
    String capacityEstimator,
    double gamma,
    long totalReplicas,
    long extraReplicas,
    double effectiveReplicationFactor,
    long totalMemoryBytes,
    long maxNodeMemoryBytes,
    Latency latencyMs,
    Map<String, Latency> latencyMsByType,
    double makespanMs,
    Double tieringAccuracy,
    Double tieringAccuracyNaturalBreaks,
    long queries,
    long tasks,
    long replicaLoads,
    long movedLoads,
    double movedDataPerHour,
    double meanUtilisation,
    double meanPlanMillis,
    @JsonInclude(JsonInclude.Include.NON_NULL) ExecutionResult execution,
    @JsonInclude(JsonInclude.Include.NON_NULL) RedundancyResult redundancy
)
{
  public record Latency(double mean, double p50, double p99)
  {
    /** Milliseconds from a histogram of microseconds. */
    public static Latency of(Histogram micros)
    {
      return new Latency(
          micros.getMean() / 1000,
          micros.getValueAtPercentile(50) / 1000.0,
          micros.getValueAtPercentile(99) / 1000.0
      );
    }
  }
}
