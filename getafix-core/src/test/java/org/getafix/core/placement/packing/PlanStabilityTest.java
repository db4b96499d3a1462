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
 * Plans move little data from round to round (the sticky fit and balancer), without giving up what the fit is
 * for: capacity-proportional node loads, hot segments on strong nodes, stragglers relieved.
 */
class PlanStabilityTest
{
  private static final List<PlacementStrategy> GETAFIX = List.of(
      PlacementStrategies.create("getafix-h"),
      PlacementStrategies.create("getafix-b"),
      PlacementStrategies.create("auto-tiering-only")
  );
  private static final long MB = 1L << 20;

  /**
   * The thesis' Cluster-1 (3 × 16, 6 × 8, 6 × 4 cores) with 500 segments of skewed, recency-driven popularity
   * (P ∝ 1/(age+1)^1.4, as the simulator's workload) and room for about three copies of everything.
   */
  private static List<NodeCapacity> tieredNodes()
  {
    final List<NodeCapacity> nodes = new ArrayList<>();
    final int[] cores = {16, 16, 16, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4};
    for (int n = 0; n < cores.length; n++) {
      nodes.add(new NodeCapacity("hn-" + (n < 10 ? "0" : "") + n, cores[n], cores[n] * 7_000 * MB));
    }
    return nodes;
  }

