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
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StragglerCoverTest
{
  private static final long GB = 1L << 30;
  private static final PlacementConstraints CONSTRAINTS = new PlacementConstraints(1, 3, 0.2, 0.9);

  /** 6 warm segments and 60 cold ones, as the recency-biased workload draws them. */
  static List<SegmentLoad> segments()
  {
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      segments.add(new SegmentLoad("warm" + i, 1, 1 << 20));
    }
    for (int i = 0; i < 60; i++) {
      segments.add(new SegmentLoad("cold" + i, 0.01, 1 << 20));
    }
    return segments;
  }

  private static PlacementPlan plan(String strategy, double thirdNodeCapacity, long thirdNodeMemory, long othersMemory)
  {
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("strong", 1.0, othersMemory),
        new NodeCapacity("middle", 0.5, othersMemory),
        new NodeCapacity("third", thirdNodeCapacity, thirdNodeMemory)
    );
    return PlacementStrategies.create(strategy).plan(new PlacementInput(segments(), nodes, CONSTRAINTS));
  }

  /** How many of {@link #segments()} the plan puts on {@code node} alone. */
  static int heldAlone(PlacementPlan plan, String node)
  {
    int alone = 0;
    for (SegmentLoad segment : segments()) {
      alone += plan.holders(segment.segmentId()).equals(Set.of(node)) ? 1 : 0;
    }
    return alone;
  }

  @Test
  void aStragglerHoldsNoSegmentAloneAndTheReplicaCountStays()
  {
    final PlacementPlan weak = plan("getafix-h", 0.25, GB, GB);
    final PlacementPlan straggling = plan("getafix-h", 0.05, GB, GB);
    assertTrue(heldAlone(weak, "third") > 5, "a node that is only weak keeps its share alone: " + heldAlone(weak, "third"));
    assertEquals(0, heldAlone(straggling, "third"), "a node at a tenth of the median capacity holds nothing alone");
    for (SegmentLoad segment : segments()) {
      assertTrue(!straggling.holders(segment.segmentId()).isEmpty(), segment.segmentId());
    }
  }

  /**
   * The pass itself: a segment only the straggler holds moves, with its load, to the node with the fewest segments; one
   * that has another holder, and one on a healthy node, stay; no replica is added or lost.
   */
  @Test
  void aSegmentAloneOnAStragglerMovesToTheNodeWithTheFewestSegments()
  {
    final PlacementInput input = new PlacementInput(
        List.of(new SegmentLoad("x", 0.5, 1), new SegmentLoad("y", 0.5, 1), new SegmentLoad("z", 0.5, 1)),
        List.of(new NodeCapacity("a-strong", 1.0, GB), new NodeCapacity("b-middle", 0.5, GB), new NodeCapacity("c-slow", 0.05, GB)),
        CONSTRAINTS
    );
    final PlacementProblem problem = new PlacementProblem(input);
    final Assignment assignment = new Assignment(problem);
    final List<String> ids = List.of(problem.segmentIds);
    final int strong = 0;
    final int middle = 1;
    final int slow = 2;
    assignment.addReplica(ids.indexOf("x"), slow, 0.5);
    assignment.addReplica(ids.indexOf("y"), slow, 0.25);
    assignment.addReplica(ids.indexOf("y"), strong, 0.25);
    assignment.addReplica(ids.indexOf("z"), strong, 0.5);
    GetafixStrategy.moveOffStragglers(problem, assignment, new double[]{1.0, 0.5, 0.05});
    final PlacementPlan plan = assignment.toPlan();
    assertEquals(Set.of("b-middle"), plan.holders("x"), "to the node with the fewest segments");
    assertEquals(Set.of("a-strong", "c-slow"), plan.holders("y"), "another holder: stays");
    assertEquals(Set.of("a-strong"), plan.holders("z"));
    assertEquals(4, assignment.replicaTotal, "moved, not copied");
    assertEquals(0.5, assignment.nodeLoad[middle], 1e-9, "with its load");
    assertEquals(0.25, assignment.nodeLoad[slow], 1e-9);
  }

  @Test
  void aSegmentNothingElseHasRoomForStaysOnTheStraggler()
  {
    // The other two nodes have room for 20 segments each: the straggler must keep what they cannot take.
    final PlacementPlan plan = plan("getafix-h", 0.05, GB, 20L << 20);
    for (SegmentLoad segment : segments()) {
      assertTrue(!plan.holders(segment.segmentId()).isEmpty(), "unplaced: " + segment.segmentId());
    }
    assertTrue(heldAlone(plan, "third") > 0, "the straggler keeps what fits nowhere else");
  }

  @Test
  void getafixBWhichWeighsNoCapacityIsUnchanged()
  {
    assertEquals(heldAlone(plan("getafix-b", 0.25, GB, GB), "third"), heldAlone(plan("getafix-b", 0.05, GB, GB), "third"));
  }

  @Test
  void stragglersAreTheNodesBelowAQuarterOfTheMedianCapacity()
  {
    assertArrayEquals(new boolean[]{false, false, true}, GetafixStrategy.stragglers(new double[]{1.0, 0.5, 0.05}));
    assertArrayEquals(new boolean[]{false, false, false}, GetafixStrategy.stragglers(new double[]{1.0, 0.5, 0.25}));
    assertArrayEquals(new boolean[]{true, false, false}, GetafixStrategy.stragglers(new double[]{0.05, 0.5, 0.25}));
    assertArrayEquals(new boolean[]{false, false, false}, GetafixStrategy.stragglers(new double[]{0.1, 0.5, 0.25}));
    assertArrayEquals(new boolean[]{false, false, false, true}, GetafixStrategy.stragglers(new double[]{1, 1, 1, 0}));
    assertArrayEquals(new boolean[]{false, false}, GetafixStrategy.stragglers(new double[]{1.0, 0.01}), "too few to tell");
  }
}
