package org.getafix.core.placement.tiering;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tiering accuracy (thesis §4.3.2): correct tier assignments divided by all tier assignments, against the tier the
 * node's hardware puts it in.
 */
public final class TieringAccuracy
{
  private TieringAccuracy()
  {
  }

  /**
   * Accuracy of one round.
   *
   * @param measured node id → tier measured this round (e.g. from {@link TierClassifier})
   * @param hardware node id → tier of the node's hardware; must cover exactly the same nodes
   * @return fraction of nodes whose measured tier is their hardware tier, in [0, 1]
   * @throws IllegalArgumentException when the maps are empty or null, or a node is in one map but not the other
   */
  public static double of(Map<String, Tier> measured, Map<String, Tier> hardware)
  {
    return (double) correct(measured, hardware) / hardware.size();
  }

  /** Accuracy over many rounds (the whole heat map of Fig 4.3): correct assignments / all assignments. */
  public static double overRounds(List<Map<String, Tier>> measuredRounds, Map<String, Tier> hardware)
  {
    if (measuredRounds == null || measuredRounds.isEmpty()) {
      throw new IllegalArgumentException("measuredRounds must hold at least one round");
    }
    long correct = 0;
    for (Map<String, Tier> round : measuredRounds) {
      correct += correct(round, hardware);
    }
    return (double) correct / ((long) hardware.size() * measuredRounds.size());
  }

  private static int correct(Map<String, Tier> measured, Map<String, Tier> hardware)
  {
    if (measured == null || hardware == null) {
      throw new IllegalArgumentException("measured and hardware tiers must not be null");
    }
    if (hardware.isEmpty()) {
      throw new IllegalArgumentException("hardware tiers must name at least one node");
    }
    // Id order, so that the node an error names does not depend on the maps' iteration order.
    for (String node : new TreeMap<>(measured).keySet()) {
      if (!hardware.containsKey(node)) {
        throw new IllegalArgumentException("node [" + node + "] has a measured tier but no hardware tier");
      }
    }
    int correct = 0;
    for (Map.Entry<String, Tier> e : new TreeMap<>(hardware).entrySet()) {
      if (e.getValue() == null) {
        throw new IllegalArgumentException("hardware tier of node [" + e.getKey() + "] must not be null");
      }
      if (!measured.containsKey(e.getKey())) {
        throw new IllegalArgumentException("node [" + e.getKey() + "] has a hardware tier but no measured tier");
      }
      if (e.getValue() == measured.get(e.getKey())) {
        correct++;
      }
    }
    return correct;
  }
}
