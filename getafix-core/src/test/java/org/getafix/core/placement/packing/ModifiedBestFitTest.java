package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The thesis' worked example and the shape of capacity-aware plans. */
class ModifiedBestFitTest
{
  private static final long GB = 1L << 30;

  /** §2.2: access counts {6, 3, 2, 1} on 3 equal nodes (capacity 4 each). */
  private static PlacementInput thesisExample()
  {
    return new PlacementInput(
        List.of(
            new SegmentLoad("S1", 6, 1),
            new SegmentLoad("S2", 3, 1),
            new SegmentLoad("S3", 2, 1),
            new SegmentLoad("S4", 1, 1)
        ),
        List.of(new NodeCapacity("HN1", 1, GB), new NodeCapacity("HN2", 1, GB), new NodeCapacity("HN3", 1, GB)),
        new PlacementConstraints(1, 3, 0.0)
    );
  }

  /** The thesis' split, with equal and with capacity weights (equal here): Algorithms 2.1 and 3.1 as written. */
  private static final List<PlacementStrategy> THESIS_SPLIT = List.of(
      PlacementStrategies.create("getafix-b-thesis-split"),
      PlacementStrategies.create("getafix-h-thesis-split")
  );

  @Test
  void thesisExampleNeedsFiveReplicasNotSeven()
  {
    for (PlacementStrategy strategy : THESIS_SPLIT) {
      final PlacementPlan plan = strategy.plan(thesisExample());
      assertEquals(5, plan.totalReplicas(), strategy.toString());
      assertTrue(plan.unplaced().isEmpty(), strategy.toString());
      // The allocation of Fig 2.2: HN1 = {S1:4}, HN2 = {S2:3, S4:1}, HN3 = {S1:2, S3:2}.
      assertEquals(Map.of("HN1", 4.0), plan.nodeLoads(thesisExample().segments()).entrySet().stream()
          .filter(e -> e.getKey().equals("HN1")).collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
      assertEquals(
          Map.of("HN1", 4.0, "HN2", 4.0, "HN3", 4.0),
          rounded(plan.nodeLoads(thesisExample().segments()))
      );
    }
  }

  @Test
  void thesisExampleRoutingProportionsAreTable31()
  {
    final PlacementPlan plan = PlacementStrategies.create("getafix-b-thesis-split").plan(thesisExample());
    assertEquals(2.0 / 3, plan.sharesOf("S1").get("HN1"), 1e-9);
    assertEquals(1.0 / 3, plan.sharesOf("S1").get("HN3"), 1e-9);
    assertEquals(Map.of("HN2", 1.0), plan.sharesOf("S2"));
    assertEquals(Map.of("HN3", 1.0), plan.sharesOf("S3"));
    assertEquals(Map.of("HN2", 1.0), plan.sharesOf("S4"));
  }

  @Test
  void capacityAwarePutsMostOfThePopularSegmentOnTheStrongestNode()
  {
    final List<SegmentLoad> segments = List.of(
        new SegmentLoad("hot", 60, 1),
        new SegmentLoad("warm", 20, 1),
        new SegmentLoad("cool", 12, 1),
        new SegmentLoad("cold", 8, 1)
    );
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("big", 16, GB),
        new NodeCapacity("mid", 8, GB),
        new NodeCapacity("small", 4, GB)
    );
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(1, 3, 0.2));
    final Map<String, Double> hot = PlacementStrategies.create("getafix-h").plan(input).sharesOf("hot");
    assertTrue(hot.get("big") > 0.5, "hot shares " + hot);
    for (Map.Entry<String, Double> e : hot.entrySet()) {
      assertTrue(hot.get("big") >= e.getValue(), "hot shares " + hot);
    }
    // Node loads follow capacity 16:8:4 of the total 100.
    final Map<String, Double> loads = PlacementStrategies.create("getafix-h").plan(input).nodeLoads(segments);
    assertEquals(100 * 16 / 28.0, loads.get("big"), 1e-6);
    assertEquals(100 * 8 / 28.0, loads.get("mid"), 1e-6);
    assertEquals(100 * 4 / 28.0, loads.get("small"), 1e-6);
    // Getafix-B ignores capacity: equal load per node.
    final Map<String, Double> uniform = PlacementStrategies.create("getafix-b").plan(input).nodeLoads(segments);
    assertEquals(100 / 3.0, uniform.get("big"), 1e-6);
    assertEquals(100 / 3.0, uniform.get("small"), 1e-6);
  }

  /**
   * The even split on the §2.2 example: S1 (6) is larger than a bin (4), so it gets two equal halves; S3 then finds
   * no bin with room for it whole and, being smaller than a bin, takes the thesis' split. One replica more than the
   * thesis' five, and every share is what an even-routing Broker sends.
   */
  @Test
  void evenSplitOfTheThesisExample()
  {
    final PlacementPlan plan = PlacementStrategies.create("getafix-b").plan(thesisExample());
    assertEquals(6, plan.totalReplicas());
    assertEquals(List.of(0.5, 0.5), List.copyOf(plan.sharesOf("S1").values()));
    assertEquals(
        Map.of("HN1", 4.0, "HN2", 4.0, "HN3", 4.0),
        rounded(plan.nodeLoads(thesisExample().segments()))
    );
  }

  /**
   * Two 16-core nodes, an 8-core and a 4-core one, and a segment with half the load: more than the largest bin
   * (16/44 of the load). The thesis' split fills one big bin and leaves the rest, a quarter of the segment, to
   * another node, which an even-routing Broker then sends half the segment; the even split gives the two big nodes
   * half each.
   */
  @Test
  void evenSplitGivesAHotSegmentEqualSharesOnTheStrongNodes()
  {
    final List<SegmentLoad> segments = List.of(
        new SegmentLoad("hot", 50, 1),
        new SegmentLoad("warm", 20, 1),
        new SegmentLoad("a", 12, 1),
        new SegmentLoad("b", 10, 1),
        new SegmentLoad("c", 8, 1)
    );
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("big1", 16, GB),
        new NodeCapacity("big2", 16, GB),
        new NodeCapacity("mid", 8, GB),
        new NodeCapacity("small", 4, GB)
    );
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(1, 4, 0.0));
    final PlacementPlan even = PlacementStrategies.create("auto-tiering-only").plan(input);
    assertEquals(Map.of("big1", 0.5, "big2", 0.5), even.sharesOf("hot"));
    final Map<String, Double> thesis = PlacementStrategies.create("getafix-h-thesis-split").plan(input).sharesOf("hot");
    assertEquals(2, thesis.size(), thesis.toString());
    assertTrue(thesis.values().stream().anyMatch(share -> share < 0.3), thesis.toString());
  }

  @Test
  void sharesOfEverySegmentSumToOne()
  {
    final PlacementPlan plan = PlacementStrategies.create("getafix-h").plan(thesisExample());
    for (Map<String, Double> shares : plan.shares().values()) {
      assertEquals(1.0, shares.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    }
  }

  private static Map<String, Double> rounded(Map<String, Double> m)
  {
    final Map<String, Double> r = new java.util.TreeMap<>();
    m.forEach((k, v) -> r.put(k, Math.round(v * 1e6) / 1e6));
    return r;
  }
}
