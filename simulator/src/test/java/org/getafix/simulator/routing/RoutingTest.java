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

class RoutingTest
{
  private final EventLoop loop = new EventLoop();
  private Cluster cluster;

  private Segment segmentOnAllThree(RoutingPolicy routing)
  {
    cluster = new Cluster(
        loop,
        List.of(new Cluster.NodeSpec("a", 1, 1, null), new Cluster.NodeSpec("b", 1, 1, null),
                new Cluster.NodeSpec("c", 1, 1, null)),
        2,
        1e12,
        routing,
        new SplittableRandom(5),
        0,
        1
    );
    final Segment s = cluster.addLoadedSegment("s", 1, 0, 0);
    cluster.applyPlan(new PlacementPlan(Map.of("s", Map.of("a", 0.6, "b", 0.3, "c", 0.1)), List.of()));
    loop.runUntil(1);
    assertEquals(3, s.loadedHolders().size());
    return s;
  }

  @Test
  void leastConnectionsPicksTheHolderWithFewestOpenRequestsOfThisBroker()
  {
    final Segment s = segmentOnAllThree(new LeastConnectionsRouting());
    final int[] open = {3, 1, 2};
    final int[] otherBroker = {0, 9, 9};
    final RoutingPolicy.BrokerView view = (broker, node) -> broker == 0 ? open[node] : otherBroker[node];
    assertEquals(1, new LeastConnectionsRouting().choose(0, s, view, new SplittableRandom(1)));
    assertEquals(0, new LeastConnectionsRouting().choose(1, s, view, new SplittableRandom(1)));
  }

  @Test
  void leastConnectionsBreaksTiesAtRandom()
  {
    final Segment s = segmentOnAllThree(new LeastConnectionsRouting());
    final int[] counts = new int[3];
    final SplittableRandom r = new SplittableRandom(2);
    for (int i = 0; i < 30_000; i++) {
      counts[new LeastConnectionsRouting().choose(0, s, (b, n) -> 0, r)]++;
    }
    for (int c : counts) {
      assertEquals(10_000, c, 500);
    }
  }

  @Test
  void allocationBasedRoutingFollowsThePlanShares()
  {
    final AllocationBasedRouting abr =
        new AllocationBasedRouting(id -> cluster.nodeIndex(id), id -> cluster.segmentIndex(id), 3);
    final Segment s = segmentOnAllThree(abr);
    abr.onPlan(new PlacementPlan(Map.of("s", Map.of("a", 0.6, "b", 0.3, "c", 0.1)), List.of()));
    final int[] counts = new int[3];
    final SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 50_000; i++) {
      counts[abr.choose(0, s, (b, n) -> 0, r)]++;
    }
    assertEquals(30_000, counts[0], 600);
    assertEquals(15_000, counts[1], 600);
    assertEquals(5_000, counts[2], 600);
  }

  @Test
  void allocationBasedRoutingFallsBackToLeastConnectionsWithoutShares()
  {
    final AllocationBasedRouting abr =
        new AllocationBasedRouting(id -> cluster.nodeIndex(id), id -> cluster.segmentIndex(id), 3);
    final Segment s = segmentOnAllThree(abr);
    // A plan that does not know the segment: no row, so least connections decides.
    abr.onPlan(new PlacementPlan(Map.of(), List.of()));
    final int[] open = {5, 5, 0};
    assertEquals(2, abr.choose(0, s, (b, n) -> open[n], new SplittableRandom(4)));
  }
}
