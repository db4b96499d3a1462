package org.getafix.druid.coordinator;

import org.apache.druid.client.DruidServer;
import org.joda.time.DateTime;

import javax.annotation.Nullable;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the planner publishes its snapshot and where the getafix rule and strategy read it. Bound as a singleton in
 * the unscoped module because rules are deserialised (with this injected) on several roles; everywhere but on the
 * Coordinator it just stays empty, and the rule then behaves as a plain load rule.
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
  private final AtomicLong loadsIssued = new AtomicLong();
  private final AtomicLong dropsIssued = new AtomicLong();

  @Nullable
  private volatile ServedSegments servedSegments;
  @Nullable
  private volatile RunContext currentRun;
  private volatile boolean strategyInstalled;

  public PlanSnapshot snapshot()
  {
    return snapshot.get();
  }

  public void publish(PlanSnapshot next)
  {
    snapshot.set(next);
  }

  @Nullable
  public ServedSegments servedSegments()
  {
    return servedSegments;
  }

  public void setServedSegments(@Nullable ServedSegments servedSegments)
  {
    this.servedSegments = servedSegments;
  }

  /** The context of the Coordinator run in progress, or null when Druid is not using the getafix strategy. */
  @Nullable
  public RunContext currentRun()
  {
    return currentRun;
  }

  /** Called by the strategy factory when Druid starts a run, with the plan then in force. */
  RunContext beginRun()
  {
    final RunContext next = new RunContext(snapshot.get(), loadsIssued, dropsIssued);
    currentRun = next;
    return next;
  }

  void markStrategyInstalled()
  {
    strategyInstalled = true;
  }

  /** Whether {@code druid.coordinator.balancer.strategy=getafix} (the factory was created in this process). */
  public boolean isStrategyInstalled()
  {
    return strategyInstalled;
  }

  /** Plan-driven loads issued since this process started. */
  public long loadsIssued()
  {
    return loadsIssued.get();
  }

  /** Plan-driven drops issued since this process started. */
  public long dropsIssued()
  {
    return dropsIssued.get();
  }
}
