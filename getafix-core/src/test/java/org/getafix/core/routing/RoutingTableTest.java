package org.getafix.core.routing;

import org.getafix.core.placement.plan.PlacementPlan;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoutingTableTest
{
  @Test
  void buildsThesisTable31FromAPlan()
  {
    final Map<String, Map<String, Double>> shares = new LinkedHashMap<>();
    shares.put("S1", orderedShares("HN1", 4.0 / 6, "HN3", 2.0 / 6));
    shares.put("S2", Map.of("HN2", 1.0));
    shares.put("S3", Map.of("HN3", 1.0));
    shares.put("S4", Map.of("HN2", 1.0, "HN1", 0.0));
    final RoutingTable table = RoutingTable.fromPlan(7, 1234, new PlacementPlan(shares, List.of()));

    assertEquals(7, table.version());
    assertEquals(1234, table.generatedAtMillis());
    assertEquals(4, table.size());
    assertEquals(0.667, table.row("S1").share("HN1"), 0.001);
    assertEquals(0.333, table.row("S1").share("HN3"), 0.001);
    // A zero share is a held-but-unrouted replica: it is not part of the row.
    assertEquals(1, table.row("S4").size());
    assertEquals(0, table.row("S4").share("HN1"));
    assertEquals(0, table.droppedEntries());
  }

  @Test
  void drawSelectsEachNodeOverExactlyItsShareOfTheUnitInterval()
  {
    final RoutingTable table = RoutingTable.of(1, 0, Map.of("s", orderedShares("a", 1.0, "b", 3.0)));
    final RoutingTable.Row row = table.row("s");
    // Shares are normalised: a gets [0, 0.25), b gets [0.25, 1).
    assertEquals("a", row.node(row.draw(0.0)));
    assertEquals("a", row.node(row.draw(0.2499)));
    assertEquals("b", row.node(row.draw(0.25)));
    assertEquals("b", row.node(row.draw(0.9999999)));
    assertEquals(0.25, row.share(0), 1e-12);
    assertEquals(0.75, row.share(1), 1e-12);
  }

  @Test
  void garbageEntriesAreDroppedAndCountedWithoutFailing()
  {
    final Map<String, Map<String, Number>> shares = new HashMap<>();
    final Map<String, Number> mixed = new HashMap<>();
    mixed.put("good", 2.0);
    mixed.put("nan", Double.NaN);
    mixed.put("negative", -1.0);
    mixed.put("infinite", Double.POSITIVE_INFINITY);
    mixed.put("null", null);
    mixed.put("", 1.0);
    mixed.put(null, 1.0);
    shares.put("mixed", mixed);
    shares.put("allZero", Map.of("a", 0.0, "b", 0.0));
    shares.put("allGarbage", Map.of("a", Double.NaN, "b", -3));
    shares.put("", Map.of("a", 1.0));
    shares.put("nullRow", null);
    shares.put("overflow", Map.of("a", Double.MAX_VALUE, "b", Double.MAX_VALUE));

    final RoutingTable table = RoutingTable.of(3, 0, shares);

    final RoutingTable.Row row = table.row("mixed");
    assertNotNull(row);
    assertEquals(1, row.size());
    assertEquals("good", row.node(0));
    assertEquals(1.0, row.share("good"));
    assertNull(table.row("allZero"));
    assertNull(table.row("allGarbage"));
    assertNull(table.row("overflow"));
    assertNull(table.row(""));
    assertNull(table.row("nullRow"));
    assertNull(table.row(null));
    assertEquals(1, table.size());
    // 6 in "mixed", 2 in "allGarbage", the blank segment and the null row.
    assertEquals(10, table.droppedEntries());
  }

  @Test
  void nullSharesGiveAnEmptyTable()
  {
    final RoutingTable table = RoutingTable.of(1, 0, null);
    assertEquals(0, table.size());
    assertTrue(RoutingTable.empty().version() < 0);
  }

  private static Map<String, Double> orderedShares(String n1, double s1, String n2, double s2)
  {
    final Map<String, Double> m = new LinkedHashMap<>();
    m.put(n1, s1);
    m.put(n2, s2);
    return m;
  }
}
