package org.getafix.core.placement;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.capacity.CapacityEstimators;
import org.getafix.core.placement.capacity.NodeRoundStats;
import org.getafix.core.placement.capacity.NodeSample;
import org.getafix.core.placement.packing.GetafixStrategy;
import org.getafix.core.placement.packing.SplitPolicy;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.popularity.LoadSignal;
import org.getafix.core.placement.popularity.SegmentSample;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.core.placement.tiering.Tier;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The planning round the extension and the simulator share: what it feeds the strategy, and what it returns. */
class PlanningRoundTest
{
  private static final long MEMORY = 1_000;

  private static PlanningRound round(String strategy)
  {
    return new PlanningRound(new PlanningRound.Settings(strategy, "cpu-time", 1.0, 0.5, false, 2));
  }

  /** A node that spent {@code cpu} CPU seconds of a 1 s round: capacity {@code cpu} for the CPU-time estimator. */
  private static NodeSample busy(String node, double cpu)
  {
    return NodeSample.measured(node, MEMORY, new NodeRoundStats(cpu, 0.5, 1, cpu));
  }

  private static List<SegmentSample> segments(double... accessTimes)
  {
    final List<SegmentSample> segments = new ArrayList<>();
    for (int i = 0; i < accessTimes.length; i++) {
      segments.add(new SegmentSample("s" + i, 10, accessTimes[i], 0));
    }
    return segments;
  }

  @Test
  void aNodeWithoutEstimateGetsTheMeanOfTheLiveNodesAndADepartedNodeIsForgotten()
  {
    final PlanningRound round = round("getafix-h");
    round.observe(segments(1), List.of(busy("a", 1), busy("b", 3), busy("gone", 20)));
    final PlanningRound.Observed observed = round.observe(segments(1), List.of(
        busy("a", 1),
        busy("b", 3),
        new NodeSample("new", MEMORY, null, false, true)
    ));
    assertEquals(List.of("gone"), observed.departed());
    assertEquals(Map.of("a", 1.0, "b", 3.0, "new", 2.0), observed.capacities(), "the mean of a and b, not of gone");
    assertEquals(List.of("a", "b", "new"), List.copyOf(observed.capacities().keySet()), "in the observed order");
  }

  @Test
  void aNodeBackInThePlanStartsFromTheMeanEstimateNotItsOldOne()
  {
    final PlanningRound round = round("getafix-h");
    round.observe(segments(1), List.of(busy("a", 1), busy("b", 3), busy("c", 2)));
    final PlanningRound.Observed out = round.observe(segments(1), List.of(
        busy("a", 1),
        new NodeSample("b", MEMORY, null, true, false),
        busy("c", 2)
    ));
    assertFalse(out.capacities().get("b") == 3.0, "an unplaceable node kept its estimate: " + out.capacities());
    // Back, with its first report a baseline (no stats yet): the mean of a and c until it is measured again.
    final PlanningRound.Observed back = round.observe(segments(1), List.of(
        busy("a", 1),
        new NodeSample("b", MEMORY, null, false, true),
        busy("c", 2)
    ));
    assertEquals(1.5, back.capacities().get("b"), 1e-9, "capacities " + back.capacities());
  }

  @Test
  void aNodeThatFailedKeepsItsEstimateAndSaysWhy()
  {
    final PlanningRound round = round("getafix-h");
    round.observe(segments(1), List.of(busy("a", 1), busy("b", 3)));
    final PlanningRound.Observed failed = round.observe(segments(1), List.of(
        busy("a", 1),
        new NodeSample("b", MEMORY, null, true, true)
    ));
    assertEquals(3.0, failed.capacities().get("b"));
    assertTrue(failed.rejections().containsKey("b"), String.valueOf(failed.rejections()));
    final PlanningRound.Observed quiet = round.observe(segments(1), List.of(
        busy("a", 1),
        new NodeSample("b", MEMORY, null, false, true)
    ));
    assertEquals(3.0, quiet.capacities().get("b"));
    assertEquals(failed.rejections(), quiet.rejections(), "no news is not a new rejection");
  }

  @Test
  void aStrategyThatIsNotCapacityAwareSeesEqualNodes()
  {
    final PlanningRound.Observed observed =
        round("getafix-b").observe(segments(1), List.of(busy("a", 1), busy("b", 9)));
    assertEquals(Map.of("a", 1.0, "b", 1.0), observed.capacities());
    assertFalse(round("getafix-b").strategy().capacityAware());
  }

