package org.getafix.druid.coordinator.load;

import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.DateTimes;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.realise.RealisePolicy;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanSnapshot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each Coordinator run has its own churn budget and stats; the hand-off adds the runs up. */
class GetafixRunHandoffTest
{
  private final GetafixRunHandoff handoff = new GetafixRunHandoff();

  @Test
  void everyRunGetsTheWholeBudgetAndTheTotalsSumTheRuns() throws Exception
  {
    final PlanSnapshot plan = snapshotWithBudget(2, 1);
    final CoordinatorRun first = CoordinatorRun.of(plan);
    handoff.beginRun(first);
    assertSame(first, handoff.currentRun());
    assertTrue(first.budget().tryLoad(10));
    assertTrue(first.budget().tryLoad(10));
    assertFalse(first.budget().tryLoad(10), "the run's load budget is spent");
    assertTrue(first.budget().tryDrop());
    assertFalse(first.budget().tryDrop(), "the run's drop budget is spent");
    assertEquals(2, first.budget().loadsSpent(), "refused loads are not counted");
    assertEquals(2, handoff.loadsIssued(), "the run in progress counts at once");

    final CoordinatorRun second = CoordinatorRun.of(plan);
    handoff.beginRun(second);
    assertTrue(second.budget().tryLoad(10), "a new run starts with a fresh budget");
    assertEquals(1, second.budget().loadsSpent());
    assertEquals(3, handoff.loadsIssued());
    assertEquals(30, handoff.loadBytesIssued());
    assertEquals(1, handoff.dropsIssued());
  }

  @Test
  void theRulesDecisionIsSeenOnlyForItsSegment()
  {
    assertNull(handoff.currentTargetFor("s1"));
    handoff.setCurrentTarget(
        new RealisePolicy(1, LoadBeforeDrop.ALL_PLANNED_LOADED).target("s1", Set.of("a"), Set.of(), Set.of("b"))
    );
    assertEquals("s1", handoff.currentTargetFor("s1").segmentId());
    assertNull(handoff.currentTargetFor("s2"));
    handoff.setCurrentTarget(null);
    assertNull(handoff.currentTargetFor("s1"));
  }

  private static PlanSnapshot snapshotWithBudget(int loads, int drops) throws Exception
  {
    final GetafixDynamicConfig config = new DefaultObjectMapper().readValue(
        "{\"maxLoadsPerRound\": " + loads + ", \"maxDropsPerRound\": " + drops + "}",
        GetafixDynamicConfig.class
    );
    return PlanSnapshot.withoutPlan(1, DateTimes.nowUtc(), Mode.ACTIVE, List.of(), "_default_tier", config);
  }
}
