package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;

/**
 * One replication-and-placement policy: Getafix-H, Getafix-B, auto-tiering only, Scarlett or Druid's uniform
 * default. Implementations are deterministic for a given input and stateless across calls; state that spans
 * rounds (popularity, capacity estimates) lives with the caller. Their names, and what a planning round feeds them,
 * are their entries in the strategy registry.
 */
@FunctionalInterface
public interface PlacementStrategy
{
  /** Plans one round. Never throws on infeasible input: what cannot be placed is reported in the plan. */
  PlacementPlan plan(PlacementInput input);
}