  @Test
  void scarlettPlansOnPeakConcurrencyNotPopularity()
  {
    final PlanningRound round = round("scarlett");
    final List<NodeSample> nodes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      nodes.add(busy("n" + i, 1));
    }
    round.observe(List.of(
        new SegmentSample("popular", 10, 100, 1),
        new SegmentSample("crowded", 10, 1, 5)
    ), nodes);
    final PlanningRound.Result result = round.plan(new PlacementConstraints(1, 6, 0.2), Map.of(), 5);
    assertEquals(2, result.plan().holders("popular").size(), "one concurrent access: Druid's default of 2");
    assertEquals(5, result.plan().holders("crowded").size());
  }

  @Test
  void aNodeThatStoppedAnsweringIsPlannedNothingButKeepsCapacityAndTier()
  {
    final PlanningRound round = round("getafix-h");
    round.observe(segments(4, 1, 1), List.of(
        busy("a", 1),
        busy("b", 1),
        new NodeSample("mute", MEMORY, new NodeRoundStats(1, 0.25, 1, 1), false, false)
    ));
    final PlanningRound.Result result = round.plan(new PlacementConstraints(1, 3, 0.2), Map.of(), 5);
    result.plan().shares().values().forEach(shares -> assertFalse(shares.containsKey("mute"), shares.toString()));
    assertEquals(0.0, result.loadShares().get("mute"));
    assertEquals(1.0, result.observed().capacities().get("mute"));
    assertEquals(Tier.COLD, result.tiers().get("mute"));
    final double planned = result.loadShares().values().stream().mapToDouble(Double::doubleValue).sum();
    assertEquals(6.0, planned, 1e-9, "the whole popularity is routed somewhere");
  }

  @Test
  void tieringAccuracyIsOverTheObservedNodesWithAHardwareTier()
  {
    final PlanningRound round = round("getafix-h");
    round.observe(segments(4, 1, 1), List.of(busy("a", 4), busy("b", 1)));
    final PlanningRound.Result result = round.plan(new PlacementConstraints(1, 2, 0.2), Map.of(), 5);
    assertEquals(OptionalDouble.empty(), result.tieringAccuracy(Map.of("elsewhere", Tier.HOT)));
    final Tier a = result.tiers().get("a");
    assertEquals(OptionalDouble.of(1.0), result.tieringAccuracy(Map.of("a", a, "elsewhere", Tier.COLD)));
  }

  @Test
  void measuredTiersComeFromTheCpuTimeOfTheRound()
  {
    final PlanningRound.Observed observed = round("getafix-h").observe(
        segments(1),
        List.of(busy("hot", 9), busy("warm", 5), busy("cold", 1))
    );
    assertEquals(Map.of("hot", Tier.HOT, "warm", Tier.WARM, "cold", Tier.COLD), observed.measuredTiers());
    assertEquals(Map.of("hot", Tier.HOT, "warm", Tier.COLD, "cold", Tier.COLD), observed.measuredTiersByRank(1, 0));
  }

  @Test
  void planningNeedsAnObservedRoundAndNamesMustBeKnown()
  {
    assertThrows(
        IllegalStateException.class,
        () -> round("getafix-h").plan(new PlacementConstraints(1, 1, 0.2), Map.of(), 5)
    );
    final IllegalArgumentException strategy = assertThrows(IllegalArgumentException.class, () -> round("getafix-x"));
    assertTrue(strategy.getMessage().contains("[getafix-x]"), strategy.getMessage());
    assertTrue(strategy.getMessage().contains(PlacementStrategies.REGISTRY.names().toString()), strategy.getMessage());
    final IllegalArgumentException estimator = assertThrows(
        IllegalArgumentException.class,
        () -> new PlanningRound(new PlanningRound.Settings("getafix-b", "cpuTime", 1.0, 0.5, false, 2))
    );
    assertEquals("unknown capacity estimator [cpuTime]; known: [cpu-time, throughput]", estimator.getMessage());
  }

  @Test
  void everyRegisteredStrategyAndEstimatorCanBeMade()
  {
    for (PlacementStrategies.Entry entry : PlacementStrategies.REGISTRY.entries()) {
      assertNotNull(entry.create(2), entry.name());
    }
    assertEquals("getafix-h", PlacementStrategies.getafixH(SplitPolicy.EVEN).name());
    assertEquals("getafix-h-thesis-split", PlacementStrategies.getafixH(SplitPolicy.THESIS).name());
    for (CapacityEstimators.Entry entry : CapacityEstimators.REGISTRY.entries()) {
      assertTrue(entry.create(PlacementKnobs.CAPACITY_SMOOTHING.defaultValue()).capacities().isEmpty(), entry.name());
    }
  }

  @Test
  void theThesisVariantPlansWithoutTheHotFloor()
  {
    assertTrue(PlacementStrategies.REGISTRY.get("getafix-h-thesis").thesis());
    assertEquals(
        new GetafixStrategy(true, true, SplitPolicy.THESIS, false),
        PlacementStrategies.create("getafix-h-thesis")
    );
    assertEquals(new GetafixStrategy(true, true, SplitPolicy.EVEN, true), PlacementStrategies.create("getafix-h"));
  }

  @Test
  void eachStrategyIsFedItsLoadSignal()
  {
    final Map<String, Double> popularity = Map.of("seen", 6.0);
    final SegmentSample seen = new SegmentSample("seen", 10, 4.0, 3.0);
    final SegmentSample unseen = new SegmentSample("unseen", 10, 4.0, 2.0);
    final LoadSignal scarlett = PlacementStrategies.REGISTRY.get("scarlett").loadSignal();
    final LoadSignal getafix = PlacementStrategies.REGISTRY.get("getafix-h").loadSignal();
    assertEquals(3.0, scarlett.loadOf(seen, popularity));
    assertEquals(2.0, scarlett.loadOf(unseen, popularity));
    assertEquals(6.0, getafix.loadOf(seen, popularity));
    assertEquals(0.0, getafix.loadOf(unseen, popularity));
  }
}
