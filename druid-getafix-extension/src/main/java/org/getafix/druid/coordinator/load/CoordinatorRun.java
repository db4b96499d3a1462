package org.getafix.druid.coordinator.load;

import org.getafix.core.realise.ChurnBudget;
import org.getafix.core.realise.ChurnLimits;
import org.getafix.core.realise.Rollback;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.druid.coordinator.plan.PlanSnapshot;

/**
 * What one Coordinator run acts on, opened by {@link GetafixBalancerStrategyFactory} when Druid starts the run (it
 * creates the run's strategy then): the plan snapshot, taken once so that every decision of the run sees the same
 * round, the run's own churn budget, which also counts the plan-driven loads and drops the run issued, and, while
 * rolling back, the rule's count of the segments still off their stock counts.
 */
public record CoordinatorRun(PlanSnapshot snapshot, ChurnBudget budget, Rollback.Tally rollback)
{
  /** A run of the given plan, with the churn budget of the dynamic config that plan was made with. */
  public static CoordinatorRun of(PlanSnapshot snapshot)
  {
    final GetafixDynamicConfig config = snapshot.config();
    return new CoordinatorRun(
        snapshot,
        new ChurnLimits(config.getMaxLoadsPerRound(), config.getMaxDropsPerRound()).newRound(),
        new Rollback.Tally()
    );
  }
}
