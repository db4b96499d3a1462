package org.getafix.core.placement.plan;

import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plan's maps behave as ordinary immutable maps, whichever way the plan was built. */
class PlacementPlanTest
{
  private static PlacementPlan planned()
  {
    return PlacementStrategies.create("getafix-b-thesis-split").plan(new PlacementInput(
        List.of(new SegmentLoad("S1", 6, 1), new SegmentLoad("S2", 3, 1), new SegmentLoad("S3", 2, 1),
                new SegmentLoad("S4", 1, 1)),
        List.of(new NodeCapacity("HN1", 1, 10), new NodeCapacity("HN2", 1, 10), new NodeCapacity("HN3", 1, 10)),
        new PlacementConstraints(1, 3, 0)
    ));
  }

  @Test
  void plannedAndCopiedPlansAreEqual()
  {
    final PlacementPlan plan = planned();
    final Map<String, Map<String, Double>> plain = new TreeMap<>();
    plan.shares().forEach((segment, shares) -> plain.put(segment, new TreeMap<>(shares)));
    final PlacementPlan copy = new PlacementPlan(plain, List.of());
    assertEquals(copy, plan);
    assertEquals(plan, copy);
    assertEquals(copy.hashCode(), plan.hashCode());
    assertEquals(plan.totalReplicas(), copy.totalReplicas());
    assertEquals(List.of("HN1", "HN3"), List.copyOf(plan.holders("S1")), "nodes in id order");
  }

  @Test
  void lookupsAndImmutability()
  {
    final PlacementPlan plan = planned();
    assertNull(plan.shares().get("nope"));
    assertNull(plan.shares().get(42));
    assertEquals(Map.of(), plan.sharesOf("nope"));
    assertTrue(plan.holders("nope").isEmpty());
    assertNull(plan.sharesOf("S1").get("HN2"));
    assertThrows(UnsupportedOperationException.class, () -> plan.shares().remove("S1"));
    assertThrows(UnsupportedOperationException.class, () -> plan.sharesOf("S1").put("HN2", 1.0));
    assertThrows(UnsupportedOperationException.class, () -> plan.unplaced().add(null));
    assertEquals(Map.of("HN1", 1, "HN2", 2, "HN3", 2), plan.segmentCounts());
  }
}
