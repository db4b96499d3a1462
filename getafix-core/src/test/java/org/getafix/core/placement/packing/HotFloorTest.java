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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HotFloorTest
{
  private static final long GB = 1L << 30;
  private static final List<NodeCapacity> THREE_EQUAL_NODES =
      List.of(new NodeCapacity("HN1", 1, GB), new NodeCapacity("HN2", 1, GB), new NodeCapacity("HN3", 1, GB));

  /**
   * Getafix-B's plan of loads 3, 3, 2, 2, 1, 1 on 3 equal nodes (bins of 4): every segment fits a bin whole, so the
   * fit makes one holder each.
   */
  private static PlacementPlan planB(double hotLoadShare, int maxReplicas)
  {
    return planB(
        List.of(
            new SegmentLoad("a", 3, 1),
            new SegmentLoad("b", 3, 1),
            new SegmentLoad("c", 2, 1),
            new SegmentLoad("d", 2, 1),
            new SegmentLoad("e", 1, 1),
            new SegmentLoad("f", 1, 1)
        ),
        new PlacementConstraints(1, maxReplicas, 0.0, hotLoadShare)
    );
  }

  private static PlacementPlan planB(List<SegmentLoad> segments, PlacementConstraints constraints)
  {
    return PlacementStrategies.create("getafix-b").plan(new PlacementInput(segments, THREE_EQUAL_NODES, constraints));
  }

  @Test
  void withoutAHotFloorEverySegmentThatFitsABinHasOneHolder()
  {
    final PlacementPlan plan = planB(0.0, 3);
    for (String s : List.of("a", "b", "c", "d", "e", "f")) {
      assertEquals(1, plan.holders(s).size(), s);
    }
  }

  @Test
  void theSegmentsDrawingTheHotShareGetASecondHolderThatCarriesNoPlannedLoad()
  {
    // Half of the load (6 of 12) is drawn by a and b.
    final PlacementPlan plan = planB(0.5, 3);
    for (String s : List.of("a", "b")) {
      assertEquals(2, plan.holders(s).size(), s);
      assertEquals(1.0, plan.sharesOf(s).values().stream().mapToDouble(Double::doubleValue).max().orElseThrow(), 1e-9);
    }
    for (String s : List.of("c", "d", "e", "f")) {
      assertEquals(1, plan.holders(s).size(), s);
    }
  }

  @Test
  void segmentsTooColdToMakeTheirHolderAHotspotKeepOneHolderWhateverTheShare()
  {
    // Total load 8 on 3 nodes: a mean node's load is 8 / 3. Each warm segment draws 1 (37% of it), each cold one
    // 0.05 (under 2%).
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      segments.add(new SegmentLoad("warm" + i, 1, 1));
    }
    for (int i = 0; i < 40; i++) {
      segments.add(new SegmentLoad("cold" + i, 0.05, 1));
    }
    final PlacementPlan withoutFloor = planB(segments, new PlacementConstraints(1, 3, 0.0, 0.0));
    final PlacementPlan plan = planB(segments, new PlacementConstraints(1, 3, 0.0, 1.0, 0.05));
    final PlacementPlan everyHotSegment = planB(segments, new PlacementConstraints(1, 3, 0.0, 1.0, 0.0));
    for (int i = 0; i < 6; i++) {
      assertEquals(2, plan.holders("warm" + i).size(), "warm" + i);
    }
    int coldSingles = 0;
    for (int i = 0; i < 40; i++) {
      // The fit may split a cold segment to fill a bin's rest; the floor adds no holder to any cold one.
      assertEquals(withoutFloor.holders("cold" + i).size(), plan.holders("cold" + i).size(), "cold" + i);
      coldSingles += plan.holders("cold" + i).size() == 1 ? 1 : 0;
    }
    assertTrue(coldSingles >= 35, "cold segments with one holder: " + coldSingles);
    // With no minimum every segment of the share is hot, and cold ones get second holders too.
    int coldDoubles = 0;
    for (int i = 0; i < 40; i++) {
      coldDoubles += everyHotSegment.holders("cold" + i).size() >= 2 ? 1 : 0;
    }
    assertTrue(coldDoubles >= 35, "cold segments with two holders: " + coldDoubles);
  }

  @Test
  void theHotFloorRespectsTheReplicaCap()
  {
    final PlacementPlan plan = planB(1.0, 1);
    for (String s : List.of("a", "b", "c", "d", "e", "f")) {
      assertEquals(1, plan.holders(s).size(), s);
    }
  }

  @Test
  void aShareOutsideZeroToOneIsRejected()
  {
    assertThrows(
        IllegalArgumentException.class,
        () -> new PlacementConstraints(1, 3, 0.2, 1.5)
    );
    assertThrows(
        IllegalArgumentException.class,
        () -> new PlacementConstraints(1, 3, 0.2, 0.9, Double.NaN)
    );
    assertThrows(
        IllegalArgumentException.class,
        () -> new PlacementConstraints(1, 3, 0.2, 0.9, -0.1)
    );
  }
}
