package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The segment balancer (thesis §3.2). */
class SegmentBalancerTest
{
  /**
   * Two hot segments each fill a node's bin; 60 light ones fill the other two nodes: segment counts 1, 1, 30, 30.
   */
  private static PlacementInput skewed(double gamma, double... capacities)
  {
    final List<SegmentLoad> segments = new ArrayList<>();
    double total = 0;
    for (int i = 0; i < 60; i++) {
      segments.add(new SegmentLoad("light-" + i, 1, 1));
      total += 1;
    }
    final List<NodeCapacity> nodes = new ArrayList<>();
    double capacityTotal = 0;
    for (double c : capacities) {
      capacityTotal += c;
    }
    // Hot segments sized to fill the first two nodes' bins exactly.
    final double hotShare = (capacities[0] + capacities[1]) / capacityTotal;
    final double hotTotal = total * hotShare / (1 - hotShare);
    segments.add(new SegmentLoad("hot-a", hotTotal * capacities[0] / (capacities[0] + capacities[1]), 1));
    segments.add(new SegmentLoad("hot-b", hotTotal * capacities[1] / (capacities[0] + capacities[1]), 1));
    for (int i = 0; i < capacities.length; i++) {
      nodes.add(new NodeCapacity("n" + i, capacities[i], 1000));
    }
    return new PlacementInput(segments, nodes, new PlacementConstraints(1, 4, gamma));
  }

  @Test
  void balancerReducesTheMaxSegmentCountWithinGamma()
  {
    final PlacementInput input = skewed(0.2, 1, 1, 1, 1);
    final PlacementPlan unbalanced = PlacementStrategies.create("auto-tiering-only").plan(input);
    final PlacementPlan balanced = PlacementStrategies.create("getafix-h").plan(input);
    assertEquals(30, ConstraintsTest.max(unbalanced.segmentCounts()), unbalanced.segmentCounts().toString());
    assertTrue(
        ConstraintsTest.max(balanced.segmentCounts()) < 30,
        "balanced counts " + balanced.segmentCounts()
    );
    assertEquals(unbalanced.totalReplicas(), balanced.totalReplicas(), "the balancer moves, it does not copy");
    final double imbalance = imbalance(balanced, input);
    assertTrue(imbalance <= 0.2 + 1e-9, "imbalance " + imbalance);
    assertTrue(imbalance > 0.1, "it should use the slack γ allows, got " + imbalance);
    // The least popular replicas moved; the hot ones stay where the fit put them.
    assertEquals(unbalanced.sharesOf("hot-a"), balanced.sharesOf("hot-a"));
    assertEquals(unbalanced.sharesOf("hot-b"), balanced.sharesOf("hot-b"));
  }

  @Test
  void largerGammaBalancesMore()
  {
    final PlacementStrategy getafixH = PlacementStrategies.create("getafix-h");
    final int at20 = ConstraintsTest.max(getafixH.plan(skewed(0.2, 1, 1, 1, 1)).segmentCounts());
    final PlacementInput loose = skewed(1.0, 1, 1, 1, 1);
    final PlacementPlan plan = PlacementStrategies.create("getafix-h").plan(loose);
    final int at100 = ConstraintsTest.max(plan.segmentCounts());
    assertTrue(at100 < at20, at100 + " vs " + at20);
    // 62 replicas over 4 nodes: nobody above the rounded-up average of 16.
    assertTrue(at100 <= 16, plan.segmentCounts().toString());
  }

  @Test
  void gammaZeroChangesNothing()
  {
    final PlacementInput input = skewed(0.0, 1, 1, 1, 1);
    assertEquals(
        PlacementStrategies.create("auto-tiering-only").plan(input),
        PlacementStrategies.create("getafix-h").plan(input)
    );
  }

  @Test
  void heterogeneousNodesAreComparedByLoadOverCapacity()
  {
    // Strong nodes 4×, the fit gives them 4× the load: absolute imbalance is 75% before any move, relative is 0.
    final PlacementInput input = skewed(0.2, 4, 4, 1, 1);
    final PlacementPlan unbalanced = PlacementStrategies.create("auto-tiering-only").plan(input);
    final PlacementPlan balanced = PlacementStrategies.create("getafix-h").plan(input);
    assertTrue(imbalance(unbalanced, input) < 1e-9);
    assertTrue(
        ConstraintsTest.max(balanced.segmentCounts()) < ConstraintsTest.max(unbalanced.segmentCounts()),
        balanced.segmentCounts() + " vs " + unbalanced.segmentCounts()
    );
    assertTrue(imbalance(balanced, input) <= 0.2 + 1e-9, "imbalance " + imbalance(balanced, input));
  }

