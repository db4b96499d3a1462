package org.getafix.druid.coordinator.plan;

import org.apache.druid.client.DruidServer;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.joda.time.DateTime;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the planner publishes each round's immutable {@link PlanSnapshot}, for the getafix strategy factory, the
 * getafix rule and the HTTP endpoints. Bound as a singleton in the unscoped module because rules are deserialised
 * (with this injected) on several roles; everywhere but on the Coordinator it keeps the initial empty snapshot. What
 * the rule and the strategy share beyond the plan lives in {@code load.GetafixRunHandoff}. Also keeps running totals
 * of the Historicals' statistics the rounds could not use, so that an operator can tell a quiet cluster from one whose
 * reports are being refused without a metrics pipeline.
 */
public class GetafixPlanHolder
{
  private final AtomicReference<PlanSnapshot> snapshot = new AtomicReference<>(
      PlanSnapshot.withoutPlan(
          0,
          new DateTime(0),
          Mode.WARMING_UP,
          List.of("no Getafix round has run yet"),
          DruidServer.DEFAULT_TIER,
          GetafixDynamicConfig.defaults()
      )
  );

  private final AtomicLong statsMissing = new AtomicLong();
  private final AtomicLong statsRejected = new AtomicLong();

  public PlanSnapshot snapshot()
  {
    return snapshot.get();
  }

  public void publish(PlanSnapshot next)
  {
    snapshot.set(next);
  }

  /** Counts, for one round, the Historicals whose statistics were missing and those whose report was rejected. */
  public void countStatsProblems(int missing, int rejected)
  {
    statsMissing.addAndGet(missing);
    statsRejected.addAndGet(rejected);
  }

  /** Historical-rounds without statistics (none came in time) since the Coordinator started. */
  public long statsMissing()
  {
    return statsMissing.get();
  }

  /** Historical-rounds whose statistics were rejected as implausible since the Coordinator started. */
  public long statsRejected()
  {
    return statsRejected.get();
  }
}
