package org.getafix.druid.coordinator.plan;

import org.apache.druid.java.util.common.logger.Logger;
import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.capacity.NodeSample;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.UnplacedSegment;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;

/**
 * The planning of a round: getafix-core's {@link PlanningRound}, the same round the simulator runs, with the
 * settings of {@code druid.getafix.*} and the constraints of the round's dynamic config. Keeps what spans rounds
 * (popularity, capacity estimates, whether a full round of stats was seen) until {@link #reset}; used by the round
 * thread only.
 */
public class RoundPlanner
{
  private static final Logger log = new Logger(RoundPlanner.class);

  private final PlanningRound.Settings settings;
  private final long defaultRoundPeriodMillis;
  private PlanningRound planning;
  private boolean warm;

  /** Fails on an unknown estimator name or a bad value, naming it, so that the Coordinator does not start. */
  public RoundPlanner(GetafixConfig config)
  {
    this.settings = new PlanningRound.Settings(
        PlacementStrategies.getafixH(config.getSplitPolicy()).name(),
        config.getCapacityEstimator(),
        config.getCapacitySmoothing(),
        config.getPopularityDecay(),
        config.isPopularityBiasCorrected(),
        PlacementStrategies.DEFAULT_DRUID_REPLICATION_FACTOR,
        config.isPopularityInherited()
    );
    this.defaultRoundPeriodMillis = config.getRoundPeriodMillis();
    reset();
  }

  /** Whether segments inherit their predecessor's popularity, so the round must name predecessors. */
  public boolean inheritsPopularity()
  {
    return settings.popularityInheritance();
  }

  /** Forgets every round so far: the next plan waits for a full round of stats again. */
  public void reset()
  {
    warm = false;
    planning = new PlanningRound(settings);
  }

  /** Feeds the round's samples to popularity and capacity estimation. */
  public PlanningRound.Observed observe(RoundInput input)
  {
    final PlanningRound.Observed observed = planning.observe(input.segments(), input.nodes());
    // A node without stats this round was warned about (rate-limited) when its stats were read.
    observed.rejections().forEach((node, why) -> {
      if (!input.statsMissing().containsKey(node)) {
        log.warn("Getafix keeps the last capacity estimate of [%s]: %s", node, why);
      }
    });
    warm |= input.measured();
    return observed;
  }

  /** Whether a full round of stats has been observed since the last reset: only then may a plan be made. */
  public boolean isWarm()
  {
    return warm;
  }

  /** Plans the observed round onto its placeable Historicals. */
  public PlanningRound.Result plan(RoundInput input, GetafixDynamicConfig dynamic)
  {
    for (NodeSample node : input.nodes()) {
      if (!node.placeable()) {
        log.warn("Historical [%s] did not answer for several rounds: the plan places nothing on it.", node.nodeId());
      }
    }
    final PlanningRound.Result result = planning.plan(
        new PlacementConstraints(
            dynamic.getMinReplicas(),
            dynamic.getMaxReplicas(),
            dynamic.getGamma(),
            dynamic.getHotLoadShare(),
            dynamic.getHotMinNodeLoadShare(),
            dynamic.isBackUpUnstable(),
            dynamic.getMinPlanGain(),
            dynamic.getMaxRebalanceDataPerHour()
        ),
        input.holders(),
        dynamic.roundPeriodMillisOr(defaultRoundPeriodMillis) / 1000.0
    );
    final PlacementPlan plan = result.plan();
    if (!plan.unplaced().isEmpty()) {
      final UnplacedSegment first = plan.unplaced().get(0);
      log.warn(
          "Getafix could not place [%d] segments as wanted, e.g. [%s]: %d of %d replicas (%s). See /plan.",
          plan.unplaced().size(), first.segmentId(), first.placedReplicas(), first.wantedReplicas(), first.reason()
      );
    }
    return result;
  }
}
