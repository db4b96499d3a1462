package org.getafix.core.contract;

import java.time.Duration;

/**
 * The knobs of Getafix-H's placement on the Coordinator: the dynamic config ({@code GetafixDynamicConfig}, named by
 * its JSON fields), the {@code druid.getafix.*} runtime properties that shape a planning round ({@code GetafixConfig},
 * named by their keys), getafix-core's {@code PlacementConstraints}, and the simulator's {@code planning} block, which
 * takes its defaults and ranges from here so that a scenario plans as the extension does unless it says otherwise.
 */
public final class PlacementKnobs
{
  public static final Knob<Double> GAMMA = Knob.number(
      "gamma",
      0.20,
      Interval.closed(0, 1),
      "load-imbalance bound of the segment balancer (thesis §3.2): 1 − min/max node query load stays ≤ gamma; 0 off"
  );

  public static final Knob<Integer> MIN_REPLICAS = Knob.integer(
      "minReplicas",
      1,
      Interval.atLeast(1),
      "replica floor: every planned segment keeps at least this many copies, even with zero popularity"
  );

  /** Its range is relative to {@link #MIN_REPLICAS}: see {@link #maxReplicasProblem}. */
  /** Bounded: a cap far above any cluster's Historical count is a typo, not a plan. */
  public static final Knob<Integer> MAX_REPLICAS = Knob.integer(
      "maxReplicas",
      3,
      Interval.closed(1, 100),
      "replica cap per segment, >= minReplicas"
  );

  /**
   * With {@link #HOT_MIN_NODE_LOAD_SHARE}'s default, on the simulator's thesis scenarios this brought Getafix-H's p99
   * under druid-default's at 0.54–0.55× its memory (docs/benchmarks.md).
   */
  public static final Knob<Double> HOT_LOAD_SHARE = Knob.number(
      "hotLoadShare",
      0.9,
      Interval.closed(0, 1),
      "the hottest segments that together draw this fraction of the load keep two holders; 0 (the thesis) off"
  );

  public static final Knob<Double> HOT_MIN_NODE_LOAD_SHARE = Knob.number(
      "hotMinNodeLoadShare",
      0.08,
      Interval.closed(0, 1),
      "a segment is hot only if it also draws at least this share of a mean node's load"
  );

  /** Off: live it cost memory and loads without lowering the p99 (docs/benchmarks.md). */
  public static final Knob<Boolean> BACK_UP_UNSTABLE = Knob.flag(
      "backUpUnstable",
      false,
      "a segment held only by Historicals that are slow for a few seconds now and then gets a second holder"
  );

  /**
   * How far the plan in force may drift from a fresh plan's peak before replicas move ({@code PlanKeeper}). 0.2 moved
   * less data in the simulator but doubled Getafix-H's p99 on one straggler scenario-seed; 0.1 kept it
   * (docs/benchmarks.md).
   */
  public static final Knob<Double> MIN_PLAN_GAIN = Knob.number(
      "minPlanGain",
      0.1,
      Interval.closed(0, 10),
      "replicas move only while the plan in force puts a node more than this fraction above a fresh plan's peak load "
      + "(relative to capacity); 0 adopts every round's plan"
  );

  /**
   * Without a budget the plan keeper loaded up to 1.6 times the data set per hour in the simulator's scenarios
   * (docs/benchmarks.md), where stock Druid's balancer on a steady workload loads next to nothing; with it, at most
   * 0.12 (medians), at a p99 up to 1.4 times higher on the straggler scenario.
   */
  public static final Knob<Double> MAX_REBALANCE_DATA_PER_HOUR = Knob.number(
      "maxRebalanceDataPerHour",
      0.05,
      Interval.closed(0, 1000),
      "the most data, as a share of the data set, the plan in force may load per hour to rebalance (repairs of its "
      + "peak wait for it; holders of segments that grew hot are charged to it); loads that keep data served do not count"
  );

  public static final Knob<Integer> MAX_LOADS_PER_ROUND = Knob.integer(
      "maxLoadsPerRound",
      50,
      Interval.atLeast(0),
      "plan-driven loads per Coordinator run, beyond those that restore the replica floor"
  );

  public static final Knob<Integer> MAX_DROPS_PER_ROUND = Knob.integer(
      "maxDropsPerRound",
      50,
      Interval.atLeast(0),
      "plan-driven drops per Coordinator run"
  );

  /** {@code druid.getafix.round.period} sets the default, which the dynamic config's {@code roundPeriod} overrides. */
  /** At most an hour: the plan follows the workload in rounds of seconds, and a longer round freezes it. */
  public static final Knob<Duration> ROUND_PERIOD = Knob.durationBetween(
      "roundPeriod",
      Duration.ofSeconds(5),
      Duration.ofSeconds(1),
      Duration.ofHours(1),
      "planning round period (thesis: 5 s)"
  );

  public static final Knob<Double> POPULARITY_DECAY = Knob.number(
      "druid.getafix.popularity.decay",
      0.5,
      Interval.closedOpen(0, 1),
      "weight of the previous round's popularity (thesis: ½)"
  );

  public static final Knob<Boolean> POPULARITY_BIAS_CORRECTION = Knob.flag(
      "druid.getafix.popularity.biasCorrection",
      false,
      "rate a young segment by raw / (1 − decay^age); off is the thesis formula"
  );

  public static final Knob<Boolean> POPULARITY_INHERITANCE = Knob.flag(
      "druid.getafix.popularity.inheritance",
      true,
      "a new segment starts from the popularity of the segment of the previous interval; off is the thesis formula"
  );

  /** Which names exist is getafix-core's {@code CapacityEstimators.REGISTRY}'s to say; it checks them. */
  public static final Knob<String> CAPACITY_ESTIMATOR = Knob.of(
      "druid.getafix.capacity.estimator",
      "throughput",
      "a capacity estimator's name",
      name -> name != null && !name.isBlank(),
      "throughput (work per busy second) or cpu-time (thesis §3.1)"
  );

  public static final Knob<Double> CAPACITY_SMOOTHING = Knob.number(
      "druid.getafix.capacity.smoothing",
      1.0,
      Interval.openClosed(0, 1),
      "weight of the newest median of three rounds in the capacity moving average; 1 means the median alone"
  );

  private PlacementKnobs()
  {
  }

  /** Why {@code maxReplicas} does not fit {@code minReplicas}, or null if it does. */
  public static String maxReplicasProblem(int minReplicas, int maxReplicas)
  {
    return Knob.belowOther(MAX_REPLICAS.name(), maxReplicas, MIN_REPLICAS.name(), minReplicas);
  }
}
