package org.getafix.core.placement.capacity;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.plan.Validation;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The common part of the estimators: validation of reports, an exponentially weighted moving average per node, and
 * the record of rejected reports. Subclasses only say what one round's sample of capacity is.
 *
 * <p>One round moves an estimate a bounded amount either way. Down, the moving average already bounds it: a sample
 * is never negative, so an estimate keeps at least (1 − smoothing) of itself. Up, a sample counts for at most
 * {@value #MAX_SAMPLE_STEP} × the larger of the node's estimate and the mean estimate of all nodes: a round of
 * counters that passed every plausibility check and still claims a node got a hundred times faster (a long query's
 * CPU landing in one round, a clock hiccup) would otherwise rate a quarter-core node above the whole tier and pull
 * most segments onto it. A real change, say a quota raised eightfold, still shows within a few rounds. The tier
 * mean in the bound lets a node that was idle (an estimate near 0, as {@link CpuTimeCapacityEstimator} rates it)
 * climb back at once to the tier's level.
 */
abstract class SmoothedCapacityEstimator implements CapacityEstimator
{
  /** See the class comment. The simulator's scenarios plan the same with and without this bound. */
  static final double MAX_SAMPLE_STEP = 4.0;

  private final double smoothing;
  // TreeMaps: capacities() and rejections() iterate by node id, whatever order the nodes reported in.
  private final Map<String, Double> estimates = new TreeMap<>();
  private final Map<String, String> rejections = new TreeMap<>();

  /** @param smoothing weight of the newest sample in the moving average, in (0, 1]; 1 means no smoothing */
  SmoothedCapacityEstimator(double smoothing)
  {
    PlacementKnobs.CAPACITY_SMOOTHING.checkAs("smoothing", smoothing);
    this.smoothing = smoothing;
  }

  /**
   * This round's capacity sample from usable stats, or NaN when the round says nothing about capacity (the estimate
   * is then kept, and this is not a rejection).
   */
  abstract double sample(NodeRoundStats stats);

  @Override
  public final void observe(String nodeId, NodeRoundStats stats)
  {
    Validation.requireId("nodeId", nodeId);
    if (stats == null) {
      rejections.put(nodeId, "no stats reported; keeping the last estimate");
      return;
    }
    final String problem = stats.problem();
    if (problem != null) {
      rejections.put(nodeId, problem + "; keeping the last estimate");
      return;
    }
    rejections.remove(nodeId);
    final double sample = sample(stats);
    if (Double.isNaN(sample)) {
      return;
    }
    final Double previous = estimates.get(nodeId);
    if (previous == null) {
      estimates.put(nodeId, sample);
    } else {
      estimates.put(nodeId, smoothing * Math.min(sample, ceilingOf(previous)) + (1 - smoothing) * previous);
    }
  }

  /** The largest sample one round may count for a node whose estimate is {@code previous}; see the class comment. */
  private double ceilingOf(double previous)
  {
    double mean = 0;
    for (double e : estimates.values()) {
      mean += e / estimates.size();
    }
    final double reference = Math.max(previous, mean);
    return reference > 0 ? MAX_SAMPLE_STEP * reference : Double.POSITIVE_INFINITY;
  }

  @Override
  public final Map<String, Double> capacities()
  {
    return Collections.unmodifiableMap(new TreeMap<>(estimates));
  }

  @Override
  public final void forget(String nodeId)
  {
    estimates.remove(nodeId);
    rejections.remove(nodeId);
  }

  @Override
  public final Map<String, String> rejections()
  {
    return Collections.unmodifiableMap(new TreeMap<>(rejections));
  }
}
