package org.getafix.simulator.strategy;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.capacity.CapacityEstimators;
import org.getafix.core.placement.capacity.NodeSample;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.popularity.SegmentSample;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.simulator.cluster.Cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulator's Coordinator: hands each round's measurements to getafix-core's {@link PlanningRound}, the same
 * round the Druid extension runs, and returns its plan. One instance per run.
 */
public final class CorePlacementAdapter
{
  private final PlanningRound round;
  private final PlacementConstraints constraints;
  private final double roundSeconds;

  private CorePlacementAdapter(PlanningRound round, PlacementConstraints constraints, double roundSeconds)
  {
    this.round = round;
    this.constraints = constraints;
    this.roundSeconds = roundSeconds;
  }

  /**
   * @param strategy          a name in {@link PlacementStrategies#REGISTRY}
   * @param capacityEstimator a name in {@link CapacityEstimators#REGISTRY}; used by capacity-aware strategies only
   * @param roundSeconds      the scenario's round length
   * @throws IllegalArgumentException naming an unknown strategy or estimator, with the known ones
   */
  public static CorePlacementAdapter create(
      String strategy,
      String capacityEstimator,
      double decay,
      boolean popularityBiasCorrection,
      boolean popularityInheritance,
      PlacementConstraints constraints,
      int druidDefaultReplicas,
      double roundSeconds
  )
  {
    // Every strategy gets the same kind of popularity tracker, so the comparison stays fair.
    return new CorePlacementAdapter(
        new PlanningRound(new PlanningRound.Settings(
            strategy,
            capacityEstimator,
            PlacementKnobs.CAPACITY_SMOOTHING.defaultValue(),
            decay,
            popularityBiasCorrection,
            druidDefaultReplicas,
            popularityInheritance
        )),
        constraints,
        roundSeconds
    );
  }

  public PlacementStrategies.Entry strategy()
  {
    return round.strategy();
  }

  /** One round: every node observed is live and placeable, as no simulated node departs or stops answering. */
  public PlanningRound.Result plan(RoundObservation observation)
  {
    final List<SegmentSample> segments = new ArrayList<>(observation.segments().size());
    for (Cluster.SegmentRoundStats s : observation.segments()) {
      segments.add(new SegmentSample(
          s.segmentId(),
          s.sizeBytes(),
          s.accessTimeSeconds(),
          s.peakConcurrentAccesses(),
          s.predecessorId()
      ));
    }
    final List<NodeSample> nodes = new ArrayList<>(observation.nodes().size());
    for (RoundObservation.NodeObservation n : observation.nodes()) {
      nodes.add(NodeSample.measured(n.nodeId(), n.memoryBytes(), n.stats()));
    }
    round.observe(segments, nodes);
    return round.plan(constraints, observation.currentHolders(), roundSeconds);
  }
}
