package org.getafix.core.placement;

import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DeterminismTest
{
  private static PlacementInput randomInput(long seed)
  {
    final Random random = new Random(seed);
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int s = 0; s < 300; s++) {
      // Many exact ties (integer loads, zeros) so that tie-breaking matters.
      segments.add(new SegmentLoad("ds_2024-01-" + s, random.nextInt(6), 1 + random.nextInt(3)));
    }
    final List<NodeCapacity> nodes = new ArrayList<>();
    for (int n = 0; n < 12; n++) {
      nodes.add(new NodeCapacity("host-" + n + ":8083", 1 + random.nextInt(3), 200));
    }
    return new PlacementInput(segments, nodes, new PlacementConstraints(2, 5, 0.2));
  }

  @Test
  void sameInputGivesTheSamePlan()
  {
    for (String name : PlacementStrategies.REGISTRY.names()) {
      final PlacementPlan first = PlacementStrategies.create(name).plan(randomInput(7));
      final PlacementPlan second = PlacementStrategies.create(name).plan(randomInput(7));
      assertEquals(first, second, name);
      // Same iteration order too: a serialized plan is byte-identical.
      assertEquals(first.shares().toString(), second.shares().toString(), name);
      assertEquals(first.unplaced(), second.unplaced(), name);
    }
  }

  @Test
  void inputOrderDoesNotMatter()
  {
    final PlacementInput input = randomInput(11);
    final List<SegmentLoad> segments = new ArrayList<>(input.segments());
    final List<NodeCapacity> nodes = new ArrayList<>(input.nodes());
    Collections.shuffle(segments, new Random(1));
    Collections.shuffle(nodes, new Random(2));
    final PlacementInput shuffled = new PlacementInput(segments, nodes, input.constraints());
    for (String name : PlacementStrategies.REGISTRY.names()) {
      final PlacementPlan a = PlacementStrategies.create(name).plan(input);
      final PlacementPlan b = PlacementStrategies.create(name).plan(shuffled);
      assertEquals(a.shares(), b.shares(), name);
      for (Map.Entry<String, Map<String, Double>> e : a.shares().entrySet()) {
        assertEquals(
            e.getValue().keySet().toString(),
            b.shares().get(e.getKey()).keySet().toString(),
            "node order within a segment is by id"
        );
      }
    }
  }
}
