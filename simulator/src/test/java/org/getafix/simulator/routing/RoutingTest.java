package org.getafix.simulator.routing;

import org.getafix.core.placement.PlacementPlan;
import org.getafix.simulator.cluster.Cluster;
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
    final CoreRouting lbr = CoreRouting.leastConnections(NODES, new SplittableRandom(1));
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
    final CoreRouting lbr = CoreRouting.leastConnections(NODES, new SplittableRandom(2));
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
    final CoreRouting abr = CoreRouting.allocationBased(NODES, new SplittableRandom(3), loop::now, 15);
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
    final CoreRouting abr = CoreRouting.allocationBased(NODES, new SplittableRandom(4), loop::now, 15);
    final Segment s = segmentOnAllThree(abr);
    abr.onPlan(new PlacementPlan(Map.of(), List.of()));
    final int[] open = {5, 5, 0};
    assertEquals(2, abr.choose(0, s, (b, n) -> open[n]));
  }

  @Test
  void allocationBasedRoutingDistrustsAStaleTable()
  {
    final CoreRouting abr = CoreRouting.allocationBased(NODES, new SplittableRandom(5), loop::now, 15);
    final Segment s = segmentOnAllThree(abr);
    abr.onPlan(PLAN);
    loop.runUntil(20);
    final int[] open = {5, 0, 5};
    for (int i = 0; i < 100; i++) {
      assertEquals(1, abr.choose(0, s, (b, n) -> open[n]), "a 19 s old table is not trusted: least connections");
    }
  }
}
