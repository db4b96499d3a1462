package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;

/**
 * Druid's default as a baseline: every segment gets the same number of replicas whatever its load, spread so that
 * nodes hold even segment counts, within memory, keeping segments where they are when that stays even. The
 * replication factor is clamped into [minReplicas, maxReplicas]. Each replica gets an equal share: Druid routes by
 * connection count, which on average splits a segment's queries evenly among its holders.
 */
public record DruidDefaultStrategy(int replicationFactor) implements PlacementStrategy
{
  /** @throws IllegalArgumentException if replicationFactor is below 1 */
  public DruidDefaultStrategy
  {
    if (replicationFactor < 1) {
      throw new IllegalArgumentException("replicationFactor must be >= 1, got [" + replicationFactor + "]");
    }
  }

  @Override
  public PlacementPlan plan(PlacementInput input)
  {
    final PlacementProblem problem = new PlacementProblem(input);
    final Assignment assignment = new Assignment(problem);
    final PlacementConstraints constraints = problem.constraints;
    final int target = Math.max(constraints.minReplicas(), Math.min(replicationFactor, constraints.maxReplicas()));
    // Like Druid, which loads every segment's primary replica before any further one: when memory is short the
    // extra copies go, not the segments.
    ReplicaFloor.run(problem, assignment, constraints.minReplicas(), true);
    ReplicaFloor.run(problem, assignment, target, true);
    return assignment.toPlan();
  }
}
