package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scarlett's replica counts: max(base, ⌈concurrent accesses⌉), within the constraints and memory. */
class ScarlettTest
{
  private static List<NodeCapacity> nodes(int count, long maxSize)
  {
    final List<NodeCapacity> nodes = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      nodes.add(new NodeCapacity("n" + n, 1, maxSize));
    }
    return nodes;
  }

  private static final List<SegmentLoad> SEGMENTS = List.of(
      new SegmentLoad("unused", 0, 1),
      new SegmentLoad("once", 1, 1),
      new SegmentLoad("busy", 4.2, 1),
      new SegmentLoad("hot", 7, 1)
  );

  @Test
  void defaultBaseIsDruidsReplicationFactor()
  {
    final PlacementPlan plan = PlacementStrategies.create("scarlett").plan(
        new PlacementInput(SEGMENTS, nodes(10, 100), new PlacementConstraints(1, 10, 0.2))
    );
    assertEquals(PlacementStrategies.DEFAULT_DRUID_REPLICATION_FACTOR, plan.holders("unused").size());
    assertEquals(2, plan.holders("once").size());
    assertEquals(5, plan.holders("busy").size());
    assertEquals(7, plan.holders("hot").size());
    assertEquals(0.2, plan.sharesOf("busy").get(plan.holders("busy").iterator().next()), 1e-9);
    assertTrue(plan.unplaced().isEmpty());
  }

  @Test
  void otherBasesAndTheClamps()
  {
    final PlacementInput input = new PlacementInput(SEGMENTS, nodes(10, 100), new PlacementConstraints(1, 6, 0.2));
    final PlacementPlan hdfs = new ScarlettStrategy(3).plan(input);
    assertEquals(3, hdfs.holders("unused").size());
    assertEquals(5, hdfs.holders("busy").size());
    assertEquals(6, hdfs.holders("hot").size(), "capped by maxReplicas");
    final PlacementPlan single = new ScarlettStrategy(1).plan(input);
    assertEquals(1, single.holders("unused").size());
    assertEquals(1, single.holders("once").size());
    // The floor wins over a lower base; the node count caps everything.
    final PlacementPlan floor = PlacementStrategies.create("scarlett").plan(
        new PlacementInput(SEGMENTS, nodes(4, 100), new PlacementConstraints(3, 10, 0.2))
    );
    assertEquals(3, floor.holders("unused").size());
    assertEquals(4, floor.holders("hot").size());
    assertTrue(floor.unplaced().isEmpty(), floor.unplaced().toString());
    assertThrows(IllegalArgumentException.class, () -> new ScarlettStrategy(0));
  }

  @Test
  void baseReplicasComeBeforeExtraCopies()
  {
    // 4 segments, 3 nodes with room for 3 each: 9 slots. Bases take 8; the hot segment's extra copy gets the last.
    final PlacementPlan plan = PlacementStrategies.create("scarlett").plan(
        new PlacementInput(SEGMENTS, nodes(3, 3), new PlacementConstraints(1, 10, 0.2))
    );
    for (SegmentLoad s : SEGMENTS) {
      assertTrue(plan.holders(s.segmentId()).size() >= 2, s.segmentId() + ": " + plan.sharesOf(s.segmentId()));
    }
    assertEquals(9, plan.totalReplicas());
    ConstraintsTest.assertMemoryRespected(
        new PlacementInput(SEGMENTS, nodes(3, 3), PlacementConstraints.DEFAULT), plan, "scarlett"
    );
  }

  @Test
  void replicasStayWhereTheyAre()
  {
    final PlacementConstraints constraints = new PlacementConstraints(1, 10, 0.2);
    final PlacementPlan first =
        PlacementStrategies.create("scarlett").plan(new PlacementInput(SEGMENTS, nodes(10, 100), constraints));
    final Map<String, Set<String>> holders = Map.of(
        "unused", first.holders("unused"),
        "once", first.holders("once"),
        "busy", first.holders("busy"),
        "hot", first.holders("hot")
    );
    // Fewer accesses to the hot segment: it keeps 5 of its 7 replicas, and nothing else moves.
    final List<SegmentLoad> cooler = List.of(SEGMENTS.get(0), SEGMENTS.get(1), SEGMENTS.get(2),
                                             new SegmentLoad("hot", 5, 1));
    final PlacementInput next = new PlacementInput(cooler, nodes(10, 100), constraints, holders);
    final PlacementPlan plan = PlacementStrategies.create("scarlett").plan(next);
    assertEquals(0, PlanStabilityTest.moves(next, plan));
    assertEquals(5, plan.holders("hot").size());
    assertEquals(first.sharesOf("busy"), plan.sharesOf("busy"));
  }
}
