package org.getafix.simulator.strategy;

import org.getafix.core.placement.PlacementPlan;

/**
 * Turns one round's measurements into a placement plan with one of getafix-core's strategies: the simulator's
 * Coordinator. Stateful across rounds (popularity, capacity estimates); one instance per run.
 */
public interface PlacementAdapter
{
  /** The strategy's name, as in getafix-core. */
  String strategyName();

  PlacementPlan plan(RoundObservation observation);

  /** Capacities used by the last plan, node id → capacity; for reports. */
  java.util.Map<String, Double> lastCapacities();
}
