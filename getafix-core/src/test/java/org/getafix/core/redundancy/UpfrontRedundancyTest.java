package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UpfrontRedundancyTest
{
  private static final double BOUND_MILLIS = 100;
  /** s1 and s2 on a and b; s3 on a, b and c; s4 on a alone. */
  private static final Function<String, List<String>> HOLDERS = segment -> switch (segment) {
    case "s3" -> List.of("a", "b", "c");
    case "s4" -> List.of("a");
    default -> List.of("a", "b");
  };

  private final AtomicLong nanos = new AtomicLong();
  private final NodeLatencies latencies = new NodeLatencies(Duration.ofSeconds(30), nanos::get);
  private final RaceLosses losses = new RaceLosses(new NodeLatencies(Duration.ofSeconds(30), nanos::get), 5);

  private UpfrontRedundancy redundancy(int slots)
  {
    return new UpfrontRedundancy(
        new RedundancySettings(BOUND_MILLIS, 0.99, slots, ReplicatorSettings.DEFAULTS, ZoolanderSettings.DEFAULTS),
        latencies,
        losses,
        new Random(7)
    );
  }

  private void observe(String node, double millis, int times)
  {
    for (int i = 0; i < times; i++) {
      latencies.record(node, millis * (0.9 + 0.2 * i / times));
    }
  }

  /**
   * {@code periods} periods of one sub-query each, with latencies of a long tail and a target metric that halves
   * each period: each step up of the search is kept.
   */
  private static void raise(UpfrontRedundancy redundancy, int periods)
  {
    double target = 1000;
    for (int period = 0; period < periods; period++) {
      release(redundancy, redundancy.copies(UpfrontRedundancy.Mode.SPARE, "a", List.of("s1"), HOLDERS));
      for (int i = 0; i < 100; i++) {
        redundancy.attempted(i < 90 ? 10 : 2000);
      }
      redundancy.answered(null, target);
      target *= 0.5;
      redundancy.endPeriod(1, 3);
    }
  }

  private static void release(UpfrontRedundancy redundancy, UpfrontRedundancy.Copies<String> copies)
  {
    copies.byHolder().keySet().forEach(holder -> redundancy.copyDone(copies, holder, 5));
  }

  @Test
  void offSendsNoCopyAndCountsPrimariesOnlyWhileCopiesAreInUse()
  {
    final UpfrontRedundancy redundancy = redundancy(2);
    assertNull(redundancy.copies(UpfrontRedundancy.Mode.OFF, "a", List.of("s1"), HOLDERS));
    redundancy.attempted(10);
    redundancy.answered(null, 10);
    assertEquals(0, redundancy.endPeriod(1, 3).primaries(), "counted with no copies in use");

    redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "a", List.of("s1"), HOLDERS);
    assertNull(redundancy.copies(UpfrontRedundancy.Mode.OFF, "a", List.of("s1"), HOLDERS));
    assertEquals(2, redundancy.endPeriod(1, 3).primaries());
    // The period after the last one that asked still counts, so that the model's rates are never a period stale.
    assertNull(redundancy.copies(UpfrontRedundancy.Mode.OFF, "a", List.of("s1"), HOLDERS));
    assertEquals(1, redundancy.endPeriod(1, 3).primaries());
    assertNull(redundancy.copies(UpfrontRedundancy.Mode.OFF, "a", List.of("s1"), HOLDERS));
    assertEquals(0, redundancy.endPeriod(1, 3).primaries());
  }

  @Test
  void zoolanderCopiesTheSegmentsOfASlowPrimaryToAFastHolderAndNoneOfAFastOne()
  {
    observe("a", 800, 50);
    observe("b", 20, 50);
    observe("c", 30, 50);
    final UpfrontRedundancy redundancy = redundancy(2);
    final UpfrontRedundancy.Copies<String> slow =
        redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "a", List.of("s1", "s2", "s3", "s4"), HOLDERS);
    assertEquals(Map.of("b", List.of("s1", "s2", "s3")), slow.byHolder());
    // s4 has no other holder: the primary alone answers for it, so the copies alone are never in time.
    assertEquals(List.of("s4"), slow.stranded());
    assertEquals(0, slow.predicted(), 0.01);
    final UpfrontRedundancy.Copies<String> whole =
        redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "a", List.of("s1", "s3"), HOLDERS);
    assertEquals(Map.of("b", List.of("s1", "s3")), whole.byHolder());
    assertTrue(whole.predicted() > 0.95, "a fast copy predicts an answer in time: " + whole);
    final UpfrontRedundancy.Copies<String> fast =
        redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "b", List.of("s1", "s2"), HOLDERS);
    assertTrue(fast.isEmpty(), "a primary that meets the target alone got copies: " + fast);
    assertEquals(List.of("s1", "s2"), fast.stranded());

    redundancy.answered(whole, 25);
    redundancy.answered(fast, 150);
    final UpfrontRedundancy.PeriodReport report = redundancy.endPeriod(1, 3);
    assertEquals(3, report.primaries());
    assertEquals(2, report.copied());
    assertEquals(2, report.judged());
    assertEquals(0.5, report.measured(), 1e-12);
    assertEquals((whole.predicted() + fast.predicted()) / 2, report.predicted(), 1e-12);
  }

  @Test
  void zoolanderTakesAPrimarysLostRacesAsMissesThoughTheyWereCancelledEarly()
  {
    // a's sub-queries were all beaten by b's copies and cancelled at about b's latency: a reads as fast as b.
    observe("a", 25, 50);
    observe("b", 20, 50);
    for (int i = 0; i < 50; i++) {
      losses.record("a", i % 10 != 0);
      losses.record("b", false);
    }
    final UpfrontRedundancy redundancy = redundancy(2);
    final UpfrontRedundancy.Copies<String> copies =
        redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "a", List.of("s1"), HOLDERS);
    assertEquals(Map.of("b", List.of("s1")), copies.byHolder());
    assertTrue(copies.predicted() > 0.95, "the copy predicts an answer in time: " + copies);
    final UpfrontRedundancy.Copies<String> fast =
        redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "b", List.of("s1"), HOLDERS);
    assertTrue(fast.isEmpty(), "a primary that wins its races got copies: " + fast);
  }

  @Test
  void zoolanderSendsNoCopyToAHolderTheCopiesWouldSaturate()
  {
    observe("a", 800, 50);
    observe("b", 20, 50);
    final UpfrontRedundancy redundancy = redundancy(1);
    // b's own primaries fill 70% of its one slot: one more copy for each would take it past saturation. One of them
    // asks for copies, so that the others are counted too.
    redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "b", List.of("s1"), HOLDERS);
    for (int i = 0; i < 34; i++) {
      redundancy.copies(UpfrontRedundancy.Mode.OFF, "b", List.of("s1"), HOLDERS);
    }
    redundancy.endPeriod(1, 2);
    final UpfrontRedundancy.Copies<String> copies =
        redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "a", List.of("s1"), HOLDERS);
    assertTrue(copies.isEmpty(), "copied onto a holder at 70% utilisation: " + copies);
  }

  @Test
  void spareCopiesTheShareItsFactorSaysToHoldersWithATokenLeft()
  {
    final UpfrontRedundancy redundancy = redundancy(1);
    assertTrue(redundancy.copies(UpfrontRedundancy.Mode.SPARE, "a", List.of("s1"), HOLDERS).isEmpty(), "r = 1 copies");
    raise(redundancy, 5);
    assertEquals(1.5, redundancy.factor(), 1e-9);
    int copied = 0;
    final int offered = 20;
    for (int i = 0; i < offered; i++) {
      final UpfrontRedundancy.Copies<String> copies =
          redundancy.copies(UpfrontRedundancy.Mode.SPARE, "a", List.of("s1"), HOLDERS);
      if (!copies.isEmpty()) {
        copied++;
        assertEquals(Map.of("b", List.of("s1")), copies.byHolder());
        redundancy.copyDone(copies, "b", 5);
      }
    }
    assertEquals(offered / 2, copied, "r = 1.5 copies half the sub-queries");

    // b has one token: while its copy is out, the next copy of s1 (held by a and b only) has nowhere to go, and s3's
    // goes to c.
    UpfrontRedundancy.Copies<String> holding;
    do {
      holding = redundancy.copies(UpfrontRedundancy.Mode.SPARE, "a", List.of("s1"), HOLDERS);
    } while (holding.isEmpty());
    UpfrontRedundancy.Copies<String> next;
    do {
      next = redundancy.copies(UpfrontRedundancy.Mode.SPARE, "a", List.of("s1", "s3"), HOLDERS);
    } while (next.isEmpty());
    assertEquals(Map.of("c", List.of("s3")), next.byHolder());
    assertEquals(List.of("s1"), next.stranded());
    redundancy.notSent(next, next.byHolder().keySet());
    redundancy.copyDone(holding, "b", 5);
    UpfrontRedundancy.Copies<String> after;
    do {
      after = redundancy.copies(UpfrontRedundancy.Mode.SPARE, "a", List.of("s1", "s3"), HOLDERS);
    } while (after.isEmpty());
    // One copy to b answers for both segments once b's token is back: fewer copies to send.
    assertEquals(Map.of("b", List.of("s1", "s3")), after.byHolder());
  }

  @Test
  void spareStepsDownWhenTheLatenciesHaveNoTail()
  {
    final UpfrontRedundancy redundancy = redundancy(2);
    raise(redundancy, 3);
    final double raised = redundancy.factor();
    assertTrue(raised > 1, "never raised: " + raised);
    for (int period = 0; period < 10; period++) {
      release(redundancy, redundancy.copies(UpfrontRedundancy.Mode.SPARE, "a", List.of("s1"), HOLDERS));
      redundancy.attempted(10);
      redundancy.attempted(10);
      redundancy.answered(null, 10);
      redundancy.endPeriod(1, 3);
    }
    assertEquals(1, redundancy.factor(), 1e-9);
  }

  @Test
  void garbageNeverThrows()
  {
    final UpfrontRedundancy redundancy = redundancy(1);
    redundancy.attempted(Double.NaN);
    redundancy.attempted(-1);
    redundancy.answered(null, Double.NaN);
    assertNull(redundancy.copies(null, null, List.of("s1"), HOLDERS));
    assertTrue(redundancy.copies(UpfrontRedundancy.Mode.ZOOLANDER, "x", List.of("s1"), segment -> null).isEmpty());
    final UpfrontRedundancy.PeriodReport report = redundancy.endPeriod(Double.NaN, -1);
    assertEquals(1, report.factor(), 1e-9);
    assertTrue(Double.isNaN(report.measured()));
  }
}
