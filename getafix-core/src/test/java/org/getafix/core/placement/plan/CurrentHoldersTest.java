package org.getafix.core.placement.plan;

import org.getafix.core.placement.packing.DruidDefaultStrategy;
import org.getafix.core.placement.packing.PlacementStrategy;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PlacementInput#currentHolders()} is kept in arrays resolved to indices for the planner; as a map it must
 * still hold exactly what it was given (unknown ids included, nulls dropped) and be immutable.
 */
class CurrentHoldersTest
{
  private static final List<SegmentLoad> SEGMENTS = List.of(
      new SegmentLoad("s1", 5, 1),
      new SegmentLoad("s2", 3, 1),
      new SegmentLoad("s3", 0, 1)
  );
  private static final List<NodeCapacity> NODES = List.of(
      new NodeCapacity("n2", 1, 10),
      new NodeCapacity("n1", 1, 10)
  );

  @Test
  void holdsWhatItWasGivenWithoutNulls()
  {
    final Map<String, Set<String>> given = new HashMap<>();
    given.put("s1", Set.of("n1", "n2"));
    given.put("s2", new HashSet<>(Arrays.asList("ghost-node", null, "n2")));
    given.put("ghost-segment", Set.of("n1"));
    given.put("s3", null);
    given.put(null, Set.of("n1"));
    final Map<String, Set<String>> holders =
        new PlacementInput(SEGMENTS, NODES, PlacementConstraints.DEFAULT, given).currentHolders();

    final Map<String, Set<String>> expected = Map.of(
        "s1", Set.of("n1", "n2"),
        "s2", Set.of("ghost-node", "n2"),
        "ghost-segment", Set.of("n1")
    );
    assertEquals(expected, holders);
    assertEquals(holders, expected);
    assertEquals(expected.hashCode(), holders.hashCode());
    assertEquals(3, holders.size());
    assertEquals(expected, new HashMap<>(holders), "iteration yields every entry once");
    assertEquals(Set.of("n1"), holders.get("ghost-segment"));
    assertTrue(holders.get("s2").contains("ghost-node"));
    assertFalse(holders.get("s2").contains(null));
    assertNull(holders.get("s3"));
    assertFalse(holders.containsKey("s3"));
    assertNull(holders.get(null));
    assertNull(holders.get(42));
  }

  @Test
  void isImmutableAndNotAViewOfTheGivenMap()
  {
    final Map<String, Set<String>> given = new HashMap<>();
    final Set<String> s1 = new HashSet<>(Set.of("n1"));
    given.put("s1", s1);
    final Map<String, Set<String>> holders =
        new PlacementInput(SEGMENTS, NODES, PlacementConstraints.DEFAULT, given).currentHolders();
    given.put("s2", Set.of("n2"));
    s1.add("n2");
    assertEquals(Map.of("s1", Set.of("n1")), holders);
    assertThrows(UnsupportedOperationException.class, () -> holders.put("s3", Set.of("n1")));
    assertThrows(UnsupportedOperationException.class, () -> holders.get("s1").add("n2"));
    assertThrows(UnsupportedOperationException.class, () -> holders.remove("s1"));
  }

  @Test
  void equalNodeIdsThatAreOtherInstancesGiveTheSamePlan()
  {
    // The planner recognises node ids by reference first; ids that are only equal must resolve the same way.
    final Map<String, Set<String>> same = Map.of("s1", Set.of("n1"), "s2", Set.of("n2"), "s3", Set.of("n1"));
    final Map<String, Set<String>> copies = new HashMap<>();
    same.forEach((segment, nodes) -> {
      final Set<String> copied = new HashSet<>();
      nodes.forEach(id -> copied.add(new String(id)));
      copies.put(new String(segment), copied);
    });
    final PlacementConstraints constraints = new PlacementConstraints(2, 2, 0.2);
    for (String name : PlacementStrategies.REGISTRY.names()) {
      final PlacementStrategy strategy = PlacementStrategies.create(name);
      final PlacementPlan plan = strategy.plan(new PlacementInput(SEGMENTS, NODES, constraints, same));
      assertEquals(plan, strategy.plan(new PlacementInput(SEGMENTS, NODES, constraints, copies)), name);
    }
  }

  @Test
  void aPlanFedItsOwnHoldersKeepsThem()
  {
    // Holders given as another input's view (the replay of the last round) are read like any map.
    final PlacementInput first = new PlacementInput(SEGMENTS, NODES, new PlacementConstraints(1, 2, 0.2));
    final PlacementPlan plan = new DruidDefaultStrategy(1).plan(first);
    final Map<String, Set<String>> holders = new HashMap<>();
    plan.shares().forEach((segment, shares) -> holders.put(segment, shares.keySet()));
    final PlacementInput again = new PlacementInput(SEGMENTS, NODES, first.constraints(), holders);
    final PlacementInput viaView = new PlacementInput(SEGMENTS, NODES, first.constraints(), again.currentHolders());
    assertEquals(again.currentHolders(), viaView.currentHolders());
    assertEquals(plan, new DruidDefaultStrategy(1).plan(viaView));
  }
}
