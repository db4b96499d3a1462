package org.getafix.core.placement;

/**
 * Druid's default as a baseline: every segment gets the same number of replicas whatever its load, spread so that
 * nodes hold even segment counts, within memory, keeping segments where they are when that stays even. The
 * replication factor is clamped into [minReplicas, maxReplicas]. Each replica gets an equal share: Druid routes by
 * connection count, which on average splits a segment's queries evenly among its holders.
 */
final class DruidDefaultStrategy implements PlacementStrategy
{
  private final int replicationFactor;

  DruidDefaultStrategy(int replicationFactor)
  {
    if (replicationFactor < 1) {
      throw new IllegalArgumentException("replicationFactor must be >= 1, got [" + replicationFactor + "]");
    }
    this.replicationFactor = replicationFactor;
  }

  @Override
  public String name()
  {
    return "druid-default";
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

  @Override
  public String toString()
  {
    return name() + "(rf=" + replicationFactor + ")";
  }
}
