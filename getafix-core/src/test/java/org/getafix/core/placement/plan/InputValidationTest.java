package org.getafix.core.placement.plan;

import org.getafix.core.placement.packing.DruidDefaultStrategy;
import org.getafix.core.placement.packing.PlacementStrategy;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every bad input gets an IllegalArgumentException whose message names the value. */
class InputValidationTest
{
  private static void assertRejected(Executable executable, String... mentioned)
  {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, executable);
    for (String m : mentioned) {
      assertTrue(e.getMessage().contains(m), "message [" + e.getMessage() + "] should mention [" + m + "]");
    }
  }

  @Test
  void segmentValues()
  {
    assertRejected(() -> new SegmentLoad("seg-1", Double.NaN, 1), "seg-1", "NaN");
    assertRejected(() -> new SegmentLoad("seg-2", -3, 1), "seg-2", "-3.0");
    assertRejected(() -> new SegmentLoad("seg-3", Double.POSITIVE_INFINITY, 1), "seg-3", "Infinity");
    assertRejected(() -> new SegmentLoad("seg-4", 1, -5), "seg-4", "-5");
    assertRejected(() -> new SegmentLoad("", 1, 1), "segmentId");
    assertRejected(() -> new SegmentLoad("  ", 1, 1), "segmentId");
    assertRejected(() -> new SegmentLoad(null, 1, 1), "segmentId", "null");
  }

  @Test
  void nodeValues()
  {
    assertRejected(() -> new NodeCapacity("node-1", Double.NaN, 1), "node-1", "NaN");
    assertRejected(() -> new NodeCapacity("node-2", -1, 1), "node-2", "-1.0");
    assertRejected(() -> new NodeCapacity("node-3", 1, -1), "node-3", "maxSizeBytes");
    assertRejected(() -> new NodeCapacity("", 1, 1), "nodeId");
  }

  @Test
  void constraintValues()
  {
    assertRejected(() -> new PlacementConstraints(0, 3, 0.2), "minReplicas", "0");
    assertRejected(() -> new PlacementConstraints(2, 1, 0.2), "maxReplicas", "1");
    assertRejected(() -> new PlacementConstraints(1, 3, Double.NaN), "gamma", "NaN");
    assertRejected(() -> new PlacementConstraints(1, 3, -0.1), "gamma", "-0.1");
    assertRejected(() -> new PlacementConstraints(1, 3, 1.5), "gamma", "1.5");
  }

  @Test
  void duplicateAndNullEntries()
  {
    final List<NodeCapacity> nodes = List.of(new NodeCapacity("n", 1, 10));
    assertRejected(
        () -> new PlacementInput(
            List.of(new SegmentLoad("dup", 1, 1), new SegmentLoad("dup", 2, 1)), nodes, PlacementConstraints.DEFAULT
        ),
        "duplicate segment id", "dup"
    );
    assertRejected(
        () -> new PlacementInput(
            List.of(), List.of(new NodeCapacity("twin", 1, 1), new NodeCapacity("twin", 2, 1)),
            PlacementConstraints.DEFAULT
        ),
        "duplicate node id", "twin"
    );
    assertRejected(
        () -> new PlacementInput(Arrays.asList(new SegmentLoad("a", 1, 1), null), nodes, PlacementConstraints.DEFAULT),
        "segments[1]"
    );
    assertRejected(() -> new PlacementInput(List.of(), nodes, null), "constraints");
    assertRejected(() -> new PlacementInput(null, nodes, PlacementConstraints.DEFAULT), "segments");
  }

  @Test
  void unknownIdsInCurrentHoldersAreIgnored()
  {
    final List<SegmentLoad> segments = List.of(new SegmentLoad("a", 3, 1), new SegmentLoad("b", 0, 1));
    final List<NodeCapacity> nodes = List.of(new NodeCapacity("n1", 1, 10), new NodeCapacity("n2", 1, 10));
    final PlacementInput plain = new PlacementInput(segments, nodes, PlacementConstraints.DEFAULT);
    final PlacementInput withUnknown = new PlacementInput(
        segments, nodes, PlacementConstraints.DEFAULT,
        Map.of("ghost-segment", Set.of("n1"), "b", Set.of("ghost-node"))
    );
    for (String name : PlacementStrategies.REGISTRY.names()) {
      final PlacementStrategy strategy = PlacementStrategies.create(name);
      assertEquals(strategy.plan(plain), strategy.plan(withUnknown), name);
    }
  }

  @Test
  void unknownStrategyAndBadReplicationFactor()
  {
    assertRejected(() -> PlacementStrategies.REGISTRY.get("getafix-x"), "getafix-x", "getafix-h");
    assertRejected(() -> new DruidDefaultStrategy(0), "replicationFactor", "0");
  }

  @Test
  void currentHoldersKeepColdSegmentsInPlace()
  {
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      segments.add(new SegmentLoad("cold-" + i, 0, 1));
    }
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("n1", 1, 10), new NodeCapacity("n2", 1, 10), new NodeCapacity("n3", 1, 10)
    );
    // A placement the planner would not pick by itself (it would start cold-0 on n1), but an even one.
    final Map<String, Set<String>> holders = Map.of(
        "cold-0", Set.of("n3"), "cold-1", Set.of("n3"), "cold-2", Set.of("n2"),
        "cold-3", Set.of("n2"), "cold-4", Set.of("n1"), "cold-5", Set.of("n1")
    );
    final PlacementInput input = new PlacementInput(segments, nodes, PlacementConstraints.DEFAULT, holders);
    for (PlacementStrategy strategy : List.of(PlacementStrategies.create("getafix-h"), new DruidDefaultStrategy(1))) {
      final PlacementPlan plan = strategy.plan(input);
      holders.forEach((segment, nodeSet) -> assertEquals(nodeSet, plan.holders(segment), strategy.toString()));
    }
  }
}
