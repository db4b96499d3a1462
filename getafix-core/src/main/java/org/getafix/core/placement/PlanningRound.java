package org.getafix.core.placement;

import org.getafix.core.placement.capacity.CapacityEstimator;
import org.getafix.core.placement.capacity.CapacityEstimators;
import org.getafix.core.placement.capacity.NodeSample;
import org.getafix.core.placement.packing.PlacementStrategy;
import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.popularity.LoadSignal;
import org.getafix.core.placement.popularity.PopularityTracker;
import org.getafix.core.placement.popularity.SegmentSample;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.core.placement.tiering.Tier;
import org.getafix.core.placement.tiering.TierClassifier;
import org.getafix.core.placement.tiering.TieringAccuracy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Getafix planning round, the one both the Coordinator extension and the simulator run: what spans rounds
 * (segment popularity, node capacity estimates) and the round itself. Each round the caller first hands over what it
 * measured ({@link #observe}: access times, node statistics, memory), then asks for the plan ({@link #plan}), the way
 * a concurrency limit is fed samples and then asked for the limit. The two steps are apart because the extension
 * observes while it warms up but plans only once it has a full round of statistics.
 *
 * <p>The strategy's {@link PlacementStrategies.Entry} says what to feed it: its {@link LoadSignal} turns each
 * segment's round and popularity into its load, and only a capacity-aware strategy has a capacity estimator (every
 * node weighs 1 otherwise). A node without an estimate yet (just joined, never busy, or back after it was taken out of
 * the plan) gets the mean estimate of the live nodes, so that it takes an average share until it is measured; an
 * estimate of a node that is no longer observed, or no longer placeable, is forgotten.
 *
 * <p>Not thread-safe; one instance per planning loop (the extension makes a new one when it becomes the leader).
 */
public final class PlanningRound
{
  private final PlacementStrategies.Entry entry;
  private final PlacementStrategy strategy;
  private final PopularityTracker popularity;
  private final boolean popularityInheritance;
  /** Null when the strategy is not capacity-aware: every node weighs 1. */
  private final CapacityEstimator estimator;
  /** Null for the strategies that replan every round: the thesis' own and those standing for other systems. */
  private final PlanKeeper keeper;
  private Observed observed;

  /**
   * @throws IllegalArgumentException naming an unknown strategy or estimator (with the known ones) or a bad value
   */
  public PlanningRound(Settings settings)
  {
    this.entry = PlacementStrategies.REGISTRY.get(settings.strategy());
    this.strategy = entry.create(settings.druidReplicationFactor());
    // The thesis' algorithm gets the thesis' popularity: no bias correction, no inheritance.
    this.popularity = new PopularityTracker(
        settings.popularityDecay(),
        settings.popularityBiasCorrection() && !entry.thesis()
    );
    this.popularityInheritance = settings.popularityInheritance() && !entry.thesis();
    final CapacityEstimators.Entry estimatorEntry = CapacityEstimators.REGISTRY.get(settings.capacityEstimator());
    this.estimator = entry.capacityAware() ? estimatorEntry.create(settings.capacitySmoothing()) : null;
    this.keeper = entry.budgeted() && !entry.thesis() ? new PlanKeeper() : null;
  }

  /**
   * What a planning loop is configured with.
   *
   * @param strategy                 a name in {@link PlacementStrategies#REGISTRY}
   * @param capacityEstimator        a name in {@link CapacityEstimators#REGISTRY}; checked even when the strategy
   *                                 does not use it, so that a typo is never silently ignored
   * @param capacitySmoothing        weight of the newest round in the capacity moving average, in (0, 1]
   * @param popularityDecay          see {@link PopularityTracker}
   * @param popularityBiasCorrection see {@link PopularityTracker}
   * @param druidReplicationFactor   replication factor of the baselines that stand for stock Druid
   * @param popularityInheritance    a new segment starts from the popularity of the segment it follows, when the
   *                                 caller names one ({@link SegmentSample#predecessorId}); see
   *                                 {@link PopularityTracker}
   */
  public record Settings(
      String strategy,
      String capacityEstimator,
      double capacitySmoothing,
      double popularityDecay,
      boolean popularityBiasCorrection,
      int druidReplicationFactor,
      boolean popularityInheritance
  )
  {
    /** Without popularity inheritance, as the thesis plans. */
    public Settings(
        String strategy,
        String capacityEstimator,
        double capacitySmoothing,
        double popularityDecay,
        boolean popularityBiasCorrection,
        int druidReplicationFactor
    )
    {
      this(
          strategy,
          capacityEstimator,
          capacitySmoothing,
          popularityDecay,
          popularityBiasCorrection,
          druidReplicationFactor,
          false
      );
    }
  }

  /**
   * What the round learnt, before planning.
   *
   * @param popularity  segment id → popularity, in the order the segments were observed
   * @param capacities  node id → capacity the plan uses, in the order the nodes were observed
   * @param departed    nodes whose estimate was forgotten because they were not observed this round, by id
   * @param rejections  node id → why its latest statistics were not used (it keeps its last estimate)
   * @param cpuSeconds  node id → CPU seconds measured this round, for the nodes with statistics
   * @param segments    the segments as observed, which {@link #plan} places
   * @param nodes       the nodes as observed, which {@link #plan} places on (the placeable ones)
   * @param slowRounds  node id → its recent slow rounds ({@link CapacityEstimator#slowRounds}), by id; empty when the
   *                    strategy is not capacity-aware
   * @param unstable    the nodes slow often enough to need backing up ({@link CapacityEstimator#unstable}), by id
   */
  public record Observed(
      Map<String, Double> popularity,
      Map<String, Double> capacities,
      List<String> departed,
      Map<String, String> rejections,
      Map<String, Double> cpuSeconds,
      List<SegmentSample> segments,
      List<NodeSample> nodes,
      Map<String, Integer> slowRounds,
      Set<String> unstable
  )
  {
    /** HOT / WARM / COLD by the CPU time the nodes measured (thesis Fig 4.3), natural breaks. */
    public Map<String, Tier> measuredTiers()
    {
      return TierClassifier.classify(cpuSeconds);
    }

    /** HOT / WARM / COLD by the CPU time the nodes measured, for tiers of known sizes (thesis Table 4.1). */
    public Map<String, Tier> measuredTiersByRank(int hotCount, int warmCount)
    {
      return TierClassifier.classifyByRank(cpuSeconds, hotCount, warmCount);
    }
  }

  /**
   * The round's plan.
   *
   * @param observed   what the round learnt before planning
   * @param plan       the placement
   * @param loadShares node id → the load the plan routes to it: Σ over segments of load × the node's share, for every
   *                   observed node (0 for a node planned nothing), by id
   * @param tiers      HOT / WARM / COLD of every observed node by its planned load share, by id
   * @param verdict    whether the round's fresh plan replaced the plan in force, and why ({@link PlanKeeper}); null
   *                   for the strategies that replan every round
   */
  public record Result(
      Observed observed,
      PlacementPlan plan,
      Map<String, Double> loadShares,
      Map<String, Tier> tiers,
      PlanKeeper.Verdict verdict
  )
  {
    /**
     * Fraction of the nodes with a hardware tier whose planned tier matches it; empty when no observed node has one.
     * Nodes named in {@code hardware} but not observed are left out.
     */
    public OptionalDouble tieringAccuracy(Map<String, Tier> hardware)
    {
      final Map<String, Tier> known = new TreeMap<>(hardware);
      known.keySet().retainAll(tiers.keySet());
      if (known.isEmpty()) {
        return OptionalDouble.empty();
      }
      final Map<String, Tier> compared = new TreeMap<>(tiers);
      compared.keySet().retainAll(known.keySet());
      return OptionalDouble.of(TieringAccuracy.of(compared, known));
    }
  }

  public PlacementStrategies.Entry strategy()
  {
    return entry;
  }

  /**
   * Folds one round's measurements into popularity and capacity estimates.
   *
   * @param segments every segment the plan governs this round, in the order the plan should consider them
   * @param nodes    every live node, in the order of the plan's node list
   * @throws IllegalArgumentException on a bad access time or id (the state is then unchanged)
   */
  public Observed observe(List<SegmentSample> segments, List<NodeSample> nodes)
  {
    final Map<String, Double> accessTimes = new LinkedHashMap<>();
    final Map<String, String> predecessors = new HashMap<>();
    final Set<String> unmeasured = new HashSet<>();
    for (SegmentSample s : segments) {
      accessTimes.put(s.segmentId(), s.accessTime());
      if (popularityInheritance && s.predecessorId() != null) {
        predecessors.put(s.segmentId(), s.predecessorId());
      }
      if (!s.measured()) {
        unmeasured.add(s.segmentId());
      }
    }
    final Map<String, Double> popular = popularity.update(accessTimes, predecessors, unmeasured);

    final List<String> departed = new ArrayList<>();
    Map<String, String> rejections = Map.of();
    final Map<String, Double> cpuSeconds = new LinkedHashMap<>();
    for (NodeSample n : nodes) {
      if (n.stats() != null) {
        cpuSeconds.put(n.nodeId(), n.stats().cpuTimeSeconds());
      }
    }
    final Set<String> live = new HashSet<>();
    nodes.forEach(n -> live.add(n.nodeId()));
    if (estimator != null) {
      for (String node : estimator.capacities().keySet()) {
        if (!live.contains(node)) {
          departed.add(node);
          estimator.forget(node);
        }
      }
      for (NodeSample n : nodes) {
        if (!n.placeable()) {
          // Out of the plan (hung or unreachable): when it is back it starts afresh, as a new node does, rather than
          // from an estimate of how it ran a minute or more ago.
          estimator.forget(n.nodeId());
        } else if (n.stats() != null || n.failed()) {
          estimator.observe(n.nodeId(), n.stats());
        }
      }
      rejections = estimator.rejections();
    }

    final Map<String, Double> capacities = new LinkedHashMap<>();
    final double fallback = estimator == null ? 1.0 : meanEstimateOf(live);
    for (NodeSample n : nodes) {
      capacities.put(n.nodeId(), estimator == null ? 1.0 : estimator.capacityOr(n.nodeId(), fallback));
    }
    observed = new Observed(
        popular,
        Collections.unmodifiableMap(capacities),
        List.copyOf(departed),
        rejections,
        Collections.unmodifiableMap(cpuSeconds),
        List.copyOf(segments),
        List.copyOf(nodes),
        estimator == null ? Map.of() : estimator.slowRounds(),
        estimator == null ? Set.of() : estimator.unstable()
    );
    return observed;
  }

  /**
   * Plans the last observed round.
   *
   * @param currentHolders segment id → nodes holding it now, for plans that move little
   * @param roundSeconds   the round's length, which the plan keeper's rebalancing budget accrues ({@link PlanKeeper})
   * @throws IllegalStateException before the first {@link #observe}
   */
  public Result plan(PlacementConstraints constraints, Map<String, Set<String>> currentHolders, double roundSeconds)
  {
    if (observed == null) {
      throw new IllegalStateException("plan() needs a round observed first");
    }
    final Map<String, Double> loadOf = new LinkedHashMap<>();
    final List<SegmentLoad> loads = new ArrayList<>(observed.segments().size());
    for (SegmentSample s : observed.segments()) {
      final double load = entry.loadSignal().loadOf(s, observed.popularity());
      loadOf.put(s.segmentId(), load);
      loads.add(new SegmentLoad(s.segmentId(), load, s.sizeBytes()));
    }
    final List<NodeCapacity> placeable = new ArrayList<>(observed.nodes().size());
    for (NodeSample n : observed.nodes()) {
      if (n.placeable()) {
        placeable.add(new NodeCapacity(
            n.nodeId(),
            observed.capacities().get(n.nodeId()),
            n.memoryBytes(),
            observed.unstable().contains(n.nodeId())
        ));
      }
    }
    final PlacementPlan fresh = strategy.plan(new PlacementInput(loads, placeable, constraints, currentHolders));
    final PlanKeeper.Verdict verdict = keeper == null
                                       ? null
                                       : keeper.next(fresh, constraints, loads, placeable, currentHolders, roundSeconds);
    final PlacementPlan plan = verdict == null ? fresh : verdict.plan();

    final Map<String, Double> loadShares = new TreeMap<>();
    observed.nodes().forEach(n -> loadShares.put(n.nodeId(), 0.0));
    plan.shares().forEach((segment, shares) -> {
      final double load = loadOf.getOrDefault(segment, 0.0);
      shares.forEach((node, share) -> loadShares.computeIfPresent(node, (n, l) -> l + load * share));
    });
    return new Result(
        observed,
        plan,
        Collections.unmodifiableMap(loadShares),
        TierClassifier.classify(loadShares),
        verdict
    );
  }

  /** Mean estimate of the live nodes that have one; 1 when none has. */
  private double meanEstimateOf(Set<String> live)
  {
    return estimator.capacities().entrySet().stream()
                    .filter(e -> live.contains(e.getKey()))
                    .mapToDouble(Map.Entry::getValue)
                    .average()
                    .orElse(1.0);
  }
}
