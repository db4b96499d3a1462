package org.getafix.core.placement.capacity;

import org.getafix.core.contract.PlacementKnobs;

/**
 * Our estimator: a node's capacity is the work it completes per second of being fully busy,
 * {@code workUnits / busyTimeSeconds}, where busy time is utilisation-weighted (see {@link NodeRoundStats}). That is
 * the rate the node would sustain at 100% utilisation, and it does not depend on how much load the node was given:
 * an idle strong node that served one query fast is still seen as strong, which breaks the starvation feedback loop
 * of {@link CpuTimeCapacityEstimator}. A round in which the node was (almost) never busy carries no information and
 * keeps the previous estimate.
 */
public final class ThroughputCapacityEstimator extends SmoothedCapacityEstimator
{
  /**
   * Busy time below this fraction of the round is too little to measure a rate from (a few microseconds of a
   * one-off query would give a wild sample).
   */
  static final double MIN_BUSY_FRACTION = 1e-4;

  public ThroughputCapacityEstimator()
  {
    this(PlacementKnobs.CAPACITY_SMOOTHING.defaultValue());
  }

  /** @param smoothing weight of the newest round, in (0, 1] */
  public ThroughputCapacityEstimator(double smoothing)
  {
    super(smoothing);
  }

  @Override
  double sample(NodeRoundStats stats)
  {
    if (stats.busyTimeSeconds() < MIN_BUSY_FRACTION * stats.wallTimeSeconds()) {
      return Double.NaN;
    }
    return stats.workUnits() / stats.busyTimeSeconds();
  }
}
