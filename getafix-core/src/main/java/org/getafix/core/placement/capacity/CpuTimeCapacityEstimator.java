package org.getafix.core.placement.capacity;

import org.getafix.core.contract.PlacementKnobs;

/**
 * The thesis' estimator (§3.1): a node's capacity is the CPU time it spent on queries in the last round, here
 * divided by the round length (so rounds of unequal length compare) and smoothed across rounds.
 *
 * <p>Known flaw, kept on purpose as the baseline: CPU time measures the load a node <em>got</em>, not what it
 * <em>could</em> take. Below saturation a node that was given little load reports little CPU time, is then given
 * even less, and stays starved: an idle strong node is seen as weak. {@link ThroughputCapacityEstimator} fixes that.
 */
public final class CpuTimeCapacityEstimator extends SmoothedCapacityEstimator
{
  public CpuTimeCapacityEstimator()
  {
    this(PlacementKnobs.CAPACITY_SMOOTHING.defaultValue());
  }

  /** @param smoothing weight of the newest round, in (0, 1]; 1 is the thesis' "last round only" */
  public CpuTimeCapacityEstimator(double smoothing)
  {
    super(smoothing);
  }

  @Override
  double sample(NodeRoundStats stats)
  {
    return stats.cpuTimeSeconds() / stats.wallTimeSeconds();
  }
}
