package org.getafix.core.placement;

/**
 * One replication-and-placement policy: Getafix-H, Getafix-B, auto-tiering only, Scarlett or Druid's uniform
 * default. Implementations are deterministic for a given input and stateless across calls; state that spans
 * rounds (popularity, capacity estimates) lives with the caller.
 */
public interface PlacementStrategy
{
  /** Short stable name, used in reports and metrics, e.g. {@code getafix-h}. */
  String name();

  /** Plans one round. Never throws on infeasible input: what cannot be placed is reported in the plan. */
  PlacementPlan plan(PlacementInput input);
}
