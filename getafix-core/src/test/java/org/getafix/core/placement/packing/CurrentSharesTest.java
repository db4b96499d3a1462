package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With a floor of two or more replicas, a segment's holders are the node that carries its load and floor replicas
 * that carry none; given the current shares, the sticky fit keeps the load where it is, so a plan replayed with its
 * own holders and shares comes out the same.
 */
class CurrentSharesTest
{
  private static final long MB = 1L << 20;

  private static List<NodeCapacity> nodes()
  {
    final List<NodeCapacity> nodes = new ArrayList<>();
    final int[] cores = {16, 16, 16, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4};
    for (int n = 0; n < cores.length; n++) {
      nodes.add(new NodeCapacity("hn-" + (n < 10 ? "0" : "") + n, cores[n], cores[n] * 7_000 * MB));
    }
    return nodes;
  }

  private static List<SegmentLoad> segments()
  {
    final Random random = new Random(1);
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int age = 0; age < 500; age++) {
      final double load = 1000 / Math.pow(age + 1, 1.4) * (0.8 + 0.4 * random.nextDouble());
      segments.add(new SegmentLoad("seg-" + age, load, (long) (250 * MB * (0.8 + 0.4 * random.nextDouble()))));
    }
    return segments;
  }

  private static PlacementInput replay(PlacementInput input, PlacementPlan plan, boolean withShares)
  {
    final Map<String, Set<String>> holders = new HashMap<>();
    plan.shares().forEach((segment, shares) -> holders.put(segment, shares.keySet()));
    return new PlacementInput(
        input.segments(),
        input.nodes(),
        input.constraints(),
        holders,
        withShares ? plan.shares() : Map.of()
    );
  }

  /** Load moved between nodes from {@code before} to {@code after}: half the sum of the share changes × load. */
  private static double loadShifted(List<SegmentLoad> segments, PlacementPlan before, PlacementPlan after)
  {
    double shifted = 0;
    for (SegmentLoad s : segments) {
      final Map<String, Double> from = before.sharesOf(s.segmentId());
      final Map<String, Double> to = after.sharesOf(s.segmentId());
      for (String node : nodes().stream().map(NodeCapacity::nodeId).toList()) {
        shifted += Math.abs(from.getOrDefault(node, 0.0) - to.getOrDefault(node, 0.0)) * s.load() / 2;
      }
    }
    return shifted;
  }

  @Test
  void replayingAPlanWithItsSharesKeepsItWithTwoReplicas()
  {
    final List<SegmentLoad> segments = segments();
    final double total = segments.stream().mapToDouble(SegmentLoad::load).sum();
    for (String name : List.of("getafix-h", "getafix-b", "auto-tiering-only")) {
      final PlacementStrategy strategy = PlacementStrategies.create(name);
      final PlacementInput fresh = new PlacementInput(segments, nodes(), new PlacementConstraints(2, 15, 0.2));
      final PlacementPlan first = strategy.plan(fresh);
      final PlacementInput again = replay(fresh, first, true);
      final PlacementPlan second = strategy.plan(again);
      assertEquals(0, PlanStabilityTest.moves(again, second), name);
      assertTrue(loadShifted(segments, first, second) < 0.001 * total, name);
      final PlacementPlan third = strategy.plan(replay(again, second, true));
      assertEquals(second.shares(), third.shares(), name);

      // Without the shares the fit cannot tell a segment's load carrier from its floor replica, and moves load.
      final PlacementInput blind = replay(fresh, first, false);
      assertTrue(loadShifted(segments, first, strategy.plan(blind)) > 0.01 * total, name);
    }
  }

  @Test
  void sharesOfUnknownSegmentsAndNodesAreIgnored()
  {
    final List<SegmentLoad> segments = segments();
    final PlacementInput fresh = new PlacementInput(segments, nodes(), new PlacementConstraints(2, 15, 0.2));
    final PlacementPlan first = PlacementStrategies.create("getafix-h").plan(fresh);
    final PlacementInput again = replay(fresh, first, true);
    final Map<String, Map<String, Double>> noisy = new HashMap<>(first.shares());
    noisy.put("gone", Map.of("hn-00", 1.0));
    noisy.put("seg-0", Map.of("hn-00", 0.5, "no-such-node", 0.5));
    final PlacementInput withNoise = new PlacementInput(
        again.segments(),
        again.nodes(),
        again.constraints(),
        again.currentHolders(),
        noisy
    );
    final PlacementPlan plan = PlacementStrategies.create("getafix-h").plan(withNoise);
    assertTrue(plan.unplaced().isEmpty());
    assertEquals(segments.size(), plan.shares().size());
  }
}
