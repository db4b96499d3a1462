package org.getafix.core.placement.capacity;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.tiering.Tier;
import org.getafix.core.placement.tiering.TierClassifier;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapacityEstimatorTest
{
  private static final double WALL = 10;

  /**
   * The starvation loop. Three nodes with equal per-core speed: "strong" has 8 cores, "weak-1" and "weak-2" 2 each.
   * The cluster is underloaded (20 work units a round, 120 it could do). "strong" just restarted, so in the first
   * round it was given almost nothing. Every round the load is split in proportion to the estimates, as the placement
   * does, and each node reports what serving its share cost.
   */
  private static Map<String, Tier> runFeedbackLoop(CapacityEstimator estimator, Map<String, Double> out)
  {
    final Map<String, Integer> cores = new LinkedHashMap<>();
    cores.put("strong", 8);
    cores.put("weak-1", 2);
    cores.put("weak-2", 2);
    final double demand = 20;
    Map<String, Double> share = Map.of("strong", 0.02, "weak-1", 0.49, "weak-2", 0.49);
    for (int round = 0; round < 30; round++) {
      for (Map.Entry<String, Integer> node : cores.entrySet()) {
        final double work = demand * share.get(node.getKey());
        // One work unit costs one core-second: CPU time = work; busy (utilisation × wall) = work / cores.
        estimator.observe(node.getKey(), new NodeRoundStats(work, work / node.getValue(), WALL, work));
      }
      final Map<String, Double> capacities = estimator.capacities();
      final double total = capacities.values().stream().mapToDouble(Double::doubleValue).sum();
      final Map<String, Double> next = new LinkedHashMap<>();
      capacities.forEach((node, c) -> next.put(node, c / total));
      share = next;
    }
    out.putAll(estimator.capacities());
    return TierClassifier.classify(estimator.capacities());
  }

  @Test
  void cpuTimeStarvesAnIdleStrongNodeThroughputDoesNot()
  {
    final Map<String, Double> cpu = new LinkedHashMap<>();
    final Map<String, Tier> cpuTiers = runFeedbackLoop(new CpuTimeCapacityEstimator(), cpu);
    // Plain CPU time: the strong node stays "weakest" for ever, because it is given little and so reports little.
    assertTrue(cpu.get("strong") < cpu.get("weak-1"), cpu.toString());
    assertEquals(Tier.COLD, cpuTiers.get("strong"), cpuTiers.toString());

    final Map<String, Double> ours = new LinkedHashMap<>();
    final Map<String, Tier> ourTiers = runFeedbackLoop(new ThroughputCapacityEstimator(), ours);
    assertEquals(4.0, ours.get("strong") / ours.get("weak-1"), 1e-9, ours.toString());
    assertEquals(Tier.HOT, ourTiers.get("strong"), ourTiers.toString());
    assertEquals(Tier.COLD, ourTiers.get("weak-1"));
  }

  @Test
  void theDefaultEstimatorIsRegistered()
  {
    assertTrue(CapacityEstimators.REGISTRY.contains(PlacementKnobs.CAPACITY_ESTIMATOR.defaultValue()));
  }

  @Test
  void theEstimateIsTheMedianOfTheLastThreeRoundsSmoothedByTheMovingAverage()
  {
    final CpuTimeCapacityEstimator estimator = new CpuTimeCapacityEstimator(0.5);
    estimator.observe("n", new NodeRoundStats(40, 5, 10, 1));
    assertEquals(4.0, estimator.capacities().get("n"), 1e-12);
    // Samples 4, 8: median 6, averaged with the estimate 4.
    estimator.observe("n", new NodeRoundStats(80, 5, 10, 1));
    assertEquals(5.0, estimator.capacities().get("n"), 1e-12);
    // Smoothing 1 (the default) is the median alone; with one sample that is the thesis' "last round only".
    final CpuTimeCapacityEstimator median = new CpuTimeCapacityEstimator(1.0);
    median.observe("n", new NodeRoundStats(40, 5, 10, 1));
    median.observe("n", new NodeRoundStats(80, 5, 10, 1));
    assertEquals(6.0, median.capacities().get("n"), 1e-12);
    median.observe("n", new NodeRoundStats(100, 5, 10, 1));
    assertEquals(8.0, median.capacities().get("n"), 1e-12);
    // The oldest of the three leaves the window: samples 8, 10, 2.
    median.observe("n", new NodeRoundStats(20, 5, 10, 1));
    assertEquals(8.0, median.capacities().get("n"), 1e-12);
    assertEquals(1.0, PlacementKnobs.CAPACITY_SMOOTHING.defaultValue());
  }

  @Test
  void oneAbsurdRoundMovesNoSettledEstimateEitherWay()
  {
    final ThroughputCapacityEstimator estimator = new ThroughputCapacityEstimator();
    for (int round = 0; round < 3; round++) {
      estimator.observe("quarter", new NodeRoundStats(1.25, 5, 5, 1.25));
      estimator.observe("full", new NodeRoundStats(5, 5, 5, 5));
    }
    // Plausible to every check, yet a thousand times the node's quota.
    estimator.observe("quarter", new NodeRoundStats(1250, 5, 5, 1250));
    assertEquals(0.25, estimator.capacities().get("quarter"), 1e-12);
    estimator.observe("quarter", new NodeRoundStats(1.25, 5, 5, 1.25));
    // A round in which the node seemed to do nothing in all its busy time (a GC pause over the whole round).
    estimator.observe("full", new NodeRoundStats(1e-6, 5, 5, 1e-6));
    assertEquals(1.0, estimator.capacities().get("full"), 1e-12);
  }

  @Test
  void aNodeCutToATwentiethOfItsCpuIsAStragglerAfterTwoRounds()
  {
    final ThroughputCapacityEstimator estimator = new ThroughputCapacityEstimator();
    for (int round = 0; round < 3; round++) {
      estimator.observe("h1", new NodeRoundStats(5, 5, 5, 5));
      estimator.observe("h2", new NodeRoundStats(2.5, 5, 5, 2.5));
      estimator.observe("h3", new NodeRoundStats(1.25, 5, 5, 1.25));
    }
    // h1's quota is cut from 1.0 to 0.05 core; it stays busy.
    estimator.observe("h1", new NodeRoundStats(0.25, 5, 5, 0.25));
    assertEquals(1.0, estimator.capacities().get("h1"), 1e-12, "one round is not enough");
    estimator.observe("h1", new NodeRoundStats(0.25, 5, 5, 0.25));
    assertEquals(0.05, estimator.capacities().get("h1"), 1e-12);
    assertTrue(estimator.capacities().get("h1") < 0.25 * estimator.capacities().get("h3"));
  }

  /** A busy round of a 1-core node that delivered {@code cores} of it: work / busy = cores. */
  private static NodeRoundStats delivering(double cores)
  {
    return new NodeRoundStats(3 * cores, 3, 3, 3 * cores);
  }

  /**
   * A node stalled for 1.5 s in every 10 s, read in rounds of 3 s: every third or fourth round delivers half its
   * speed. Its estimate stays at its usual speed (the median hides the spells), but it is unstable; a node with one
   * slow round in a minute is not, nor is one that only wobbles.
   */
  @Test
  void aNodeSlowEveryFewRoundsIsUnstableOneSlowRoundOrAWobbleIsNot()
  {
    final ThroughputCapacityEstimator estimator = new ThroughputCapacityEstimator();
    for (int round = 0; round < 20; round++) {
      if (round == 9) {
        assertEquals(Set.of(), estimator.unstable(), "three slow rounds in nine: too few rounds to judge yet");
      }
      estimator.observe("stalling", delivering(round % 3 == 2 ? 0.4 : 1.0));
      estimator.observe("once", delivering(round == 7 ? 0.1 : 0.5));
      estimator.observe("wobbling", delivering(round % 2 == 0 ? 0.3 : 0.25));
    }
    assertEquals(1.0, estimator.capacities().get("stalling"), 1e-12);
    assertEquals(Map.of("once", 1, "stalling", 6, "wobbling", 0), estimator.slowRounds());
    assertEquals(Set.of("stalling"), estimator.unstable());
    // Down to one slow round in the window, it stays unstable; only a clean window makes it stable again.
    for (int round = 0; round < 16; round++) {
      estimator.observe("stalling", delivering(1.0));
    }
    assertEquals(1, estimator.slowRounds().get("stalling"));
    assertEquals(Set.of("stalling"), estimator.unstable());
    for (int round = 0; round < 2; round++) {
      estimator.observe("stalling", delivering(1.0));
    }
    assertEquals(Set.of(), estimator.unstable());
    estimator.forget("once");
    assertFalse(estimator.slowRounds().containsKey("once"));
    estimator.forget("stalling");
    assertFalse(estimator.unstable().contains("stalling"));
  }

  /**
   * The stalls the node itself measured: a node whose samples stay at its speed (it was not busy through its spells)
   * but that was stalled for half of every third round is unstable; one throttled by its quota for 60% ± 10% of every
   * round is slow all the time, not now and then, and is not.
   */
  @Test
  void aNodeStalledEveryFewRoundsIsUnstableOneAlwaysThrottledIsNot()
  {
    final ThroughputCapacityEstimator estimator = new ThroughputCapacityEstimator();
    for (int round = 0; round < 20; round++) {
      estimator.observe("stalling", new NodeRoundStats(1.5, 1.5, 3, 1.5, round % 3 == 2 ? 1.5 : 0.01));
      estimator.observe("throttled", new NodeRoundStats(0.75, 3, 3, 0.75, round % 2 == 0 ? 1.5 : 2.1));
    }
    assertEquals(1.0, estimator.capacities().get("stalling"), 1e-12, "the estimate does not see the stalls");
    assertEquals(Map.of("stalling", 6, "throttled", 0), estimator.slowRounds());
    assertEquals(Set.of("stalling"), estimator.unstable());
    assertTrue(new NodeRoundStats(1, 1, 3, 1, 3.5).problem().contains("stalledSeconds"), "longer than the round");
  }

  /** A node cut for good is unstable only while its slow samples are the window's minority; then it is a straggler. */
  @Test
  void aNodeCutForGoodIsUnstableOnlyForAWhile()
  {
    final ThroughputCapacityEstimator estimator = new ThroughputCapacityEstimator();
    for (int round = 0; round < 20; round++) {
      estimator.observe("h1", delivering(1.0));
    }
    int unstableRounds = 0;
    for (int round = 0; round < 20; round++) {
      estimator.observe("h1", delivering(0.05));
      unstableRounds += estimator.unstable().contains("h1") ? 1 : 0;
    }
    assertTrue(unstableRounds > 0 && unstableRounds < 10, "unstable for " + unstableRounds + " rounds");
    assertEquals(Set.of(), estimator.unstable());
  }

  @Test
  void garbageAndMissingStatsKeepTheLastGoodEstimate()
  {
    for (CapacityEstimator estimator : new CapacityEstimator[]{
        new CpuTimeCapacityEstimator(), new ThroughputCapacityEstimator()
    }) {
      estimator.observe("n", new NodeRoundStats(40, 5, 10, 100));
      final double good = estimator.capacities().get("n");
      final NodeRoundStats[] garbage = {
          null,
          new NodeRoundStats(Double.NaN, 5, 10, 100),
          new NodeRoundStats(40, -1, 10, 100),
          new NodeRoundStats(40, 5, 0, 100),
          new NodeRoundStats(40, 5, 10, Double.POSITIVE_INFINITY),
          new NodeRoundStats(40, 50, 10, 100)
      };
      for (NodeRoundStats stats : garbage) {
        estimator.observe("n", stats);
        assertEquals(good, estimator.capacities().get("n"), 0.0, String.valueOf(stats));
        assertTrue(estimator.rejections().containsKey("n"), String.valueOf(stats));
      }
      assertTrue(estimator.rejections().get("n").contains("busyTimeSeconds [50.0] exceeds"));
      // A usable report clears the rejection.
      estimator.observe("n", new NodeRoundStats(40, 5, 10, 100));
      assertFalse(estimator.rejections().containsKey("n"));
      // A node that never reported usable stats has no estimate, and the fallback applies.
      estimator.observe("new", new NodeRoundStats(Double.NaN, 0, 10, 0));
      assertFalse(estimator.capacities().containsKey("new"));
      assertEquals(3.0, estimator.capacityOr("new", 3.0));
      estimator.forget("n");
      assertFalse(estimator.capacities().containsKey("n"));
    }
  }

  @Test
  void anIdleRoundTellsTheThroughputEstimatorNothing()
  {
    final ThroughputCapacityEstimator estimator = new ThroughputCapacityEstimator();
    estimator.observe("n", new NodeRoundStats(40, 5, 10, 100));
    estimator.observe("n", new NodeRoundStats(0, 0, 10, 0));
    assertEquals(20.0, estimator.capacities().get("n"), 1e-12);
    assertFalse(estimator.rejections().containsKey("n"), "an idle round is not garbage");
  }

  @Test
  void twoExtremeRoundsMoveTheEstimateOnlyABoundedAmount()
  {
    final ThroughputCapacityEstimator estimator = new ThroughputCapacityEstimator();
    estimator.observe("quarter", new NodeRoundStats(1.25, 5, 5, 1.25));
    estimator.observe("full", new NodeRoundStats(5, 5, 5, 5));
    assertEquals(0.25, estimator.capacities().get("quarter"), 1e-12);
    // Rounds that say the 0.25-core node delivered 2.3e12 cores count as 4 × the tier mean (0.625) at most.
    estimator.observe("quarter", new NodeRoundStats(2.3e12, 1, 5, 2.3e12));
    assertEquals((0.25 + 4 * 0.625) / 2, estimator.capacities().get("quarter"), 1e-12);
    estimator.observe("quarter", new NodeRoundStats(2.3e12, 1, 5, 2.3e12));
    final double meanBefore = (1.375 + 1.0) / 2;
    assertEquals(Math.min(4 * 0.625, 4 * meanBefore), estimator.capacities().get("quarter"), 1e-12);
    assertTrue(estimator.capacities().get("quarter") < 4 * estimator.capacities().get("full"));
  }

  @Test
  void anIdleNodeRatedZeroClimbsBackToTheTierInTwoRounds()
  {
    final CpuTimeCapacityEstimator estimator = new CpuTimeCapacityEstimator(1.0);
    estimator.observe("idle", new NodeRoundStats(0, 0, 10, 0));
    estimator.observe("busy", new NodeRoundStats(20, 10, 10, 20));
    assertEquals(0.0, estimator.capacities().get("idle"));
    estimator.observe("idle", new NodeRoundStats(30, 10, 10, 30));
    assertEquals(1.5, estimator.capacities().get("idle"), 1e-12, "the median of 0 and 3");
    estimator.observe("idle", new NodeRoundStats(30, 10, 10, 30));
    assertEquals(3.0, estimator.capacities().get("idle"), 1e-12, "3 is under 4 × the tier mean");
  }

  @Test
  void emptyNodeIdIsAProgrammingError()
  {
    final CapacityEstimator estimator = new ThroughputCapacityEstimator();
    final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> estimator.observe(" ", new NodeRoundStats(1, 1, 1, 1))
    );
    assertTrue(e.getMessage().contains("nodeId"));
  }
}
