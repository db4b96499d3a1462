package org.getafix.simulator.cluster;

import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.realise.ChurnLimits;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.realise.RealisePolicy;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.routing.CoreRouting;
import org.getafix.simulator.workload.QueryType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterTest
{
  private static final long SIZE = 1_000;
  private static final double BANDWIDTH = 100; // a load takes 10 s
  private static final RealisePolicy FLOOR_1 = policy(1);
  private static final ChurnLimits ONE_LOAD = new ChurnLimits(1, Integer.MAX_VALUE);
  private static final ChurnLimits NO_LOADS = new ChurnLimits(0, Integer.MAX_VALUE);

  private final EventLoop loop = new EventLoop();
  private final Cluster cluster = new Cluster(
      loop,
      List.of(
          new Cluster.NodeSpec("a", 2, 1, null),
          new Cluster.NodeSpec("b", 2, 1, null),
          new Cluster.NodeSpec("c", 2, 1, null)
      ),
      1,
      BANDWIDTH,
      0,
      CoreRouting.leastConnections(List.of("a", "b", "c"), 1, new SplittableRandom(1)),
      0,
      100
  );

  private static RealisePolicy policy(int floor)
  {
    return new RealisePolicy(floor, LoadBeforeDrop.PLANNED_COUNT_SERVING);
  }

  private static PlacementPlan plan(String segment, Map<String, Double> shares)
  {
    return new PlacementPlan(Map.of(segment, shares), List.of());
  }

  @Test
  void aMovedReplicaIsDroppedOnlyOnceItsReplacementIsLoaded()
  {
    final Segment s = cluster.addLoadedSegment("s", SIZE, 0);
    cluster.applyPlan(plan("s", Map.of("b", 1.0)));
    loop.runUntil(9.9);
    assertEquals(List.of(0), s.loadedHolders(), "the old replica serves while the new one loads");
    assertEquals(2 * SIZE, cluster.nodes()[0].bytesHeld() + cluster.nodes()[1].bytesHeld());
    loop.runUntil(10.1);
    assertEquals(List.of(1), s.loadedHolders());
    assertEquals(0, cluster.nodes()[0].bytesHeld());
    assertEquals(SIZE, cluster.nodes()[1].bytesHeld());
  }

  @Test
  void aSegmentKeepsAsManyLoadedReplicasAsThePlanWantsWhileMoving()
  {
    final Segment s = cluster.addLoadedSegment("s", SIZE, 0);
    cluster.applyPlan(plan("s", Map.of("b", 0.5, "c", 0.5)));
    for (double t = 1; t <= 30; t += 1) {
      loop.runUntil(t);
      assertTrue(s.isQueryable(), "never without a loaded replica, t=" + t);
    }
    // Both new replicas loaded in parallel (one per node's load queue) at t = 10; then "a" goes.
    assertEquals(2, s.loadedHolders().size());
    assertTrue(!s.loadedHolders().contains(0));
  }

  @Test
  void queuedLoadsGoNewestFirstAndAChangeOfMindCancelsThem()
  {
    final Segment s0 = cluster.addLoadedSegment("s0", SIZE, 0);
    final Segment s1 = cluster.addLoadedSegment("s1", SIZE, 0);
    final Segment s2 = cluster.addLoadedSegment("s2", SIZE, 0);
    final Map<String, Double> onB = Map.of("b", 1.0);
    final Map<String, Double> onA = Map.of("a", 1.0);
    // s0 starts loading on b at once; s1 (asked at t = 1) and then s2 (t = 2) wait in b's queue, newest first.
    cluster.applyPlan(new PlacementPlan(Map.of("s0", onB, "s1", onA, "s2", onA), List.of()));
    loop.runUntil(1);
    cluster.applyPlan(new PlacementPlan(Map.of("s0", onB, "s1", onB, "s2", onA), List.of()));
    loop.runUntil(2);
    cluster.applyPlan(new PlacementPlan(Map.of("s0", onB, "s1", onB, "s2", onB), List.of()));
    loop.runUntil(3);
    cluster.applyPlan(new PlacementPlan(Map.of("s0", onB, "s1", onA, "s2", onB), List.of()));
    loop.runUntil(19);
    assertEquals(List.of(1), s0.loadedHolders());
    assertEquals(List.of(0), s2.loadedHolders(), "s2 loads second, from t = 10 to 20");
    loop.runUntil(50);
    assertEquals(List.of(1), s2.loadedHolders());
    assertEquals(List.of(0), s1.loadedHolders(), "s1 stays where it is, its queued load is cancelled");
    assertEquals(2, cluster.footprint().replicaLoads());
  }

  @Test
  void theLoadQueueServesUnavailableSegmentsFirstThenNewestFirst()
  {
    final Segment older = new Segment(0, "older", SIZE);
    final Segment newer = new Segment(1, "newer", SIZE);
    final Segment newest = new Segment(2, "newest", SIZE);
    newer.loaded.add(0);
    newest.loaded.add(0);
    // Druid's SegmentHolder order: LOAD (no replica serves) before REPLICATE, each newest interval first.
    assertTrue(Historical.LOAD_ORDER.compare(older, newest) < 0, "an unavailable segment loads first, even if older");
    assertTrue(Historical.LOAD_ORDER.compare(newest, newer) < 0, "among served segments, the newest first");
  }

  @Test
  void theLoadBudgetGoesToTheNewestSegmentsAndAnUnissuedLoadDropsNothing()
  {
    final Segment old = cluster.addLoadedSegment("old", SIZE, 0);
    final Segment young = cluster.addLoadedSegment("young", SIZE, 0);
    final PlacementPlan bothToC = new PlacementPlan(Map.of("old", Map.of("c", 1.0), "young", Map.of("c", 1.0)), List.of());
    // Both move to c, but the round may issue one load: the newest segment's, as Druid's RunRules visits them.
    cluster.applyPlan(bothToC, FLOOR_1, ONE_LOAD.newRound());
    loop.runUntil(30);
    assertEquals(List.of(2), young.loadedHolders());
    assertEquals(List.of(0), old.loadedHolders(), "still served where it was: its replacement was not loaded");
    assertEquals(1, cluster.footprint().replicaLoads());
    // The next round issues it.
    cluster.applyPlan(bothToC, FLOOR_1, ONE_LOAD.newRound());
    loop.runUntil(60);
    assertEquals(List.of(2), old.loadedHolders());
  }

  @Test
  void loadsThatRestoreTheFloorAreNotThrottled()
  {
    final Segment s = cluster.addLoadedSegment("s", SIZE, 0);
    cluster.applyPlan(plan("s", Map.of("a", 0.5, "b", 0.5)), policy(2), NO_LOADS.newRound());
    loop.runUntil(30);
    assertEquals(2, s.loadedHolders().size(), "the second replica restores a floor of 2");
    final Segment t = cluster.addLoadedSegment("t", SIZE, 0);
    cluster.applyPlan(plan("t", Map.of("a", 0.5, "c", 0.5)), FLOOR_1, NO_LOADS.newRound());
    loop.runUntil(60);
    assertEquals(List.of(0), t.loadedHolders(), "an extra replica waits for budget");
  }

  @Test
  void theDropBudgetKeepsUnwantedReplicasUntilALaterRound()
  {
    final Segment s = cluster.addLoadedSegment("s", SIZE, 0);
    cluster.applyPlan(plan("s", Map.of("a", 0.3, "b", 0.3, "c", 0.4)));
    loop.runUntil(30);
    assertEquals(3, s.loadedHolders().size());
    final ChurnLimits noDrops = new ChurnLimits(Integer.MAX_VALUE, 0);
    cluster.applyPlan(plan("s", Map.of("a", 1.0)), FLOOR_1, noDrops.newRound());
    loop.runUntil(40);
    assertEquals(3, s.loadedHolders().size(), "no drop this round");
    cluster.applyPlan(plan("s", Map.of("a", 1.0)), FLOOR_1, new ChurnLimits(Integer.MAX_VALUE, 1).newRound());
    loop.runUntil(50);
    assertEquals(2, s.loadedHolders().size(), "one drop per round");
    assertTrue(s.loadedHolders().contains(0), "the planned replica stays");
  }

  @Test
  void plannedCountServingDropsAMovingReplicaBeforeItsReplacementServesAllPlannedLoadedDoesNot()
  {
    final Segment counted = cluster.addLoadedSegment("counted", SIZE, 0);
    final Segment strict = cluster.addLoadedSegment("strict", SIZE, 0);
    cluster.applyPlan(new PlacementPlan(Map.of("counted", Map.of("a", 0.5, "b", 0.5),
                                               "strict", Map.of("a", 0.5, "b", 0.5)), List.of()));
    loop.runUntil(30);
    // Each is served by a and b; the plan moves it to c alone.
    cluster.applyPlan(plan("counted", Map.of("c", 1.0)), FLOOR_1, ChurnLimits.UNLIMITED.newRound());
    cluster.applyPlan(
        plan("strict", Map.of("c", 1.0)),
        new RealisePolicy(1, LoadBeforeDrop.ALL_PLANNED_LOADED),
        ChurnLimits.UNLIMITED.newRound()
    );
    loop.runUntil(31);
    assertEquals(List.of(0), counted.loadedHolders(), "one replica serves, as planned, while c loads");
    assertEquals(List.of(0, 1), strict.loadedHolders(), "both serve until c does");
    loop.runUntil(60);
    assertEquals(List.of(2), counted.loadedHolders());
    assertEquals(List.of(2), strict.loadedHolders());
  }

  @Test
  void aSegmentNotServedYetIsNotInThePlanInput()
  {
    final Segment handedOff = cluster.addArrivingSegment("handoff", SIZE);
    loop.runUntil(5);
    assertTrue(cluster.takeSegmentRoundStats().isEmpty());
    assertTrue(cluster.currentHolders().isEmpty());
    loop.runUntil(11);
    assertTrue(handedOff.isQueryable());
    assertEquals(List.of("handoff"), cluster.takeSegmentRoundStats().stream().map(Cluster.SegmentRoundStats::segmentId).toList());
    assertEquals(Map.of("handoff", java.util.Set.of("a")), cluster.currentHolders());
  }

  @Test
  void timeAveragedMemoryCountsLoadsAndDrops()
  {
    final Segment s = cluster.addLoadedSegment("s", SIZE, 0);
    cluster.openMeasurementWindow();
    // Replicated on b from t = 0 (load until t = 10) for the rest of the 100 s window: 2 × SIZE from t = 0.
    cluster.applyPlan(plan("s", Map.of("a", 0.5, "b", 0.5)));
    loop.runUntil(100);
    final Cluster.Footprint f = cluster.footprint();
    assertEquals(2.0 * SIZE, f.meanTotalBytes(), 1e-6);
    assertEquals(SIZE, f.maxNodeBytes());
    assertEquals(2.0, f.meanReplicas(), 1e-9);
    assertEquals(1.0, f.meanSegments(), 1e-9);
    assertEquals(2, s.loadedHolders().size());
  }

  @Test
  void aQueryCompletesWithItsLastTask()
  {
    final Segment s1 = cluster.addLoadedSegment("s1", SIZE, 0);
    final Segment s2 = cluster.addLoadedSegment("s2", SIZE, 1);
    final double[] doneAt = {-1};
    cluster.setQueryListener((q, t) -> doneAt[0] = t);
    final Query q = new Query(0, new QueryType("q", 1, 1, 0), 0);
    cluster.dispatch(q, s1, 1.0, 0);
    cluster.dispatch(q, s2, 3.0, 0);
    loop.runToCompletion();
    assertEquals(3.0, doneAt[0], 1e-12);
  }

  @Test
  void aStragglerRunsSlowerFromItsStartTime()
  {
    final Segment s = cluster.addLoadedSegment("s", SIZE, 0);
    cluster.nodes()[0].slowDown(5, 0.25);
    final double[] doneAt = {-1};
    cluster.setQueryListener((q, t) -> doneAt[0] = t);
    cluster.dispatch(new Query(0, new QueryType("q", 1, 1, 0), 0), s, 1.0, 0);
    loop.runToCompletion();
    assertEquals(1.0, doneAt[0], 1e-12);
    loop.schedule(10, () -> cluster.dispatch(new Query(0, new QueryType("q", 1, 1, 0), 10), s, 1.0, 0));
    loop.runToCompletion();
    assertEquals(14.0, doneAt[0], 1e-12);
  }

  @Test
  void aLoadInProgressTakesItsCoresFromTheQueriesThatStartDuringIt()
  {
    final EventLoop loadingLoop = new EventLoop();
    final Cluster charged = new Cluster(
        loadingLoop,
        List.of(new Cluster.NodeSpec("a", 2, 1, null), new Cluster.NodeSpec("b", 2, 1, null)),
        1,
        BANDWIDTH,
        1,
        CoreRouting.leastConnections(List.of("a", "b"), 1, new SplittableRandom(1)),
        0,
        100
    );
    charged.addLoadedSegment("moving", SIZE, 0);
    final Segment served = charged.addLoadedSegment("served", SIZE, 1);
    final double[] doneAt = {-1};
    charged.setQueryListener((q, t) -> doneAt[0] = t);
    charged.applyPlan(plan("moving", Map.of("b", 1.0)));
    // b loads "moving" from t = 0 to 10, one of its 2 cores taken: a 1 s scan that starts at 1 takes 2 s.
    loadingLoop.schedule(1, () -> charged.dispatch(new Query(0, new QueryType("q", 1, 1, 0), 1), served, 1.0, 0));
    loadingLoop.runUntil(5);
    assertEquals(3.0, doneAt[0], 1e-12);
    loadingLoop.schedule(20, () -> charged.dispatch(new Query(0, new QueryType("q", 1, 1, 0), 20), served, 1.0, 0));
    loadingLoop.runToCompletion();
    assertEquals(21.0, doneAt[0], 1e-12, "free again once the load is done");
  }
}
