package org.getafix.druid.coordinator;

/**
 * What one Coordinator run acts on, opened by {@link GetafixBalancerStrategyFactory} when Druid starts the run (it
 * creates the run's strategy then): the plan snapshot, taken once so that every decision of the run sees the same
 * round, and the run's own churn budget and churn stats.
 */
public record CoordinatorRun(PlanSnapshot snapshot, ChurnBudget budget, ChurnStats stats)
{
  /** A run of the given plan, with the churn budget of the dynamic config that plan was made with. */
  public static CoordinatorRun of(PlanSnapshot snapshot)
  {
    return new CoordinatorRun(
        snapshot,
        new ChurnBudget(snapshot.config().getMaxLoadsPerRound(), snapshot.config().getMaxDropsPerRound()),
        new ChurnStats()
    );
  }

  /** Spends one plan-driven load of the budget and counts it; false when the budget is spent. */
  boolean tryLoad()
  {
    if (budget.tryLoad()) {
      stats.recordLoad();
      return true;
    }
    return false;
  }

  /** Spends one plan-driven drop of the budget and counts it; false when the budget is spent. */
  boolean tryDrop()
  {
    if (budget.tryDrop()) {
      stats.recordDrop();
      return true;
    }
    return false;
  }
}
