package org.getafix.simulator.routing;

import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.routing.RoutingPolicies;
import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.RoutingPolicy;
import org.getafix.simulator.cluster.Segment;
import org.getafix.simulator.engine.EventLoop;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The simulator's bridge to getafix-core's routing policies: holders and open requests in, a holder out. */
class RoutingTest
{
  private static final List<String> NODES = List.of("a", "b", "c");
  private static final PlacementPlan PLAN =
      new PlacementPlan(Map.of("s", Map.of("a", 0.6, "b", 0.3, "c", 0.1)), List.of());

  private final EventLoop loop = new EventLoop();

  private Segment segmentOnAllThree(RoutingPolicy routing)
  {
    final Cluster cluster = new Cluster(
        loop,
        List.of(new Cluster.NodeSpec("a", 1, 1, null), new Cluster.NodeSpec("b", 1, 1, null),
                new Cluster.NodeSpec("c", 1, 1, null)),
        2,
        1e12,
        0,
        routing,
        0,
        1
    );
    final Segment s = cluster.addLoadedSegment("s", 1, 0);
    cluster.applyPlan(PLAN);
    loop.runUntil(1);
    assertEquals(3, s.loadedHolders().size());
    return s;
  }

  @Test
  void leastConnectionsPicksTheHolderWithFewestOpenRequestsOfThisBroker()
  {
    final CoreRouting lbr = CoreRouting.leastConnections(NODES, 2, new SplittableRandom(1));
    final Segment s = segmentOnAllThree(lbr);
    final int[] open = {3, 1, 2};
    final int[] otherBroker = {0, 9, 9};
    final RoutingPolicy.BrokerView view = (broker, node) -> broker == 0 ? open[node] : otherBroker[node];
    assertEquals(1, lbr.choose(0, s, view));
    assertEquals(0, lbr.choose(1, s, view));
  }

  @Test
  void leastConnectionsBreaksTiesAtRandom()
  {
    final CoreRouting lbr = CoreRouting.leastConnections(NODES, 2, new SplittableRandom(2));
    final Segment s = segmentOnAllThree(lbr);
    final int[] counts = new int[3];
    for (int i = 0; i < 30_000; i++) {
      counts[lbr.choose(0, s, (b, n) -> 0)]++;
    }
    for (int c : counts) {
      assertEquals(10_000, c, 500);
    }
  }

  @Test
  void allocationBasedRoutingFollowsThePlanShares()
  {
    final CoreRouting abr = CoreRouting.allocationBased(NODES, 2, new SplittableRandom(3), loop::now, 15);
    final Segment s = segmentOnAllThree(abr);
    abr.onPlan(PLAN);
    final int[] counts = new int[3];
    for (int i = 0; i < 50_000; i++) {
      counts[abr.choose(0, s, (b, n) -> 0)]++;
    }
    assertEquals(30_000, counts[0], 600);
    assertEquals(15_000, counts[1], 600);
    assertEquals(5_000, counts[2], 600);
  }

  @Test
  void allocationBasedRoutingFallsBackToLeastConnectionsWithoutARow()
  {
    final CoreRouting abr = CoreRouting.allocationBased(NODES, 2, new SplittableRandom(4), loop::now, 15);
    final Segment s = segmentOnAllThree(abr);
    abr.onPlan(new PlacementPlan(Map.of(), List.of()));
    final int[] open = {5, 5, 0};
    assertEquals(2, abr.choose(0, s, (b, n) -> open[n]));
  }

  @Test
  void allocationBasedRoutingDistrustsAStaleTable()
  {
    final CoreRouting abr = CoreRouting.allocationBased(NODES, 2, new SplittableRandom(5), loop::now, 15);
    final Segment s = segmentOnAllThree(abr);
    abr.onPlan(PLAN);
    loop.runUntil(20);
    final int[] open = {5, 0, 5};
    for (int i = 0; i < 100; i++) {
      assertEquals(1, abr.choose(0, s, (b, n) -> open[n]), "a 19 s old table is not trusted: least connections");
    }
  }

  @Test
  void leastLoadAddsTheReportedQueueToThisBrokersOpenRequests()
  {
    final CoreRouting lbrMl = CoreRouting.named(RoutingPolicies.LBR_ML, NODES, 2, new SplittableRandom(6), loop::now, 15);
    final Segment s = segmentOnAllThree(lbrMl);
    final int[] open = {0, 1, 1};
    // Without queue reports it is least connections.
    assertEquals(0, lbrMl.choose(0, s, (b, n) -> open[n]));
    // Node a's queue (other brokers' work) makes it the most loaded; b's is the shorter of the other two.
    lbrMl.onQueueReport(0, 4.0);
    lbrMl.onQueueReport(1, 0.5);
    lbrMl.onQueueReport(2, 2.0);
    assertEquals(1, lbrMl.choose(0, s, (b, n) -> open[n]));
    assertEquals(1, lbrMl.choose(1, s, (b, n) -> open[n]), "every broker hears the queue reports");
    // A report older than the 15 s the Broker trusts is ignored.
    loop.runUntil(20);
    assertEquals(0, lbrMl.choose(0, s, (b, n) -> open[n]));
  }

  @Test
  void adaptiveAvoidsTheNodeThisBrokerSawAnswerSlowly()
  {
    final CoreRouting adaptive = CoreRouting.named(RoutingPolicies.ADAPTIVE, NODES, 2, new SplittableRandom(7), loop::now, 15);
    final Segment s = segmentOnAllThree(adaptive);
    for (int i = 0; i < 5; i++) {
      adaptive.onResponse(0, 0, 0.200);
      adaptive.onResponse(0, 1, 0.010);
      adaptive.onResponse(0, 2, 0.050);
    }
    for (int i = 0; i < 100; i++) {
      assertEquals(1, adaptive.choose(0, s, (b, n) -> 0));
    }
    // Broker 1 has seen nothing: its choice is a random tie-break, so it reaches every holder.
    final int[] counts = new int[3];
    for (int i = 0; i < 3_000; i++) {
      counts[adaptive.choose(1, s, (b, n) -> 0)]++;
    }
    for (int c : counts) {
      assertEquals(1_000, c, 150);
    }
  }

  @Test
  void randomIgnoresOpenRequests()
  {
    final CoreRouting random = CoreRouting.named(RoutingPolicies.RANDOM, NODES, 2, new SplittableRandom(8), loop::now, 15);
    final Segment s = segmentOnAllThree(random);
    final int[] counts = new int[3];
    final int[] open = {100, 0, 0};
    for (int i = 0; i < 30_000; i++) {
      counts[random.choose(0, s, (b, n) -> open[n])]++;
    }
    for (int c : counts) {
      assertEquals(10_000, c, 500);
    }
  }
}
