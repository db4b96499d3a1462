package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.plan.UnplacedSegment;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory limit, replica floor and cap, infeasible input reports, and the invariants of every strategy. */
class ConstraintsTest
{
  private static final List<PlacementStrategy> ALL = List.of(
      PlacementStrategies.create("getafix-h"),
      PlacementStrategies.create("getafix-b"),
      PlacementStrategies.create("auto-tiering-only"),
      PlacementStrategies.create("scarlett"),
      PlacementStrategies.create("druid-default")
  );

  @Test
  void noNodeReceivesMoreBytesThanItsLimit()
  {
    // One hot segment worth ten times a node's bin, but each node only has room for 2 segments.
    final List<SegmentLoad> segments = new ArrayList<>();
    segments.add(new SegmentLoad("hot", 100, 10));
    for (int i = 0; i < 5; i++) {
      segments.add(new SegmentLoad("s" + i, 1, 10));
    }
    final List<NodeCapacity> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(new NodeCapacity("n" + i, 1, 25));
    }
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(1, 4, 0.2));
    for (PlacementStrategy strategy : ALL) {
      final PlacementPlan plan = strategy.plan(input);
      assertMemoryRespected(input, plan, strategy.toString());
      // 8 slots for 6 segments: every segment keeps at least one replica.
      for (SegmentLoad s : segments) {
        assertFalse(plan.holders(s.segmentId()).isEmpty(), strategy + " lost " + s.segmentId());
      }
    }
  }

  @Test
  void memoryForTheFloorIsReservedBeforeExtraReplicas()
  {
    // The hot segment's load wants a replica on every node, but then the cold ones would find no room.
    final List<SegmentLoad> segments = List.of(
        new SegmentLoad("hot", 100, 10),
        new SegmentLoad("cold1", 0, 10),
        new SegmentLoad("cold2", 0, 10)
    );
    final List<NodeCapacity> nodes = List.of(new NodeCapacity("a", 1, 10), new NodeCapacity("b", 1, 10),
                                             new NodeCapacity("c", 1, 10));
    final PlacementPlan plan = PlacementStrategies.create("getafix-h").plan(
        new PlacementInput(segments, nodes, new PlacementConstraints(1, 3, 0.2))
    );
    assertEquals(1, plan.holders("cold1").size());
    assertEquals(1, plan.holders("cold2").size());
    assertEquals(1, plan.holders("hot").size());
    assertEquals(3, plan.totalReplicas());
    // The hot segment wanted more replicas and the plan says so.
    assertEquals("hot", plan.unplaced().get(0).segmentId());
    assertTrue(plan.unplaced().get(0).reason().contains("minimum replicas"), plan.unplaced().toString());
  }

  @Test
  void zeroPopularitySegmentsStillGetTheFloor()
  {
    final List<SegmentLoad> segments = new ArrayList<>();
    segments.add(new SegmentLoad("popular", 10, 1));
    segments.add(new SegmentLoad("popular2", 10, 1));
    segments.add(new SegmentLoad("popular3", 10, 1));
    for (int i = 0; i < 6; i++) {
      segments.add(new SegmentLoad("unused" + i, 0, 1));
    }
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("a", 1, 100), new NodeCapacity("b", 1, 100), new NodeCapacity("c", 1, 100)
    );
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(2, 3, 0.2));
    for (String name : List.of("getafix-h", "getafix-b", "scarlett")) {
      final PlacementStrategy strategy = PlacementStrategies.create(name);
      final PlacementPlan plan = strategy.plan(input);
      for (SegmentLoad s : segments) {
        assertTrue(plan.holders(s.segmentId()).size() >= 2, name + ": " + plan.sharesOf(s.segmentId()));
      }
      assertTrue(plan.unplaced().isEmpty(), name);
    }
    // Getafix: each popular segment fills one bin exactly, so its floor replica carries no queries.
    final Map<String, Double> popular = PlacementStrategies.create("getafix-b").plan(input).sharesOf("popular");
    assertEquals(2, popular.size());
    assertTrue(popular.containsValue(0.0) && popular.containsValue(1.0), popular.toString());
    // A segment without load splits its queries evenly, so that a query that does come has a target.
    final PlacementStrategy getafixB = PlacementStrategies.create("getafix-b");
    assertEquals(Set.of(0.5), new HashSet<>(getafixB.plan(input).sharesOf("unused0").values()));
    // Floor replicas go to the nodes with the fewest segments: counts differ by at most 1.
    final Map<String, Integer> counts = PlacementStrategies.create("getafix-b").plan(input).segmentCounts();
    assertTrue(max(counts) - min(counts) <= 1, counts.toString());
  }

  @Test
  void replicasNeverExceedTheCap()
  {
    final List<SegmentLoad> segments = List.of(new SegmentLoad("hot", 1000, 1), new SegmentLoad("cold", 1, 1));
    final List<NodeCapacity> nodes = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nodes.add(new NodeCapacity("n" + i, 1, 100));
    }
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(1, 3, 0.2));
    for (PlacementStrategy strategy : ALL) {
      final PlacementPlan plan = strategy.plan(input);
      assertTrue(plan.holders("hot").size() <= 3, strategy + ": " + plan.sharesOf("hot"));
      assertEquals(1.0, sum(plan.sharesOf("hot")), 1e-9);
    }
    // Uncapped, Getafix spreads the hot segment over (almost) every node.
    final PlacementPlan uncapped = PlacementStrategies.create("getafix-b").plan(
        new PlacementInput(segments, nodes, new PlacementConstraints(1, 10, 0.2))
    );
    assertEquals(10, uncapped.holders("hot").size());
  }

  @Test
  void infeasibleInputIsReportedNotThrown()
  {
    final List<SegmentLoad> segments = List.of(
        new SegmentLoad("fits", 1, 10),
        new SegmentLoad("huge", 1, 1000),
        new SegmentLoad("needs3", 0, 1)
    );
    final List<NodeCapacity> nodes = List.of(new NodeCapacity("a", 1, 100), new NodeCapacity("b", 1, 100));
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(3, 3, 0.2));
    for (PlacementStrategy strategy : ALL) {
      final PlacementPlan plan = strategy.plan(input);
      final Map<String, UnplacedSegment> bySegment = new HashMap<>();
      plan.unplaced().forEach(u -> bySegment.put(u.segmentId(), u));
      assertEquals(Set.of("fits", "huge", "needs3"), bySegment.keySet(), strategy.toString());
      assertEquals(0, bySegment.get("huge").placedReplicas());
      assertEquals(3, bySegment.get("huge").wantedReplicas());
      assertTrue(bySegment.get("huge").reason().contains("1000 bytes"), bySegment.get("huge").reason());
      assertEquals(2, bySegment.get("needs3").placedReplicas());
      assertTrue(bySegment.get("needs3").reason().contains("only 2 nodes"), bySegment.get("needs3").reason());
      assertTrue(plan.holders("huge").isEmpty());
      assertEquals(2, plan.holders("fits").size());
    }
    // No nodes at all: everything unplaced, nothing thrown.
    for (PlacementStrategy strategy : ALL) {
      final PlacementPlan plan = strategy.plan(new PlacementInput(segments, List.of(), PlacementConstraints.DEFAULT));
      assertEquals(3, plan.unplaced().size(), strategy.toString());
      assertEquals(0, plan.totalReplicas());
    }
    // No segments: an empty plan.
    for (PlacementStrategy strategy : ALL) {
      assertEquals(PlacementPlan.empty(), strategy.plan(new PlacementInput(List.of(), nodes, PlacementConstraints.DEFAULT)));
    }
  }

  @Test
  void zeroCapacityNodeGetsNoQueryLoad()
  {
    final List<SegmentLoad> segments = List.of(new SegmentLoad("x", 10, 1), new SegmentLoad("y", 5, 1),
                                               new SegmentLoad("z", 0, 1));
    final List<NodeCapacity> nodes = List.of(new NodeCapacity("draining", 0, 100), new NodeCapacity("live", 2, 100));
    for (String name : List.of("getafix-h", "getafix-b")) {
      final PlacementStrategy strategy = PlacementStrategies.create(name);
      final PlacementPlan plan = strategy.plan(new PlacementInput(segments, nodes, new PlacementConstraints(1, 2, 0.2)));
      assertEquals(0.0, plan.nodeLoads(segments).getOrDefault("draining", 0.0), 1e-12, name);
      assertEquals(15.0, plan.nodeLoads(segments).get("live"), 1e-9, name);
    }
  }

  /** Random inputs, every strategy: the invariants hold whatever the numbers. */
  @Test
  void invariantsHoldOnRandomInputs()
  {
    final Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      final int segmentCount = 1 + random.nextInt(60);
      final int nodeCount = 1 + random.nextInt(8);
      final List<SegmentLoad> segments = new ArrayList<>();
      for (int s = 0; s < segmentCount; s++) {
        final double load = random.nextInt(4) == 0 ? 0 : Math.pow(random.nextDouble(), 3) * 100;
        segments.add(new SegmentLoad("seg-" + s, load, 1 + random.nextInt(20)));
      }
      final List<NodeCapacity> nodes = new ArrayList<>();
      for (int n = 0; n < nodeCount; n++) {
        nodes.add(new NodeCapacity("node-" + n, random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(16),
                                   50 + random.nextInt(400)));
      }
      final int min = 1 + random.nextInt(3);
      final PlacementConstraints constraints = new PlacementConstraints(min, min + random.nextInt(4),
                                                                        random.nextDouble() * 0.5);
      final PlacementInput input = new PlacementInput(segments, nodes, constraints);
      for (PlacementStrategy strategy : ALL) {
        final PlacementPlan plan = strategy.plan(input);
        final String what = strategy + " round " + round;
        assertMemoryRespected(input, plan, what);
        final Set<String> unplaced = new HashSet<>();
        plan.unplaced().forEach(u -> unplaced.add(u.segmentId()));
        for (SegmentLoad s : segments) {
          final Map<String, Double> shares = plan.sharesOf(s.segmentId());
          assertTrue(shares.size() <= constraints.maxReplicas(), what);
          if (!shares.isEmpty()) {
            assertEquals(1.0, sum(shares), 1e-9, what + " " + shares);
          }
          if (shares.size() < constraints.minReplicas()) {
            assertTrue(unplaced.contains(s.segmentId()), what + ": " + s.segmentId() + " below floor, not reported");
          }
          // Map keys are distinct, so two replicas on one node cannot even be expressed; check the count instead.
          assertEquals(shares.size(), new HashSet<>(shares.keySet()).size());
        }
      }
    }
  }

  static void assertMemoryRespected(PlacementInput input, PlacementPlan plan, String what)
  {
    final Map<String, Long> size = new HashMap<>();
    input.segments().forEach(s -> size.put(s.segmentId(), s.sizeBytes()));
    final Map<String, Long> used = new HashMap<>();
    plan.shares().forEach((segment, shares) -> shares.keySet()
        .forEach(node -> used.merge(node, size.get(segment), Long::sum)));
    for (NodeCapacity node : input.nodes()) {
      assertTrue(
          used.getOrDefault(node.nodeId(), 0L) <= node.maxSizeBytes(),
          what + ": node " + node.nodeId() + " holds " + used.get(node.nodeId()) + " > " + node.maxSizeBytes()
      );
    }
  }

  static double sum(Map<String, Double> shares)
  {
    return shares.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  static int max(Map<String, Integer> counts)
  {
    return counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  static int min(Map<String, Integer> counts)
  {
    return counts.values().stream().mapToInt(Integer::intValue).min().orElse(0);
  }
}
