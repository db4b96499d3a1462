package org.getafix.simulator.strategy;

import org.getafix.core.placement.CapacityEstimator;
import org.getafix.core.placement.CpuTimeCapacityEstimator;
import org.getafix.core.placement.NodeCapacity;
import org.getafix.core.placement.PlacementConstraints;
import org.getafix.core.placement.PlacementInput;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.core.placement.PlacementStrategy;
import org.getafix.core.placement.PopularityTracker;
import org.getafix.core.placement.SegmentLoad;
import org.getafix.core.placement.SplitPolicy;
import org.getafix.core.placement.Strategies;
import org.getafix.core.placement.ThroughputCapacityEstimator;
import org.getafix.simulator.cluster.Cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Feeds a getafix-core {@link PlacementStrategy} the way the Druid glue does: popularity from access times
 * (or, for Scarlett, concurrent accesses), capacities from a {@link CapacityEstimator} or uniform.
 */
public final class CorePlacementAdapter implements PlacementAdapter
{
  /** What a segment's load is for the strategy. */
  public enum LoadSignal
  {
    /** Popularity(s) = decay·Popularity(s) + AccessTime(s): Getafix and its variants. */
    ACCESS_TIME_POPULARITY,
    /** Peak concurrent accesses in the round: Scarlett. */
    CONCURRENT_ACCESSES
  }

  private final PlacementStrategy strategy;
  private final LoadSignal signal;
  private final PopularityTracker popularity;
  private final CapacityEstimator estimator;
  private final PlacementConstraints constraints;
  private Map<String, Double> lastCapacities = Map.of();

  /**
   * @param estimator null for uniform capacities (every node 1.0)
   */
  public CorePlacementAdapter(
      PlacementStrategy strategy,
      LoadSignal signal,
      PopularityTracker popularity,
      CapacityEstimator estimator,
      PlacementConstraints constraints
  )
  {
    this.strategy = strategy;
    this.signal = signal;
    this.popularity = popularity;
    this.estimator = estimator;
    this.constraints = constraints;
  }

  /** The adapter of a strategy named as in {@code ScenarioSettings.STRATEGIES}. */
  public static PlacementAdapter create(
      String strategy,
      String capacityEstimator,
      double decay,
      boolean popularityBiasCorrection,
      PlacementConstraints constraints,
      int druidDefaultReplicas
  )
  {
    // Every strategy gets the same kind of tracker, so the comparison stays fair.
    final PopularityTracker popularity = new PopularityTracker(decay, popularityBiasCorrection);
    return switch (strategy) {
      case "getafix-h" -> new CorePlacementAdapter(
          Strategies.getafixH(), LoadSignal.ACCESS_TIME_POPULARITY, popularity,
          estimator(capacityEstimator), constraints
      );
      case "auto-tiering" -> new CorePlacementAdapter(
          Strategies.autoTieringOnly(), LoadSignal.ACCESS_TIME_POPULARITY, popularity,
          estimator(capacityEstimator), constraints
      );
      case "getafix-b" -> new CorePlacementAdapter(
          Strategies.getafixB(), LoadSignal.ACCESS_TIME_POPULARITY, popularity, null, constraints
      );
      case "getafix-h-thesis-split" -> new CorePlacementAdapter(
          Strategies.getafix(true, SplitPolicy.THESIS), LoadSignal.ACCESS_TIME_POPULARITY, popularity,
          estimator(capacityEstimator), constraints
      );
      case "getafix-b-thesis-split" -> new CorePlacementAdapter(
          Strategies.getafix(false, SplitPolicy.THESIS), LoadSignal.ACCESS_TIME_POPULARITY, popularity, null,
          constraints
      );
      case "scarlett" -> new CorePlacementAdapter(
          Strategies.scarlett(), LoadSignal.CONCURRENT_ACCESSES, popularity, null, constraints
      );
      case "druid-default" -> new CorePlacementAdapter(
          Strategies.druidDefault(druidDefaultReplicas), LoadSignal.ACCESS_TIME_POPULARITY, popularity, null,
          constraints
      );
      default -> throw new IllegalArgumentException("unknown strategy [" + strategy + "]");
    };
  }

  private static CapacityEstimator estimator(String name)
  {
    return switch (name) {
      case "cpu-time" -> new CpuTimeCapacityEstimator();
      case "throughput" -> new ThroughputCapacityEstimator();
      default -> throw new IllegalArgumentException("unknown capacity estimator [" + name + "]");
    };
  }

  @Override
  public String strategyName()
  {
    return strategy.name();
  }

  @Override
  public PlacementPlan plan(RoundObservation observation)
  {
    final Map<String, Double> accessTimes = new LinkedHashMap<>();
    for (Cluster.SegmentRoundStats s : observation.segments()) {
      accessTimes.put(s.segmentId(), s.accessTimeSeconds());
    }
    final Map<String, Double> popular = popularity.update(accessTimes);

    final List<SegmentLoad> segments = new ArrayList<>(observation.segments().size());
    for (Cluster.SegmentRoundStats s : observation.segments()) {
      final double load = signal == LoadSignal.CONCURRENT_ACCESSES
                          ? s.peakConcurrentAccesses()
                          : popular.getOrDefault(s.segmentId(), 0.0);
      segments.add(new SegmentLoad(s.segmentId(), load, s.sizeBytes()));
    }

    final Map<String, Double> capacities = new LinkedHashMap<>();
    if (estimator != null) {
      for (RoundObservation.NodeObservation n : observation.nodes()) {
        estimator.observe(n.nodeId(), n.stats());
      }
    }
    final List<NodeCapacity> nodes = new ArrayList<>(observation.nodes().size());
    for (RoundObservation.NodeObservation n : observation.nodes()) {
      // A node with no estimate yet (it never reported a usable round) gets the mean of the others' estimates.
      final double capacity = estimator == null ? 1.0 : estimator.capacityOr(n.nodeId(), meanEstimate());
      capacities.put(n.nodeId(), capacity);
      nodes.add(new NodeCapacity(n.nodeId(), capacity, n.memoryBytes()));
    }
    lastCapacities = capacities;
    return strategy.plan(new PlacementInput(segments, nodes, constraints, observation.currentHolders()));
  }

  private double meanEstimate()
  {
    final Map<String, Double> known = estimator.capacities();
    return known.isEmpty() ? 1.0 : known.values().stream().mapToDouble(Double::doubleValue).average().orElse(1.0);
  }

  @Override
  public Map<String, Double> lastCapacities()
  {
    return lastCapacities;
  }
}