  private static List<SegmentLoad> segments(int count, Random random)
  {
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int age = 0; age < count; age++) {
      final double load = 1000 / Math.pow(age + 1, 1.4) * (0.8 + 0.4 * random.nextDouble());
      segments.add(new SegmentLoad("seg-" + age, load, (long) (250 * MB * (0.8 + 0.4 * random.nextDouble()))));
    }
    return segments;
  }

  private static PlacementInput input(List<SegmentLoad> segments, List<NodeCapacity> nodes, PlacementPlan current)
  {
    final Map<String, Set<String>> holders = new HashMap<>();
    if (current != null) {
      current.shares().forEach((segment, shares) -> holders.put(segment, shares.keySet()));
    }
    return new PlacementInput(segments, nodes, new PlacementConstraints(1, nodes.size(), 0.2), holders);
  }

  /** Replicas of {@code plan} on a node that does not hold the segment in {@code input}: data to load. */
  static int moves(PlacementInput input, PlacementPlan plan)
  {
    int moves = 0;
    for (Map.Entry<String, Map<String, Double>> e : plan.shares().entrySet()) {
      final Set<String> holders = input.currentHolders().getOrDefault(e.getKey(), Set.of());
      for (String node : e.getValue().keySet()) {
        if (!holders.contains(node)) {
          moves++;
        }
      }
    }
    return moves;
  }

  /** A plan that its own holders were given: what the cluster converges to under a steady workload. */
  private static PlacementPlan settled(PlacementStrategy strategy, List<SegmentLoad> segments, List<NodeCapacity> nodes)
  {
    PlacementPlan plan = strategy.plan(input(segments, nodes, null));
    for (int round = 0; round < 3; round++) {
      plan = strategy.plan(input(segments, nodes, plan));
    }
    return plan;
  }

  @Test
  void replayingAPlanMovesNothing()
  {
    final List<SegmentLoad> segments = segments(500, new Random(1));
    final List<NodeCapacity> nodes = tieredNodes();
    for (PlacementStrategy strategy : GETAFIX) {
      final PlacementPlan first = strategy.plan(input(segments, nodes, null));
      final PlacementInput replay = input(segments, nodes, first);
      final PlacementPlan second = strategy.plan(replay);
      assertTrue(moves(replay, second) <= 2, strategy + " moved " + moves(replay, second));
      final PlacementInput again = input(segments, nodes, second);
      assertEquals(0, moves(again, strategy.plan(again)), strategy.toString());
    }
  }

  @Test
  void smallPopularityChangesMoveFewReplicas()
  {
    final List<NodeCapacity> nodes = tieredNodes();
    for (PlacementStrategy strategy : GETAFIX) {
      final Random random = new Random(2);
      final List<SegmentLoad> segments = segments(500, random);
      PlacementPlan current = settled(strategy, segments, nodes);
      int sticky = 0;
      int fromScratch = 0;
      int replicas = 0;
      for (int round = 0; round < 10; round++) {
        final List<SegmentLoad> perturbed = new ArrayList<>();
        for (SegmentLoad s : segments) {
          perturbed.add(new SegmentLoad(s.segmentId(), s.load() * (0.95 + 0.1 * random.nextDouble()), s.sizeBytes()));
        }
        final PlacementInput next = input(perturbed, nodes, current);
        final PlacementPlan plan = strategy.plan(next);
        sticky += moves(next, plan);
        replicas += plan.totalReplicas();
        fromScratch += moves(next, strategy.plan(input(perturbed, nodes, null)));
        current = plan;
      }
      final String what = strategy + ": " + sticky + " moves of " + replicas + " replicas, from scratch "
                          + fromScratch;
      assertTrue(sticky < 0.05 * replicas, what);
      assertTrue(sticky * 5 < fromScratch, what);
    }
  }

  /**
   * Hysteresis has a price, and it is bounded: no node is more than the slack above its capacity-proportional bin;
   * one may be short of it by what a segment of its lost in popularity, until load moves in, but the tiers stay
   * apart.
   */
  @Test
  void loadsStayProportionalToCapacity()
  {
    final List<NodeCapacity> nodes = tieredNodes();
    final Random random = new Random(3);
    final List<SegmentLoad> segments = segments(500, random);
    final PlacementPlan current = settled(PlacementStrategies.create("auto-tiering-only"), segments, nodes);
    final List<SegmentLoad> perturbed = new ArrayList<>();
    for (SegmentLoad s : segments) {
      perturbed.add(new SegmentLoad(s.segmentId(), s.load() * (0.95 + 0.1 * random.nextDouble()), s.sizeBytes()));
    }
    final PlacementPlan plan = PlacementStrategies.create("auto-tiering-only").plan(input(perturbed, nodes, current));
    final Map<String, Double> loads = plan.nodeLoads(perturbed);
    final double total = perturbed.stream().mapToDouble(SegmentLoad::load).sum();
    final Map<Double, double[]> loadRangeByCapacity = new HashMap<>();
    for (NodeCapacity node : nodes) {
      final double bin = total * node.capacity() / 120;
      final double load = loads.getOrDefault(node.nodeId(), 0.0);
      assertTrue(load <= bin * (1 + ModifiedBestFit.HOLD_SLACK) + 1e-9, node + ": " + load + " > bin " + bin);
      assertTrue(load >= bin * 0.75, node + ": " + load + " < bin " + bin);
      final double[] range = loadRangeByCapacity.computeIfAbsent(node.capacity(), c -> new double[]{load, load});
      range[0] = Math.min(range[0], load);
      range[1] = Math.max(range[1], load);
    }
    assertTrue(loadRangeByCapacity.get(16.0)[0] > loadRangeByCapacity.get(8.0)[1], "16-core nodes above 8-core");
    assertTrue(loadRangeByCapacity.get(8.0)[0] > loadRangeByCapacity.get(4.0)[1], "8-core nodes above 4-core");
  }

  @Test
  void aStragglerStillLosesItsLoad()
  {
    final List<SegmentLoad> segments = segments(500, new Random(4));
    final List<NodeCapacity> nodes = tieredNodes();
    for (PlacementStrategy strategy : List.of(
        PlacementStrategies.create("getafix-h"),
        PlacementStrategies.create("auto-tiering-only"),
        PlacementStrategies.create("getafix-h-thesis-split")
    )) {
      final PlacementPlan before = settled(strategy, segments, nodes);
      final String straggler = "hn-00";
      final double loadBefore = before.nodeLoads(segments).get(straggler);
      final List<NodeCapacity> slowed = new ArrayList<>(nodes);
      slowed.set(0, new NodeCapacity(straggler, 16 * 0.3, nodes.get(0).maxSizeBytes()));
      final PlacementInput next = input(segments, slowed, before);
      final PlacementPlan after = strategy.plan(next);
      final double loadAfter = after.nodeLoads(segments).get(straggler);
      // Its bin shrinks to 0.3 × 16 of 108.8 cores; the balancer may add up to γ.
      final double total = segments.stream().mapToDouble(SegmentLoad::load).sum();
      final double bin = total * 4.8 / 108.8;
      assertTrue(loadAfter <= bin * 1.25, strategy + ": straggler load " + loadAfter + ", bin " + bin);
      assertTrue(loadAfter < 0.4 * loadBefore, strategy + ": " + loadBefore + " -> " + loadAfter);
      // The hottest segment no longer relies on it.
      assertTrue(after.sharesOf("seg-0").getOrDefault(straggler, 0.0) < 0.15, after.sharesOf("seg-0").toString());
      // And the rest of the cluster hardly moves: only what the straggler sheds.
      assertTrue(moves(next, after) < 0.1 * after.totalReplicas(), strategy + " moved " + moves(next, after));
    }
  }

  /**
   * The live test cluster (1.0 / 0.5 / 0.25 cores, 100 hourly segments, recency-skewed), with the noise a
   * popularity estimate of a few seconds has: a cold segment's load swings by half either way from round to round.
   * The noise decided which of the coldest segments fitted their holders' nearly full bins, so they moved every round
   * though no node's load changed by more than the noise; negligible segments now stay.
   */
  @Test
  void noisyColdSegmentsStayPut()
  {
    final List<NodeCapacity> nodes = List.of(
        new NodeCapacity("h100", 1.0, 1000 * MB),
        new NodeCapacity("h050", 0.5, 1000 * MB),
        new NodeCapacity("h025", 0.25, 1000 * MB)
    );
    final Random random = new Random(6);
    final List<SegmentLoad> segments = new ArrayList<>();
    for (int age = 0; age < 100; age++) {
      segments.add(new SegmentLoad("hour-" + (100 + age), Math.exp(-age / 12.0), 2 * MB));
    }
    final PlacementStrategy strategy = PlacementStrategies.create("getafix-h");
    PlacementPlan current = settled(strategy, segments, nodes);
    int moves = 0;
    int replicas = 0;
    for (int round = 0; round < 20; round++) {
      final List<SegmentLoad> noisy = new ArrayList<>();
      for (SegmentLoad s : segments) {
        noisy.add(new SegmentLoad(s.segmentId(), s.load() * (0.5 + random.nextDouble()), s.sizeBytes()));
      }
      final PlacementInput next = input(noisy, nodes, current);
      current = strategy.plan(next);
      moves += moves(next, current);
      replicas += current.totalReplicas();
    }
    assertTrue(moves < 0.02 * replicas, moves + " moves of " + replicas + " replicas in 20 rounds");
    // Still tiered: the strongest node carries the most load, the weakest the least.
    final Map<String, Double> loads = current.nodeLoads(segments);
    assertTrue(loads.get("h100") > loads.get("h050") && loads.get("h050") > loads.get("h025"), loads.toString());
  }

  @Test
  void aSegmentTurningHotGoesToTheStrongNodes()
  {
    final List<NodeCapacity> nodes = tieredNodes();
    final List<SegmentLoad> segments = segments(500, new Random(5));
    for (PlacementStrategy strategy : List.of(
        PlacementStrategies.create("getafix-h"),
        PlacementStrategies.create("auto-tiering-only"),
        PlacementStrategies.create("getafix-h-thesis-split")
    )) {
      final PlacementPlan before = settled(strategy, segments, nodes);
      // A new hour of data arrives, handed off to a weak node, and draws the most queries; the rest age.
      final List<SegmentLoad> next = new ArrayList<>();
      next.add(new SegmentLoad("seg-new", 1000, 250 * MB));
      for (SegmentLoad s : segments) {
        next.add(new SegmentLoad(s.segmentId(), s.load() * 0.8, s.sizeBytes()));
      }
      final Map<String, Set<String>> holders = new HashMap<>(input(segments, nodes, before).currentHolders());
      holders.put("seg-new", Set.of("hn-14"));
      final PlacementInput input = new PlacementInput(next, nodes, new PlacementConstraints(1, 15, 0.2), holders);
      final PlacementPlan plan = strategy.plan(input);
      final Map<String, Double> hot = plan.sharesOf("seg-new");
      double onStrong = 0;
      for (String node : List.of("hn-00", "hn-01", "hn-02")) {
        onStrong += hot.getOrDefault(node, 0.0);
      }
      assertTrue(onStrong > 0.5, strategy + ": " + hot);
      // As few replicas as the plain fit gives it, give or take one.
      final int plain = strategy.plan(new PlacementInput(next, nodes, input.constraints())).holders("seg-new").size();
      assertTrue(hot.size() <= plain + 1, strategy + ": " + hot + " vs " + plain + " from scratch");
      // The new segment takes a third of each strong node. With the thesis' split the hottest old segment keeps
      // what room is left there and little else moves. With the even split it may not keep a sliver, so it moves
      // whole to the mid nodes, and what they held moves on: more loads in this one round (the simulator, where a
      // new hottest segment arrives every 30 s, still counts fewer loads in all: docs/benchmarks.md).
      final double bound = strategy.equals(PlacementStrategies.create("getafix-h-thesis-split")) ? 0.1 : 0.5;
      assertTrue(
          moves(input, plan) < bound * plan.totalReplicas(),
          strategy + " moved " + moves(input, plan) + " of " + plan.totalReplicas()
      );
    }
  }
}
