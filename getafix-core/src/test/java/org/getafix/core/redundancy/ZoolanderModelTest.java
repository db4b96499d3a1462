package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZoolanderModelTest
{
  /** Service times exponential with the given mean: Φ(t) = 1 − e^(−t/mean), C_v² = 1. */
  private record Exponential(double mean) implements LatencyDistribution
  {
    @Override
    public double cdf(double millis)
    {
      return millis < 0 ? 0 : 1 - Math.exp(-millis / mean);
    }

    @Override
    public double quantile(double q)
    {
      return -mean * Math.log(1 - q);
    }

    @Override
    public double scv()
    {
      return 1;
    }

    @Override
    public long count()
    {
      return 1000;
    }
  }

  private static final double MEAN = 10;
  /** The bound at which one idle node with a 10 ms exponential meets it with probability 0.9. */
  private static final double TAU_P90 = MEAN * Math.log(10);

  private static final ZoolanderModel EXACT = new ZoolanderModel(new ZoolanderSettings(0, 0, 4, 1e-4));

  private static ZoolanderModel.Duplicate node(String id, double mean, double ratePerSecond)
  {
    return new ZoolanderModel.Duplicate(id, new Exponential(mean), ratePerSecond, 1);
  }

  private static List<ZoolanderModel.Duplicate> idle(int n)
  {
    final List<ZoolanderModel.Duplicate> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(node("n" + i, MEAN, 0));
    }
    return nodes;
  }

  @Test
  void geometricSeriesForIdenticalIdleDuplicates()
  {
    assertEquals(0.9, EXACT.serviceLevel(TAU_P90, idle(1)), 1e-12);
    assertEquals(0.99, EXACT.serviceLevel(TAU_P90, idle(2)), 1e-12);
    assertEquals(0.999, EXACT.serviceLevel(TAU_P90, idle(3)), 1e-12);
    // Different nodes, the paper's sum: Φ_0 + Φ_1·(1 − Φ_0) = 0.9 + 0.5 · 0.1.
    final double halfAtTau = TAU_P90 / Math.log(2);
    assertEquals(
        0.95,
        EXACT.serviceLevel(TAU_P90, List.of(node("a", MEAN, 0), node("b", halfAtTau, 0))),
        1e-12
    );
  }

  @Test
  void eachDuplicateCostsItsMulticastAndPruning()
  {
    final ZoolanderModel model = new ZoolanderModel(new ZoolanderSettings(2, 1, 3, 0));
    // τ_n = 30 − μ_net 2 − 2 duplicates × μ_rep 1 = 26 ms on each of two nodes.
    assertEquals(1 - Math.exp(-2 * 2.6), model.serviceLevel(30, idle(2)), 1e-12);
  }

  @Test
  void queueingDelayIsDeductedFromTheBound()
  {
    // λ = 50/s of 10 ms: ρ = 0.5, Pollaczek–Khinchine W = 0.5 · 10 · (1 + 1) / (2 · 0.5) = 10 ms.
    assertEquals(1 - Math.exp(-2), EXACT.serviceLevel(30, List.of(node("a", MEAN, 50))), 1e-12);
    // Four processing threads: ρ = 200 · 0.01 / 4 = 0.5 on a server four times as fast, W = 2.5 ms.
    final ZoolanderModel.Duplicate wide = new ZoolanderModel.Duplicate("w", new Exponential(MEAN), 200, 4);
    assertEquals(1 - Math.exp(-2.75), EXACT.serviceLevel(30, List.of(wide)), 1e-12);
    assertEquals(0, EXACT.serviceLevel(30, List.of(node("a", MEAN, 100))), 0, "ρ = 1");
    assertEquals(0, EXACT.serviceLevel(30, List.of(node("a", MEAN, 150))), 0, "ρ > 1");
  }

  @Test
  void decideUsesRedundancyWhileItPaysAndSwitchesItOffAtHighUtilisation()
  {
    final List<ZoolanderModel.Duplicate> idle = idle(4);
    final ZoolanderModel.Decision atIdle = EXACT.decide(TAU_P90, Double.NaN, idle, 1);
    assertEquals(4, atIdle.duplicates());
    assertEquals(0.9999, atIdle.serviceLevel(), 1e-12);
    assertEquals(0.9, atIdle.single(), 1e-12);

    // ρ = 0.4 without redundancy: W = 0.4 · 10 / 0.6. Two duplicates double the load: ρ = 0.8, W = 40 ms > τ.
    final List<ZoolanderModel.Duplicate> busy = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      busy.add(node("n" + i, MEAN, 40));
    }
    final ZoolanderModel.Decision atLoad = EXACT.decide(30, Double.NaN, busy, 1);
    assertEquals(1, atLoad.duplicates());
    assertEquals(1 - Math.exp(-(30 - 4.0 / 0.6) / MEAN), atLoad.serviceLevel(), 1e-12);

    // In between, the benefit shrinks as the load grows, and so does the redundancy chosen.
    int previousDuplicates = Integer.MAX_VALUE;
    double previousLevel = 1;
    for (double rate = 0; rate <= 60; rate += 5) {
      final List<ZoolanderModel.Duplicate> nodes = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        nodes.add(node("n" + i, MEAN, rate));
      }
      final ZoolanderModel.Decision decision = EXACT.decide(30, Double.NaN, nodes, 1);
      assertTrue(decision.duplicates() <= previousDuplicates, "at " + rate + "/s: " + decision);
      assertTrue(decision.serviceLevel() < previousLevel, "at " + rate + "/s: " + decision);
      previousDuplicates = decision.duplicates();
      previousLevel = decision.serviceLevel();
    }
    assertEquals(1, previousDuplicates);
  }

  @Test
  void decideStopsAtTheTargetAndWeighsEachDuplicate()
  {
    final List<ZoolanderModel.Duplicate> idle = idle(4);
    assertEquals(2, EXACT.decide(TAU_P90, 0.95, idle, 1).duplicates());
    assertEquals(3, EXACT.decide(TAU_P90, 0.995, idle, 1).duplicates());
    assertEquals(1, EXACT.decide(TAU_P90, 0.5, idle, 1).duplicates());
    // A third duplicate adds 0.009, less than the 0.05 asked of it.
    final ZoolanderModel picky = new ZoolanderModel(new ZoolanderSettings(0, 0, 4, 0.05));
    assertEquals(2, picky.decide(TAU_P90, Double.NaN, idle, 1).duplicates());
  }

  @Test
  void decidePicksTheNodesMostLikelyToMeetTheBound()
  {
    final List<ZoolanderModel.Duplicate> nodes = List.of(
        node("saturated", MEAN, 100),
        node("slow", 40, 0),
        node("fast", MEAN, 0),
        node("faster", 5, 0)
    );
    final ZoolanderModel.Decision decision = EXACT.decide(30, 0.999, nodes, 0);
    assertEquals(List.of("faster", "fast"), decision.nodes());
    assertEquals(1 - Math.exp(-6) * Math.exp(-3), decision.serviceLevel(), 1e-12);
  }

  @Test
  void readsMeasuredWindows()
  {
    final AtomicLong clock = new AtomicLong();
    final LatencyWindow window = new LatencyWindow(Duration.ofSeconds(30), clock::get);
    for (int i = 0; i < 100; i++) {
      window.record(i < 90 ? 5 : 50);
      clock.addAndGet(Duration.ofMillis(100).toNanos());
    }
    final ZoolanderModel.Duplicate measured = ZoolanderModel.Duplicate.of("a", window, 8);
    assertEquals(10, measured.arrivalRatePerSecond(), 0.01);
    // 10/s of 9.5 ms on 8 threads queue for about 0.02 ms, so the bound stays above the 90% of 5 ms answers.
    assertEquals(0.9, EXACT.serviceLevel(6, List.of(measured)), 1e-9);
  }

  @Test
  void garbageInputsPredictNothingAndNeverThrow()
  {
    assertEquals(0, EXACT.serviceLevel(Double.NaN, idle(2)));
    assertEquals(0, EXACT.serviceLevel(-5, idle(2)));
    assertEquals(0, EXACT.serviceLevel(30, null));
    assertEquals(0, EXACT.serviceLevel(30, List.of()));
    final LatencyDistribution empty = new Exponential(Double.NaN);
    final List<ZoolanderModel.Duplicate> withGarbage = Arrays.asList(
        node("good", MEAN, 0),
        null,
        new ZoolanderModel.Duplicate("no-latency", null, 0, 1),
        new ZoolanderModel.Duplicate(null, empty, 0, 1),
        new ZoolanderModel.Duplicate("nan-rate", new Exponential(MEAN), Double.NaN, 1),
        new ZoolanderModel.Duplicate("negative-rate", new Exponential(MEAN), -1, 1),
        new ZoolanderModel.Duplicate("no-threads", new Exponential(MEAN), 0, 0)
    );
    assertEquals(EXACT.serviceLevel(30, idle(1)), EXACT.serviceLevel(30, withGarbage), 1e-12);
    final ZoolanderModel.Decision decision = EXACT.decide(30, Double.NaN, withGarbage, 7);
    assertEquals(1, decision.duplicates());
    assertEquals(List.of("good"), decision.nodes());
    final ZoolanderModel.Decision none = EXACT.decide(30, 0.99, null, 1);
    assertEquals(1, none.duplicates());
    assertEquals(0, none.serviceLevel());
    assertEquals(1, EXACT.decide(Double.NaN, Double.NaN, idle(3), 1).duplicates());
  }

  @Test
  void decideAroundKeepsTheRoutedPrimaryEvenWhenAnotherNodeIsLikelierAlone()
  {
    final ZoolanderModel.Duplicate slow = node("slow", 20 * MEAN, 0);
    final ZoolanderModel.Duplicate fast = node("fast", MEAN, 0);
    // decide() alone would pick the fast node and no copy; around a slow primary, the fast one is its copy.
    assertEquals(List.of("fast"), EXACT.decide(TAU_P90, 0.85, List.of(slow, fast), 1).nodes());
    final ZoolanderModel.Decision around = EXACT.decideAround(slow, TAU_P90, 0.85, List.of(fast), 1);
    assertEquals(List.of("slow", "fast"), around.nodes());
    assertEquals(EXACT.serviceLevel(TAU_P90, List.of(slow)), around.single(), 1e-12);
    assertTrue(around.serviceLevel() > 0.9, "a copy on the fast node meets the bound: " + around);
    // A fast primary reaching the target alone gets no copy.
    assertEquals(List.of("fast"), EXACT.decideAround(fast, TAU_P90, 0.85, List.of(slow), 1).nodes());
    // Copies that would double the load of a busy other node (ρ 0.6 → 1.2) mask nothing: no copy.
    final ZoolanderModel.Duplicate busy = node("busy", MEAN, 60);
    assertEquals(List.of("slow"), EXACT.decideAround(slow, TAU_P90, 0.85, List.of(busy), 1).nodes());
    assertEquals(0, EXACT.decideAround(null, TAU_P90, 0.85, List.of(fast), 1).nodes().size());
    assertEquals(List.of("slow"), EXACT.decideAround(slow, TAU_P90, 0.85, null, 1).nodes());
  }

  @Test
  void settingsAreValidated()
  {
    assertThrows(IllegalArgumentException.class, () -> new ZoolanderSettings(-1, 0, 3, 0));
    assertThrows(IllegalArgumentException.class, () -> new ZoolanderSettings(0, Double.NaN, 3, 0));
    assertThrows(IllegalArgumentException.class, () -> new ZoolanderSettings(0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new ZoolanderSettings(0, 0, 3, 1));
  }
}
