package org.getafix.core.placement.capacity;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.plan.Validation;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The common part of the estimators: validation of reports, an exponentially weighted moving average per node, and
 * the record of rejected reports. Subclasses only say what one round's sample of capacity is.
 */
abstract class SmoothedCapacityEstimator implements CapacityEstimator
{
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
    estimates.put(nodeId, previous == null ? sample : smoothing * sample + (1 - smoothing) * previous);
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
