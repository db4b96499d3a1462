package org.getafix.core.placement;

import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plan in force stays until it no longer serves, and then only what restores it moves. */
class PlanKeeperTest
{
  private static final long MEMORY = 1_000;
  private static final double ROUND_SECONDS = 5;
  /** A budget no test's loads reach, so that the tests of what moves are not tests of when. */
  private static final double UNLIMITED = 1000;
  private static final PlacementConstraints GATED = constraints(0.2);
  private static final PlacementConstraints NO_BUDGET = new PlacementConstraints(1, 3, 0.2, 0.9, 0.08, false, 0.2, 0);

  private static PlacementConstraints constraints(double minPlanGain)
  {
    return new PlacementConstraints(1, 3, 0.2, 0.9, 0.08, false, minPlanGain, UNLIMITED);
  }

  private static List<SegmentLoad> segments(double... loads)
  {
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int i = 0; i < loads.length; i++) {
      segments.add(new SegmentLoad("s" + (i + 1), loads[i], 10));
    }
    return segments;
  }

  private static NodeCapacity node(String id, double capacity)
  {
    return new NodeCapacity(id, capacity, MEMORY);
  }

  /** A plan of one holder per segment: node → its segments. */
  private static PlacementPlan plan(Map<String, List<String>> onNode)
  {
    final Map<String, Map<String, Double>> shares = new LinkedHashMap<>();
    onNode.forEach((node, segments) -> segments.forEach(s -> shares.put(s, Map.of(node, 1.0))));
    return new PlacementPlan(shares, List.of());
  }

  /** The current holders as the plan says. */
  private static Map<String, Set<String>> holders(PlacementPlan plan)
  {
    final Map<String, Set<String>> holders = new LinkedHashMap<>();
    plan.shares().forEach((segment, shares) -> holders.put(segment, shares.keySet()));
    return holders;
  }

  private static PlanKeeper inForce(PlacementPlan plan, List<SegmentLoad> segments, List<NodeCapacity> nodes)
  {
    return inForce(plan, segments, nodes, GATED);
  }

  private static PlanKeeper inForce(
      PlacementPlan plan,
      List<SegmentLoad> segments,
      List<NodeCapacity> nodes,
      PlacementConstraints constraints
  )
  {
    final PlanKeeper keeper = new PlanKeeper();
    final PlanKeeper.Verdict first = keeper.next(plan, constraints, segments, nodes, Map.of(), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.FIRST, first.reason());
    return keeper;
  }

  /** A keeper whose plan in force was adopted long enough ago that its repairs wait for the budget. */
  private static PlanKeeper settled(
      PlacementPlan plan,
      List<SegmentLoad> segments,
      List<NodeCapacity> nodes,
      PlacementConstraints constraints
  )
  {
    final PlanKeeper keeper = inForce(plan, segments, nodes, constraints);
    for (int round = 0; round < PlanKeeper.SETTLING_ROUNDS; round++) {
      assertEquals(PlanKeeper.Reason.KEPT, keeper.next(plan, constraints, segments, nodes, holders(plan), ROUND_SECONDS).reason());
    }
    return keeper;
  }

  @Test
  void aFreshPlanThatOnlyReshufflesIsNotAdopted()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3", "s4")));
    final PlanKeeper keeper = inForce(first, segments(1, 1, 1, 1), nodes);
    // Estimates wandered a little, and the fresh fit swapped two segments for a peak 5% lower.
    final List<SegmentLoad> wandered = segments(1.1, 1, 1, 0.95);
    final PlacementPlan fresh = plan(Map.of("a", List.of("s1", "s4"), "b", List.of("s2", "s3")));
    final PlanKeeper.Verdict verdict = keeper.next(fresh, GATED, wandered, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, verdict.reason());
    assertFalse(verdict.adopted());
    assertEquals(first.shares(), verdict.plan().shares());
    assertEquals(0, verdict.repaired());
    assertTrue(verdict.keptPeak() > verdict.freshPeak(), verdict.toString());
  }

  @Test
  void aStragglersSegmentsMoveAndNothingElse()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final PlacementPlan first = plan(Map.of(
        "a", List.of("s1", "s2"),
        "b", List.of("s3", "s4"),
        "c", List.of("s5", "s6")
    ));
    final List<SegmentLoad> segments = segments(1, 1, 1, 1, 1, 1);
    final PlanKeeper keeper = inForce(first, segments, nodes);
    // a falls to a quarter: the fresh plan empties it, and reshuffles b and c on the way.
    final List<NodeCapacity> slow = List.of(node("a", 0.25), node("b", 1), node("c", 1));
    final PlacementPlan fresh = plan(Map.of("b", List.of("s1", "s3", "s5"), "c", List.of("s2", "s4", "s6")));
    final PlanKeeper.Verdict verdict = keeper.next(fresh, GATED, segments, slow, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, verdict.reason(), verdict.toString());
    assertEquals(2, verdict.repaired());
    assertEquals(fresh.sharesOf("s1"), verdict.plan().sharesOf("s1"));
    assertEquals(fresh.sharesOf("s2"), verdict.plan().sharesOf("s2"));
    for (String stays : List.of("s3", "s4", "s5", "s6")) {
      assertEquals(first.sharesOf(stays), verdict.plan().sharesOf(stays), stays + " moved");
    }
    assertEquals(verdict.freshPeak(), verdict.keptPeak(), 1e-9);
  }

  @Test
  void aNewSegmentGoesWhereTheKeptPlanHasRoomAndADepartedNodesSegmentsFindANewHolder()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1"), "b", List.of("s2"), "c", List.of("s3")));
    final PlanKeeper keeper = inForce(first, segments(3, 1, 1), nodes);
    // c left; s4 is new. The fresh plan puts both on a, where the kept plan's load is.
    final List<NodeCapacity> left = List.of(node("a", 1), node("b", 1));
    final PlacementPlan fresh = plan(Map.of("a", List.of("s3", "s4"), "b", List.of("s1", "s2")));
    final PlanKeeper.Verdict verdict = keeper.next(fresh, GATED, segments(3, 1, 1, 1), left, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, verdict.reason(), verdict.toString());
    assertEquals(2, verdict.patched());
    assertEquals(Map.of("a", 1.0), verdict.plan().sharesOf("s1"));
    assertEquals(Map.of("b", 1.0), verdict.plan().sharesOf("s2"));
    assertEquals(Map.of("b", 1.0), verdict.plan().sharesOf("s3"));
    assertEquals(Map.of("b", 1.0), verdict.plan().sharesOf("s4"));
  }

  @Test
  void newColdSegmentsAreSpreadToEvenHoldingsNotAllGivenToTheLeastUtilisedNode()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 0.5), node("c", 0.25));
    // Tiered: the hot segments on the strong nodes, c holding only cold ones and so by far the least utilised.
    final PlacementPlan first = plan(Map.of(
        "a", List.of("s1", "s3", "s4", "s5"),
        "b", List.of("s2", "s6", "s7", "s8"),
        "c", List.of("s9", "s10", "s11")
    ));
    final double[] loads = new double[20];
    Arrays.fill(loads, 0.01);
    loads[0] = 6;
    loads[1] = 3;
    final List<SegmentLoad> before = segments(Arrays.copyOf(loads, 11));
    final PlanKeeper keeper = inForce(first, before, nodes);
    // Nine cold segments arrive; the fresh plan gives each node three of them.
    final Map<String, List<String>> freshOnNode = new LinkedHashMap<>();
    freshOnNode.put("a", List.of("s1", "s3", "s4", "s5", "s12", "s13", "s14"));
    freshOnNode.put("b", List.of("s2", "s6", "s7", "s8", "s15", "s16", "s17"));
    freshOnNode.put("c", List.of("s9", "s10", "s11", "s18", "s19", "s20"));
    final PlanKeeper.Verdict verdict =
        keeper.next(plan(freshOnNode), GATED, segments(loads), nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, verdict.reason(), verdict.toString());
    assertEquals(9, verdict.patched());
    final Map<String, Integer> held = new LinkedHashMap<>();
    verdict.plan().shares().values().forEach(row -> row.keySet().forEach(node -> held.merge(node, 1, Integer::sum)));
    // 20 segments on 3 nodes: 7 is the even share; the least utilised node alone would have taken all 9 (12).
    assertTrue(held.values().stream().allMatch(count -> count <= 8), held.toString());
    for (String stays : List.of("s1", "s2", "s3", "s9")) {
      assertEquals(first.sharesOf(stays), verdict.plan().sharesOf(stays), stays + " moved");
    }
  }

  @Test
  void eachSegmentWhoseHoldersChangeIsReportedWithItsCause()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3"), "c", List.of("s4")));
    final List<SegmentLoad> segments = segments(1, 1, 1, 1);
    final PlanKeeper keeper = new PlanKeeper();
    final PlanKeeper.Verdict adopted = keeper.next(first, GATED, segments, nodes, Map.of(), ROUND_SECONDS);
    assertEquals(4, adopted.changes().size(), adopted.toString());
    assertTrue(adopted.changes().stream().allMatch(c -> c.cause() == PlanKeeper.Cause.ADOPTED && c.before().isEmpty()));

    // c leaves and e joins, s5 is new, and a is past the bound: s4 finds a new holder, s5 one, and one of a's two
    // segments moves.
    final List<NodeCapacity> changed = List.of(node("a", 1), node("b", 1), node("d", 1), node("e", 1));
    final Map<String, List<String>> fresh = Map.of(
        "a", List.of("s1"), "b", List.of("s3"), "d", List.of("s2"), "e", List.of("s4", "s5")
    );
    final PlanKeeper.Verdict verdict =
        keeper.next(plan(fresh), GATED, segments(1, 1, 1, 1, 0.1), changed, holders(first), ROUND_SECONDS);
    final Map<String, PlanKeeper.HolderChange> bySegment = new LinkedHashMap<>();
    verdict.changes().forEach(change -> bySegment.put(change.segmentId(), change));
    assertEquals(PlanKeeper.Cause.NODE_LEFT, bySegment.remove("s4").cause(), verdict.toString());
    assertEquals(PlanKeeper.Cause.NEW, bySegment.remove("s5").cause(), verdict.toString());
    assertEquals(1, bySegment.size(), verdict.toString());
    final PlanKeeper.HolderChange repair = bySegment.values().iterator().next();
    assertEquals(PlanKeeper.Cause.REPAIR, repair.cause());
    assertEquals(Set.of("a"), repair.before());
    assertEquals(verdict.plan().holders(repair.segmentId()), repair.after());
    assertTrue(repair.detail().startsWith("relieves a at "), repair.detail());
    assertTrue(repair.detail().endsWith("while settling, not budgeted"), repair.detail());
  }

  @Test
  void aSegmentHeldByAStragglerAloneMovesEvenWhenItDrawsNoLoad()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1"), "b", List.of("s2"), "c", List.of("s3"), "d", List.of("s4")));
    final List<SegmentLoad> segments = segments(1, 1, 1, 0);
    final PlanKeeper keeper = inForce(first, segments, nodes, NO_BUDGET);
    // d turns straggler; s4 draws no load, so no peak asks for it to move, but a query reading it would wait for d.
    // It keeps data served, so it needs no rebalancing budget.
    final List<NodeCapacity> slow = List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 0.1));
    final PlacementPlan fresh = plan(Map.of("a", List.of("s1", "s4"), "b", List.of("s2"), "c", List.of("s3")));
    final PlanKeeper.Verdict verdict = keeper.next(fresh, NO_BUDGET, segments, slow, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, verdict.reason(), verdict.toString());
    assertEquals(1, verdict.patched());
    assertFalse(verdict.plan().holders("s4").contains("d"), verdict.toString());
    for (String stays : List.of("s1", "s2", "s3")) {
      assertEquals(first.sharesOf(stays), verdict.plan().sharesOf(stays), stays + " moved");
    }
  }

  @Test
  void aSegmentTheFreshPlansGiveMoreHoldersRoundAfterRoundKeepsItsHolderAndGainsOne()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1"), "b", List.of("s2"), "c", List.of("s3")));
    final PlanKeeper keeper = inForce(first, segments(1, 1, 1), nodes);
    final Map<String, Map<String, Double>> hot = new LinkedHashMap<>(first.shares());
    hot.put("s1", Map.of("b", 1.0, "c", 0.0));
    final PlacementPlan fresh = new PlacementPlan(hot, List.of());
    for (int round = 1; round < PlanKeeper.GROW_AFTER_ROUNDS; round++) {
      assertEquals(first.sharesOf("s1"), keeper.next(fresh, GATED, segments(1, 1, 1), nodes, holders(first), ROUND_SECONDS)
                                               .plan().sharesOf("s1"), "round " + round);
    }
    final PlanKeeper.Verdict verdict = keeper.next(fresh, GATED, segments(1, 1, 1), nodes, holders(first), ROUND_SECONDS);
    final Map<String, Double> s1 = verdict.plan().sharesOf("s1");
    assertEquals(2, s1.size(), verdict.toString());
    assertEquals(1.0, s1.get("a"), "the holder in force keeps the load");
  }

  @Test
  void aSegmentAskingForASecondHolderInSingleRoundsNowAndThenNeverGetsOne()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1"), "b", List.of("s2"), "c", List.of("s3")));
    final PlanKeeper keeper = inForce(first, segments(1, 1, 1), nodes);
    final Map<String, Map<String, Double>> blip = new LinkedHashMap<>(first.shares());
    blip.put("s1", Map.of("a", 1.0, "c", 0.0));
    // At the edge of the hot floor: one round in, the next out, for many rounds.
    for (int round = 0; round < 4 * PlanKeeper.GROW_AFTER_ROUNDS; round++) {
      final PlacementPlan fresh = round % 2 == 0 ? new PlacementPlan(blip, List.of()) : first;
      final PlanKeeper.Verdict verdict = keeper.next(fresh, GATED, segments(1, 1, 1), nodes, holders(first), ROUND_SECONDS);
      assertEquals(first.shares(), verdict.plan().shares(), "round " + round);
    }
  }

  @Test
  void aSegmentThatGrowsBackSoonAfterShrinkingWaitsMuchLongerBeforeShrinkingAgain()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final PlacementPlan cool = plan(Map.of("a", List.of("s1"), "b", List.of("s2"), "c", List.of("s3")));
    final Map<String, Map<String, Double>> hotRows = new LinkedHashMap<>(cool.shares());
    hotRows.put("s1", Map.of("a", 1.0, "c", 0.0));
    final PlacementPlan hot = new PlacementPlan(hotRows, List.of());
    final List<SegmentLoad> segments = segments(1, 1, 1);
    final PlanKeeper keeper = inForce(cool, segments, nodes);
    final int[] cooledAfter = new int[2];
    for (int flip = 0; flip < 2; flip++) {
      for (int round = 0; round < PlanKeeper.GROW_AFTER_ROUNDS; round++) {
        keeper.next(hot, GATED, segments, nodes, holders(cool), ROUND_SECONDS);
      }
      int rounds = 0;
      PlanKeeper.Verdict verdict;
      do {
        verdict = keeper.next(cool, GATED, segments, nodes, holders(hot), ROUND_SECONDS);
        rounds++;
      } while (verdict.plan().holders("s1").size() > 1 && rounds < 2 * PlanKeeper.FLAPPING_SHRINK_AFTER_ROUNDS);
      cooledAfter[flip] = rounds;
    }
    assertEquals(PlanKeeper.SHRINK_AFTER_ROUNDS, cooledAfter[0]);
    assertEquals(PlanKeeper.FLAPPING_SHRINK_AFTER_ROUNDS, cooledAfter[1], "it grew back at once, so it waits longer");
  }

  @Test
  void aSegmentTheFreshPlansSplitOverMoreHoldersKeepsItsTwoWhileThePeakIsWithinTheBound()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 1));
    final Map<String, Map<String, Double>> rows = new LinkedHashMap<>();
    rows.put("s1", Map.of("a", 0.5, "b", 0.5));
    rows.put("s2", Map.of("c", 1.0));
    rows.put("s3", Map.of("d", 1.0));
    final PlacementPlan first = new PlacementPlan(rows, List.of());
    final List<SegmentLoad> segments = segments(2, 1, 1);
    final PlanKeeper keeper = inForce(first, segments, nodes);
    // The packing splits s1 four ways this time; the kept plan is already even, and s1 already has its second holder.
    final Map<String, Map<String, Double>> split = new LinkedHashMap<>(rows);
    split.put("s1", Map.of("a", 0.25, "b", 0.25, "c", 0.25, "d", 0.25));
    final PlacementPlan fresh = new PlacementPlan(split, List.of());
    for (int round = 0; round < 4 * PlanKeeper.GROW_AFTER_ROUNDS; round++) {
      final PlanKeeper.Verdict verdict = keeper.next(fresh, GATED, segments, nodes, holders(first), ROUND_SECONDS);
      assertEquals(first.shares(), verdict.plan().shares(), "round " + round + ": " + verdict);
    }
  }

  @Test
  void theHoldersThatWouldSplitASegmentOnANodePastTheBoundWaitForTheBudget()
  {
    final List<NodeCapacity> nodes =
        List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 1), node("e", 1), node("f", 1));
    final Map<String, Map<String, Double>> rows = new LinkedHashMap<>();
    rows.put("s1", Map.of("a", 0.5, "b", 0.5));
    rows.put("s2", Map.of("c", 1.0));
    rows.put("s3", Map.of("d", 1.0));
    final PlacementPlan first = new PlacementPlan(rows, List.of());
    final Map<String, Map<String, Double>> split = new LinkedHashMap<>(rows);
    split.put("s1", Map.of("a", 0.25, "b", 0.25, "e", 0.25, "f", 0.25));
    final PlacementPlan fresh = new PlacementPlan(split, List.of());
    // a and b carry 1.4 where the fresh plan's busiest node carries 1: past the bound, short of urgent.
    final List<SegmentLoad> hot = segments(2.8, 1, 1);
    for (PlacementConstraints constraints : List.of(NO_BUDGET, constraints(0.2))) {
      final PlanKeeper keeper = settled(first, segments(1, 1, 1), nodes, constraints);
      PlanKeeper.Verdict verdict = null;
      for (int round = 0; round < PlanKeeper.GROW_AFTER_ROUNDS; round++) {
        verdict = keeper.next(fresh, constraints, hot, nodes, holders(first), ROUND_SECONDS);
      }
      if (constraints == NO_BUDGET) {
        assertEquals(PlanKeeper.Reason.THROTTLED, verdict.reason(), verdict.toString());
        assertEquals(first.shares(), verdict.plan().shares(), verdict.toString());
        assertTrue(verdict.deferred() > 0, verdict.toString());
      } else {
        assertEquals(PlanKeeper.Reason.KEPT, verdict.reason(), verdict.toString());
        assertTrue(verdict.keptPeak() <= verdict.freshPeak() * 1.2, verdict.toString());
      }
    }
  }

  @Test
  void theWholeFreshPlanWaitsForTheBudgetUnlessThePeakIsFarOffAndItsAdoptionFreesNoRepairs()
  {
    // Full nodes: no one segment can move, only a swap lowers the peak.
    final List<NodeCapacity> nodes = List.of(new NodeCapacity("a", 1, 20), new NodeCapacity("b", 1, 20));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3", "s4")));
    final PlacementPlan swapped = plan(Map.of("a", List.of("s1", "s3"), "b", List.of("s2", "s4")));
    // 1.43 against the fresh plan's 1.14: past the bound, short of urgent.
    final List<SegmentLoad> drifted = segments(1.2, 0.8, 0.4, 0.4);

    final PlanKeeper.Verdict waits = settled(first, segments(1, 1, 1, 1), nodes, NO_BUDGET)
        .next(swapped, NO_BUDGET, drifted, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.THROTTLED, waits.reason(), waits.toString());
    assertEquals(first.shares(), waits.plan().shares());
    assertTrue(waits.deferred() > 0, waits.toString());

    final PlanKeeper.Verdict paid = settled(first, segments(1, 1, 1, 1), nodes, constraints(0.2))
        .next(swapped, constraints(0.2), drifted, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.GAIN, paid.reason(), paid.toString());

    // Far off (1.9 times the fresh plan's peak), it is adopted without the budget; the plan it adopts is not one to
    // realise from young estimates, so the next drift's repair waits again.
    final PlanKeeper keeper = settled(first, segments(1, 1, 1, 1), nodes, NO_BUDGET);
    final PlanKeeper.Verdict urgent = keeper.next(swapped, NO_BUDGET, segments(2, 2, 0.1, 0.1), nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.GAIN, urgent.reason(), urgent.toString());
    final PlanKeeper.Verdict next = keeper.next(first, NO_BUDGET, segments(1.2, 0.4, 0.8, 0.4), nodes, holders(swapped), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.THROTTLED, next.reason(), next.toString());
    assertEquals(swapped.shares(), next.plan().shares());
  }

  @Test
  void theHoldersASegmentThatGrewHotGainsAreChargedToTheBudgetSoARepairWaits()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3"), "c", List.of("s4")));
    final Map<String, Map<String, Double>> drift = new LinkedHashMap<>(
        plan(Map.of("a", List.of("s1"), "b", List.of("s3"), "c", List.of("s4"), "d", List.of("s2"))).shares());
    final Map<String, Map<String, Double>> driftAndGrowth = new LinkedHashMap<>(drift);
    driftAndGrowth.put("s3", Map.of("b", 1.0, "c", 0.0));
    final List<SegmentLoad> drifted = segments(0.65, 0.65, 1, 1);
    // 5% of 40 bytes an hour: after five hours the bucket holds one 10-byte replica, for a repair or for a growth.
    final PlacementConstraints budgeted = new PlacementConstraints(1, 3, 0.2, 0.9, 0.08, false, 0.2, 0.05);
    final PlanKeeper.Verdict[] verdicts = new PlanKeeper.Verdict[2];
    for (int withGrowth = 0; withGrowth < 2; withGrowth++) {
      final PlacementPlan fresh = new PlacementPlan(withGrowth == 1 ? driftAndGrowth : drift, List.of());
      final PlanKeeper keeper = settled(first, segments(1, 1, 1, 1), nodes, budgeted);
      for (int round = 1; round < PlanKeeper.GROW_AFTER_ROUNDS; round++) {
        keeper.next(fresh, budgeted, drifted, nodes, holders(first), 0);
      }
      verdicts[withGrowth] = keeper.next(fresh, budgeted, drifted, nodes, holders(first), 5 * 3600);
    }
    assertEquals(PlanKeeper.Reason.KEPT, verdicts[0].reason(), verdicts[0].toString());
    assertEquals(1, verdicts[0].repaired());
    assertEquals(2, verdicts[1].plan().holders("s3").size(), "the growth is paid first: " + verdicts[1]);
    assertEquals(PlanKeeper.Reason.THROTTLED, verdicts[1].reason(), verdicts[1].toString());
    assertEquals(0, verdicts[1].repaired());
  }

  @Test
  void aRepairMovesOneReplicaToAnIdleNodeWhereTheFreshRowWouldLoadTwo()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3"), "c", List.of("s4")));
    final List<SegmentLoad> segments = segments(1, 1, 1, 1);
    final PlanKeeper keeper = inForce(first, segments, nodes);
    // The fresh plan lowers the peak by splitting s2 over b and d: two loads, where one replica on d is enough.
    final Map<String, Map<String, Double>> split = new LinkedHashMap<>(first.shares());
    split.put("s2", Map.of("b", 0.5, "d", 0.5));
    final PlanKeeper.Verdict verdict =
        keeper.next(new PlacementPlan(split, List.of()), GATED, segments, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, verdict.reason(), verdict.toString());
    assertEquals(1, verdict.repaired());
    assertEquals(4, verdict.plan().totalReplicas(), verdict.toString());
    final long onD = verdict.plan().shares().values().stream().filter(row -> row.containsKey("d")).count();
    assertEquals(1, onD, verdict.toString());
    assertEquals(1.0, verdict.keptPeak(), 1e-9);
  }

  @Test
  void withoutBudgetARepairThatLoadsWaitsAndThePlanInForceStaysUnlessItsPeakIsFarOffOrItIsNew()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1), node("d", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3"), "c", List.of("s4")));
    final PlacementPlan fresh = plan(Map.of("a", List.of("s1"), "b", List.of("s3"), "c", List.of("s4"), "d", List.of("s2")));
    // a carries 1.3 where the fresh plan's peak is 1: past the bound, yet short of what a joining Historical makes.
    final List<SegmentLoad> drifted = segments(0.65, 0.65, 1, 1);
    final PlanKeeper keeper = settled(first, segments(1, 1, 1, 1), nodes, NO_BUDGET);
    final PlanKeeper.Verdict verdict = keeper.next(fresh, NO_BUDGET, drifted, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.THROTTLED, verdict.reason(), verdict.toString());
    assertFalse(verdict.adopted());
    assertEquals(first.shares(), verdict.plan().shares());
    assertTrue(verdict.deferred() > 0, verdict.toString());
    assertTrue(verdict.keptPeak() > verdict.freshPeak() * 1.2, verdict.toString());

    // With a budget the same drift is repaired by one load onto d.
    final PlanKeeper budgeted = inForce(first, segments(1, 1, 1, 1), nodes);
    final PlanKeeper.Verdict repaired = budgeted.next(fresh, GATED, drifted, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, repaired.reason(), repaired.toString());
    assertEquals(1, repaired.repaired());

    // Twice the fresh plan's peak is a Historical slowed to half its speed: repaired without a budget.
    final List<NodeCapacity> halved = List.of(node("a", 0.5), node("b", 1), node("c", 1), node("d", 1));
    final PlanKeeper.Verdict urgent = settled(first, segments(1, 1, 1, 1), nodes, NO_BUDGET)
        .next(fresh, NO_BUDGET, segments(1, 1, 1, 1), halved, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, urgent.reason(), urgent.toString());
    assertTrue(urgent.repaired() > 0, urgent.toString());

    // Right after a plan was adopted its estimates are still settling, and so is the plan: no wait either.
    final PlanKeeper.Verdict settling = inForce(first, segments(1, 1, 1, 1), nodes, NO_BUDGET)
        .next(fresh, NO_BUDGET, drifted, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, settling.reason(), settling.toString());
    assertEquals(1, settling.repaired());
  }

  @Test
  void withoutBudgetASegmentThatGrewHotStillGainsAHolderAndANewSegmentIsPlaced()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1"), "b", List.of("s2"), "c", List.of("s3")));
    final PlanKeeper keeper = inForce(first, segments(1, 1, 1), nodes, NO_BUDGET);
    final Map<String, Map<String, Double>> grown = new LinkedHashMap<>(first.shares());
    grown.put("s1", Map.of("a", 1.0, "b", 0.0));
    grown.put("s4", Map.of("c", 1.0));
    final PlacementPlan fresh = new PlacementPlan(grown, List.of());
    PlanKeeper.Verdict verdict = null;
    for (int round = 0; round < PlanKeeper.GROW_AFTER_ROUNDS; round++) {
      verdict = keeper.next(fresh, NO_BUDGET, segments(1, 1, 1, 1), nodes, holders(first), ROUND_SECONDS);
      assertEquals(1, verdict.plan().holders("s4").size(), "round " + round + ": " + verdict);
    }
    assertEquals(2, verdict.plan().holders("s1").size(), verdict.toString());
    assertEquals(0, verdict.deferred());
  }

  @Test
  void onceSettledAHotSegmentsNewHolderWaitsForTheBudgetButAnUnstableHoldersBackupDoesNot()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1"), "b", List.of("s2"), "c", List.of("s3")));
    final Map<String, Map<String, Double>> grown = new LinkedHashMap<>(first.shares());
    grown.put("s1", Map.of("a", 1.0, "b", 0.0));
    final PlacementPlan fresh = new PlacementPlan(grown, List.of());
    final List<SegmentLoad> segments = segments(1, 1, 1);

    final PlanKeeper hot = settled(first, segments, nodes, NO_BUDGET);
    PlanKeeper.Verdict verdict = null;
    for (int round = 0; round < 2 * PlanKeeper.GROW_AFTER_ROUNDS; round++) {
      verdict = hot.next(fresh, NO_BUDGET, segments, nodes, holders(first), ROUND_SECONDS);
      assertEquals(Set.of("a"), verdict.plan().holders("s1"), "round " + round + ": " + verdict);
    }
    assertEquals(1, verdict.deferred(), verdict.toString());
    assertTrue(verdict.changes().isEmpty(), verdict.toString());

    // The same growth when a, s1's only holder, stalls now and then: its backup is what keeps s1's queries moving.
    final List<NodeCapacity> aUnstable =
        List.of(new NodeCapacity("a", 1, MEMORY, true), node("b", 1), node("c", 1));
    final PlanKeeper backedUp = settled(first, segments, aUnstable, NO_BUDGET);
    for (int round = 0; round < PlanKeeper.GROW_AFTER_ROUNDS; round++) {
      verdict = backedUp.next(fresh, NO_BUDGET, segments, aUnstable, holders(first), ROUND_SECONDS);
    }
    assertEquals(2, verdict.plan().holders("s1").size(), verdict.toString());
    assertEquals(PlanKeeper.Cause.GREW, verdict.changes().get(0).cause(), verdict.toString());
    assertEquals("a backup for unstable holders, not budgeted", verdict.changes().get(0).detail());
  }

  @Test
  void aSegmentThatCooledDropsTheHolderThatCarriedLeastOfIt()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1), node("c", 1));
    final Map<String, Map<String, Double>> hot = new LinkedHashMap<>();
    hot.put("s1", Map.of("a", 0.7, "b", 0.3));
    hot.put("s2", Map.of("c", 1.0));
    final PlacementPlan first = new PlacementPlan(hot, List.of());
    final List<SegmentLoad> segments = segments(1, 1);
    final PlanKeeper keeper = inForce(first, segments, nodes);
    final PlacementPlan fresh = plan(Map.of("b", List.of("s1"), "c", List.of("s2")));
    // Not at once: a segment at the edge of the hot floor flips in and out, and each flip in would load again.
    for (int round = 1; round < PlanKeeper.SHRINK_AFTER_ROUNDS; round++) {
      assertEquals(first.sharesOf("s1"), keeper.next(fresh, GATED, segments(0.1, 1), nodes, holders(first), ROUND_SECONDS).plan().sharesOf("s1"));
    }
    final PlanKeeper.Verdict verdict = keeper.next(fresh, GATED, segments(0.1, 1), nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.KEPT, verdict.reason(), verdict.toString());
    assertEquals(Map.of("a", 1.0), verdict.plan().sharesOf("s1"), "kept where most of its load was: " + verdict);
  }

  @Test
  void theFreshPlanIsAdoptedWhenUngatedWhenTheConstraintsChangeAndWhenTheKeptPlanOverfillsMemory()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3", "s4")));
    final PlacementPlan fresh = plan(Map.of("a", List.of("s1", "s3"), "b", List.of("s2", "s4")));
    final List<SegmentLoad> segments = segments(1, 1, 1, 1);

    final PlanKeeper ungated = inForce(first, segments, nodes);
    final PlanKeeper.Verdict every = ungated.next(fresh, constraints(0), segments, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.UNGATED, every.reason());
    assertEquals(fresh, every.plan());

    final PlanKeeper changed = inForce(first, segments, nodes);
    final PlanKeeper.Verdict reconfigured = changed.next(fresh, constraints(0.3), segments, nodes, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.CONSTRAINTS, reconfigured.reason());
    assertEquals(fresh, reconfigured.plan());

    final PlanKeeper shrunk = inForce(first, segments, nodes);
    final List<NodeCapacity> smaller = List.of(new NodeCapacity("a", 1, 15), node("b", 1));
    final PlanKeeper.Verdict memory = shrunk.next(fresh, GATED, segments, smaller, holders(first), ROUND_SECONDS);
    assertEquals(PlanKeeper.Reason.MEMORY, memory.reason());
    assertEquals(fresh, memory.plan());
  }

  @Test
  void theKeptPlanStaysInForceForTheNextRound()
  {
    final List<NodeCapacity> nodes = List.of(node("a", 1), node("b", 1));
    final PlacementPlan first = plan(Map.of("a", List.of("s1", "s2"), "b", List.of("s3", "s4")));
    final List<SegmentLoad> segments = segments(1, 1, 1, 1);
    final PlanKeeper keeper = inForce(first, segments, nodes);
    final PlacementPlan fresh = plan(Map.of("a", List.of("s1", "s3"), "b", List.of("s2", "s4")));
    for (int round = 0; round < 3; round++) {
      assertEquals(first.shares(), keeper.next(fresh, GATED, segments, nodes, holders(first), ROUND_SECONDS).plan().shares());
    }
  }
}
