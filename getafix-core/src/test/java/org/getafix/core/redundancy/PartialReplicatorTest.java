package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.util.function.DoubleUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartialReplicatorTest
{
  /** Service slots of the tier: e.g. four Historicals with five processing threads each. */
  private static final double CAPACITY = 20;
  private static final double MEAN_SERVICE = 10;
  private static final double VARIABLE = 3;

  /** A p95 that falls as replicas mask the tail until their load makes it rise again, lowest at r = {@code best}. */
  private static DoubleUnaryOperator bowl(double best)
  {
    return r -> 100 * (1 + 4 * (r - best) * (r - best));
  }

  /** Runs periods at the given load, each measuring {@code p95} at the factor in force. */
  private static void periods(PartialReplicator replicator, int count, double rate, DoubleUnaryOperator p95,
                              double variability)
  {
    for (int i = 0; i < count; i++) {
      final double measured = p95.applyAsDouble(replicator.factor());
      replicator.update(new PartialReplicator.Measurement(rate, MEAN_SERVICE, CAPACITY, measured, variability));
    }
  }

  @Test
  void raisesTheFactorUnderVariabilityAtLowLoadUntilItStopsHelping()
  {
    final PartialReplicator replicator = new PartialReplicator(ReplicatorSettings.DEFAULTS);
    assertEquals(1, replicator.factor(), 0);
    // 100/s of 10 ms keep one of 20 slots busy: stability allows far more than r_max.
    periods(replicator, 5, 100, bowl(1.5), VARIABLE);
    assertEquals(1.5, replicator.factor(), 1e-9, "one step per period while the p95 improves");
    periods(replicator, 2, 100, bowl(1.5), VARIABLE);
    assertEquals(1.5, replicator.factor(), 1e-9, "1.6 was worse: back to 1.5");
    periods(replicator, 8, 100, bowl(1.5), VARIABLE);
    assertEquals(1.5, replicator.factor(), 1e-9, "the direction stays closed");
    periods(replicator, 4, 100, bowl(1.8), VARIABLE);
    assertEquals(1.8, replicator.factor(), 1e-9, "re-opened after retryPeriods, it follows a moved optimum");
  }

  @Test
  void lowersTheFactorAsLoadApproachesTheStabilityBound()
  {
    final PartialReplicator replicator = new PartialReplicator(ReplicatorSettings.DEFAULTS);
    final DoubleUnaryOperator improving = r -> 200 / r;
    periods(replicator, 12, 100, improving, VARIABLE);
    assertEquals(2, replicator.factor(), 1e-9, "r_max");
    double previous = replicator.factor();
    for (double rate = 600; rate <= 1800; rate += 200) {
      periods(replicator, 3, rate, improving, VARIABLE);
      final double factor = replicator.factor();
      assertTrue(factor <= previous, "at " + rate + "/s: " + factor);
      // Stability with the 20% margin: λ·r·E[S] ≤ 0.8 × 20 slots, unless replication is already off.
      assertTrue(factor == 1 || rate * factor * MEAN_SERVICE / 1e3 <= 0.8 * CAPACITY + 1e-9, "at " + rate + "/s");
      previous = factor;
    }
    assertEquals(1, replicator.factor(), 0, "beyond the bound even r = 1 is too much: no replication");
    periods(replicator, 1, 1400, improving, VARIABLE);
    assertEquals(1.1, replicator.factor(), 1e-9, "the load falls back: the search starts again");
  }

  @Test
  void noReplicationWithoutVariability()
  {
    final PartialReplicator replicator = new PartialReplicator(ReplicatorSettings.DEFAULTS);
    periods(replicator, 10, 100, r -> 200 / r, 1.2);
    assertEquals(1, replicator.factor(), 0);
    periods(replicator, 4, 100, r -> 200 / r, VARIABLE);
    assertEquals(1.4, replicator.factor(), 1e-9);
    periods(replicator, 1, 100, r -> 200 / r, 1.2);
    assertEquals(1.4, replicator.factor(), 1e-9, "the step under trial is judged first, and it helped");
    periods(replicator, 2, 100, r -> 200 / r, 1.2);
    assertEquals(1.2, replicator.factor(), 1e-9, "the tail is gone: one step down per period");
  }

  @Test
  void aCreditCounterReplicatesExactlyTheFractionEvenly()
  {
    final PartialReplicator replicator = new PartialReplicator(ReplicatorSettings.DEFAULTS);
    periods(replicator, 5, 100, bowl(1.3), VARIABLE);
    assertEquals(1.3, replicator.factor(), 1e-9);
    int extra = 0;
    int sinceLast = 0;
    for (int i = 0; i < 100; i++) {
      final int copies = replicator.copies();
      assertTrue(copies == 1 || copies == 2);
      sinceLast = copies == 2 ? 0 : sinceLast + 1;
      assertTrue(sinceLast < 4, "spread evenly, not bunched");
      extra += copies - 1;
    }
    assertEquals(30, extra);

    final PartialReplicator wide = new PartialReplicator(new ReplicatorSettings(3, 0.5, 0.2, 1.5, 0.02, 10));
    periods(wide, 3, 100, r -> 200 / r, VARIABLE);
    assertEquals(2.5, wide.factor(), 1e-9, "under trial");
    int copies = 0;
    for (int i = 0; i < 10; i++) {
      copies += wide.copies();
    }
    assertEquals(25, copies);
  }

  @Test
  void garbageMeasurementsAreIgnoredAndCounted()
  {
    final PartialReplicator replicator = new PartialReplicator(ReplicatorSettings.DEFAULTS);
    periods(replicator, 3, 100, r -> 200 / r, VARIABLE);
    final double factor = replicator.factor();
    replicator.update(null);
    replicator.update(new PartialReplicator.Measurement(Double.NaN, MEAN_SERVICE, CAPACITY, 100, VARIABLE));
    replicator.update(new PartialReplicator.Measurement(100, -1, CAPACITY, 100, VARIABLE));
    replicator.update(new PartialReplicator.Measurement(100, MEAN_SERVICE, 0, 100, VARIABLE));
    replicator.update(new PartialReplicator.Measurement(100, MEAN_SERVICE, CAPACITY, Double.POSITIVE_INFINITY, 3));
    replicator.update(new PartialReplicator.Measurement(100, MEAN_SERVICE, CAPACITY, 100, Double.NaN));
    assertEquals(6, replicator.ignored());
    assertEquals(factor, replicator.factor(), 0);
  }

  @Test
  void settingsAreValidated()
  {
    assertThrows(IllegalArgumentException.class, () -> new ReplicatorSettings(0.9, 0.1, 0.2, 1.5, 0.02, 10));
    assertThrows(IllegalArgumentException.class, () -> new ReplicatorSettings(2, 0, 0.2, 1.5, 0.02, 10));
    assertThrows(IllegalArgumentException.class, () -> new ReplicatorSettings(2, 0.1, 1, 1.5, 0.02, 10));
    assertThrows(IllegalArgumentException.class, () -> new ReplicatorSettings(2, 0.1, 0.2, 0.5, 0.02, 10));
    assertThrows(IllegalArgumentException.class, () -> new ReplicatorSettings(2, 0.1, 0.2, 1.5, 1, 10));
    assertThrows(IllegalArgumentException.class, () -> new ReplicatorSettings(2, 0.1, 0.2, 1.5, 0.02, 0));
  }
}
