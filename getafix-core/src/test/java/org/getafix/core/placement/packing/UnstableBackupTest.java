package org.getafix.core.placement.packing;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnstableBackupTest
{
  private static final long GB = 1L << 30;
  private static final long MB = 1L << 20;

  /** The three nodes of {@link StragglerCoverTest}, the strongest of them unstable or not, on the same segments. */
  private static PlacementPlan plan(String strategy, boolean firstUnstable, boolean backUp, long memory)
  {
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("a-strong", 1.0, memory, firstUnstable),
        new NodeCapacity("b-middle", 0.5, memory),
        new NodeCapacity("c-weak", 0.25, memory)
    );
    final PlacementConstraints constraints = new PlacementConstraints(1, 3, 0.2, 0.9, 0.08, backUp, PlacementKnobs.MIN_PLAN_GAIN.defaultValue(),
        PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.defaultValue());
    return PlacementStrategies.create(strategy)
                              .plan(new PlacementInput(StragglerCoverTest.segments(), nodes, constraints));
  }

  @Test
  void anUnstableNodeHoldsNoSegmentAloneAndKeepsItsLoad()
  {
    final PlacementPlan stable = plan("getafix-h", false, true, GB);
    final PlacementPlan unstable = plan("getafix-h", true, true, GB);
    final int aloneWhenStable = StragglerCoverTest.heldAlone(stable, "a-strong");
    assertTrue(aloneWhenStable > 5, "a stable node holds its share alone: " + aloneWhenStable);
    assertEquals(0, StragglerCoverTest.heldAlone(unstable, "a-strong"));
    // The backups add replicas, each of one segment the node held alone, and move no load.
    assertEquals(
        stable.totalReplicas() + StragglerCoverTest.heldAlone(stable, "a-strong"),
        unstable.totalReplicas(),
        "one backup per segment held alone"
    );
    for (SegmentLoad segment : StragglerCoverTest.segments()) {
      final Map<String, Double> before = stable.shares().get(segment.segmentId());
      final Map<String, Double> after = unstable.shares().get(segment.segmentId());
      before.forEach((node, share) -> assertEquals(share, after.get(node), 1e-9, segment.segmentId() + " on " + node));
      after.forEach((node, share) -> assertTrue(before.containsKey(node) || share == 0, "a backup carries no load"));
    }
  }

  @Test
  void backupsOnlyWithTheConstraintAndOnlyForTheCapacityAwareStrategies()
  {
    assertEquals(
        StragglerCoverTest.heldAlone(plan("getafix-h", false, true, GB), "a-strong"),
        StragglerCoverTest.heldAlone(plan("getafix-h", true, false, GB), "a-strong"),
        "backUpUnstable false: the unstable node is planned as a stable one"
    );
    assertEquals(
        StragglerCoverTest.heldAlone(plan("getafix-b", false, true, GB), "a-strong"),
        StragglerCoverTest.heldAlone(plan("getafix-b", true, true, GB), "a-strong"),
        "Getafix-B, which weighs no capacity, is the thesis' algorithm"
    );
  }

  @Test
  void aBackupOnlyTakesMemoryThePlanLeftFree()
  {
    // 66 segments of 1 MB on three nodes of 25 MB each: room for 9 replicas beyond one of each.
    final PlacementPlan plan = plan("getafix-h", true, true, 25 * MB);
    assertTrue(plan.unplaced().isEmpty(), plan.unplaced().toString());
    assertTrue(
        StragglerCoverTest.heldAlone(plan, "a-strong") > 0,
        "what nothing else has room for stays alone on the unstable node"
    );
    for (SegmentLoad segment : StragglerCoverTest.segments()) {
      assertFalse(plan.holders(segment.segmentId()).isEmpty(), segment.segmentId());
    }
  }

  /** The pass itself: a stable node that holds the segment now is taken first; a straggler never is. */
  @Test
  void aBackupGoesToACurrentStableHolderAndNeverToAStraggler()
  {
    final PlacementInput input = new PlacementInput(
        List.of(new SegmentLoad("x", 0.5, 1), new SegmentLoad("y", 0.5, 1), new SegmentLoad("z", 0.5, 1)),
        List.of(
            new NodeCapacity("a-unstable", 1.0, GB, true),
            new NodeCapacity("b-busy", 1.0, GB),
            new NodeCapacity("c-idle", 1.0, GB),
            new NodeCapacity("d-slow", 0.05, GB)
        ),
        new PlacementConstraints(1, 3, 0.2, 0.9),
        Map.of("y", Set.of("a-unstable", "b-busy"))
    );
    final PlacementProblem problem = new PlacementProblem(input);
    final Assignment assignment = new Assignment(problem);
    final List<String> ids = List.of(problem.segmentIds);
    assignment.addReplica(ids.indexOf("x"), 0, 0.5);
    assignment.addReplica(ids.indexOf("y"), 0, 0.5);
    assignment.addReplica(ids.indexOf("z"), 1, 0.5);
    GetafixStrategy.backUpUnstable(problem, assignment, new double[]{1.0, 1.0, 1.0, 0.05});
    final PlacementPlan plan = assignment.toPlan();
    assertEquals(Set.of("a-unstable", "c-idle"), plan.holders("x"), "to the stable node with the fewest segments");
    assertEquals(Set.of("a-unstable", "b-busy"), plan.holders("y"), "to the stable node that holds it now");
    assertEquals(Set.of("b-busy"), plan.holders("z"));
    assertEquals(0.0, plan.shares().get("x").get("c-idle"), 0.0);
  }

  @Test
  void noBackupBeyondMaxReplicas()
  {
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("a-strong", 1.0, GB, true),
        new NodeCapacity("b-middle", 0.5, GB),
        new NodeCapacity("c-weak", 0.25, GB)
    );
    final PlacementPlan plan = PlacementStrategies.create("getafix-h").plan(
        new PlacementInput(
            StragglerCoverTest.segments(),
            nodes,
            new PlacementConstraints(1, 1, 0.2, 0.9, 0.08, true, PlacementKnobs.MIN_PLAN_GAIN.defaultValue(),
                                     PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.defaultValue())
        )
    );
    assertEquals(StragglerCoverTest.segments().size(), plan.totalReplicas());
  }
}