  @Test
  void balancerRespectsMemory()
  {
    // The light nodes may not take anything more than they hold: nothing can move, and nothing breaks.
    final List<SegmentLoad> segments = new ArrayList<>(skewed(1.0, 1, 1, 1, 1).segments());
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("n0", 1, 1), new NodeCapacity("n1", 1, 1),
        new NodeCapacity("n2", 1, 1000), new NodeCapacity("n3", 1, 1000)
    );
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(1, 4, 1.0));
    final PlacementPlan plan = PlacementStrategies.create("getafix-h").plan(input);
    ConstraintsTest.assertMemoryRespected(input, plan, "getafix-h");
    assertEquals(1, plan.segmentCounts().get("n0"));
    assertEquals(1, plan.segmentCounts().get("n1"));
  }

  /**
   * Among replicas whose popularity ties, the balancer gives up the lowest segment ids first, whatever order it
   * walks the segments in. The odd light segments carry 64 ulps more load than the even ones: enough for the planner
   * to number them first (by decreasing load, at 61 segments), too little for the balancer, which ranks the 60
   * replicas of the over-full node to fewer bits, to tell them apart.
   */
  @Test
  void equallyPopularReplicasMoveInIdOrder()
  {
    final List<SegmentLoad> segments = new ArrayList<>();
    double lightTotal = 0;
    for (int i = 0; i < 60; i++) {
      final double load = 1.0 + (i % 2) * 64 * Math.ulp(1.0);
      segments.add(new SegmentLoad(String.format("light-%02d", i), load, 1));
      lightTotal += load;
    }
    // Fills one node's bin: the fit puts all light segments on the other node.
    segments.add(new SegmentLoad("hot", lightTotal, 1));
    final List<NodeCapacity> nodes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      nodes.add(new NodeCapacity("n" + i, 1, 1000));
    }
    final PlacementInput input = new PlacementInput(segments, nodes, new PlacementConstraints(1, 4, 1.0));
    final PlacementPlan unbalanced = PlacementStrategies.create("auto-tiering-only").plan(input);
    final PlacementPlan balanced = PlacementStrategies.create("getafix-h").plan(input);
    // The planner's id order: by String hash, then by id.
    final Comparator<String> idOrder =
        Comparator.comparingInt(String::hashCode).thenComparing(Comparator.naturalOrder());
    int movedTotal = 0;
    for (NodeCapacity node : nodes) {
      final List<String> before = segmentsOn(unbalanced, node.nodeId());
      final List<String> after = segmentsOn(balanced, node.nodeId());
      final List<String> moved = new ArrayList<>(before);
      moved.removeAll(after);
      before.sort(idOrder);
      assertEquals(before.subList(0, moved.size()), moved.stream().sorted(idOrder).toList(), node.nodeId());
      movedTotal += moved.size();
    }
    assertTrue(movedTotal > 0, "the balancer should move replicas: " + unbalanced.segmentCounts());
  }

  private static List<String> segmentsOn(PlacementPlan plan, String nodeId)
  {
    final List<String> held = new ArrayList<>();
    for (Map.Entry<String, Map<String, Double>> row : plan.shares().entrySet()) {
      if (row.getValue().containsKey(nodeId)) {
        held.add(row.getKey());
      }
    }
    return held;
  }

  /** 1 − min/max of load/capacity over the nodes. */
  static double imbalance(PlacementPlan plan, PlacementInput input)
  {
    final Map<String, Double> loads = plan.nodeLoads(input.segments());
    double min = Double.POSITIVE_INFINITY;
    double max = 0;
    for (NodeCapacity node : input.nodes()) {
      final double relative = loads.getOrDefault(node.nodeId(), 0.0) / node.capacity();
      min = Math.min(min, relative);
      max = Math.max(max, relative);
    }
    return 1 - min / max;
  }
}
