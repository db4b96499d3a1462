package org.getafix.core.quality.split;

import org.getafix.core.quality.split.PendingQueriesSplit.Estimate;
import org.getafix.core.quality.split.PendingQueriesSplit.Method;
import org.getafix.core.quality.split.PendingQueriesSplit.Pending;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PendingQueriesSplitTest
{
  private static final double EPS = 1e-9;
  private static final PendingQueriesSplit EQ_RESV = new PendingQueriesSplit(Method.EQ_RESV, 10, 1000);
  private static final PendingQueriesSplit MAX_QUALITY = new PendingQueriesSplit(Method.MAX_QUALITY, 10, 1000);

  /** 90% of the quality from the first 20% of the segments, e.g. a topN whose top rows sit in a few segments. */
  private static final QualityProfile SATURATING = QualityProfile.of(new double[]{0, 0.2, 1}, new double[]{0, 0.9, 1});

  private static Estimate linear(double demand)
  {
    return new Estimate(demand, QualityProfile.LINEAR);
  }

  private static Pending pending(Estimate estimate, double remainingBudget)
  {
    return new Pending(estimate, remainingBudget);
  }

  @Test
  void aLoneQueryGetsTheControllersBudgetWhateverItsClass()
  {
    for (PendingQueriesSplit split : List.of(EQ_RESV, MAX_QUALITY)) {
      for (Estimate estimate : List.of(linear(20), linear(5000), new Estimate(30, SATURATING), new Estimate(Double.NaN, null))) {
        assertEquals(137, split.budget(137, estimate, List.of()), 0, split.method() + " " + estimate);
      }
    }
  }

  @Test
  void underMaxQualityAClassWhoseProfileSaturatesEarlyGetsLessThanALinearOne()
  {
    // b = 100, two linear queries of 300 ms pending with 50 ms left each: B = 300, 200 of it free.
    final List<Pending> others = List.of(pending(linear(300), 50), pending(linear(300), 50));
    // Linear beside linear, same demand: equal thirds of B.
    assertEquals(100, MAX_QUALITY.budget(100, linear(300), others), EPS);
    // Its first 20% (60 ms) buys 0.9 of its quality, more per ms than anything else; the rest buys less per ms than
    // the others' linear profiles, so B's remaining 240 ms go to them.
    assertEquals(60, MAX_QUALITY.budget(100, new Estimate(300, SATURATING), others), EPS);
  }

  @Test
  void underMaxQualityWhatBCoversBeyondEveryDemandIsSpreadEvenly()
  {
    // Demands 50 + 20 + 20 of B = 300: 210 ms to spare, 70 each.
    final List<Pending> others = List.of(pending(linear(20), 10), pending(linear(20), 10));
    assertEquals(120, MAX_QUALITY.budget(100, linear(50), others), EPS);
  }

  @Test
  void eqResvReservesTheOthersDemandsWhereBCoversThem()
  {
    // B = 300 ≥ qLen·w̄ = 3 × 20: the new query gets B − 2 × 20, the others keeping their mean demand in reserve.
    final List<Pending> light = List.of(pending(linear(20), 10), pending(linear(20), 10));
    assertEquals(260, EQ_RESV.budget(100, linear(Double.NaN), light), EPS);
    // It uses no demand of the new query's own.
    assertEquals(260, EQ_RESV.budget(100, linear(5000), light), EPS);
    // B = 300 < 3 × 200: equi-partitioning, the controller's budget.
    final List<Pending> heavy = List.of(pending(linear(200), 10), pending(linear(200), 10));
    assertEquals(100, EQ_RESV.budget(100, linear(20), heavy), EPS);
    // Classes without a measured demand count as needing b: equi-partitioning too.
    final List<Pending> unknown = List.of(pending(linear(Double.NaN), 10), pending(linear(0), 10));
    assertEquals(100, EQ_RESV.budget(100, linear(20), unknown), EPS);
  }

  @Test
  void theNewQueryNeverTakesMoreThanTheOthersLeaveOfB()
  {
    // The same light load, but the others still hold 100 ms each: 100 of B = 300 is free.
    final List<Pending> holding = List.of(pending(linear(20), 100), pending(linear(20), 100));
    assertEquals(100, EQ_RESV.budget(100, linear(20), holding), EPS);
    assertEquals(100, MAX_QUALITY.budget(100, linear(20), holding), EPS);
    // Holding more than B (b fell since they started): the floor, b / 4.
    final List<Pending> over = List.of(pending(linear(20), 400), pending(linear(20), 400));
    assertEquals(25, EQ_RESV.budget(100, linear(20), over), EPS);
    assertEquals(25, MAX_QUALITY.budget(100, linear(20), over), EPS);
  }

  @Test
  void aSplitBudgetStaysWithinAFactorOfTheControllersAndWithinTheBounds()
  {
    // Nine short queries pending with nothing left: EqResv would give 1000 − 9 = 991.
    final List<Pending> nine = Collections.nCopies(9, pending(linear(1), 0));
    assertEquals(400, EQ_RESV.budget(100, linear(20), nine), EPS, "at most 4 b");
    assertEquals(250, new PendingQueriesSplit(Method.EQ_RESV, 10, 250).budget(100, linear(20), nine), EPS, "at most max");
    final List<Pending> full = List.of(pending(linear(20), 1000));
    assertEquals(
        30,
        new PendingQueriesSplit(Method.MAX_QUALITY, 30, 1000).budget(100, linear(20), full),
        EPS,
        "at least min, where b / 4 is below it"
    );
  }

  @Test
  void garbageInputsGiveABudgetWithinTheBounds()
  {
    final double[] numbers = {
        Double.NaN, Double.NEGATIVE_INFINITY, -5, 0, 1e-9, 7, 100, 5e5, Double.POSITIVE_INFINITY
    };
    for (PendingQueriesSplit split : List.of(EQ_RESV, MAX_QUALITY)) {
      for (double b : numbers) {
        for (double demand : numbers) {
          for (double remaining : numbers) {
            final List<Pending> others = List.of(pending(linear(demand), remaining), pending(new Estimate(demand, null), 50));
            final double budget = split.budget(b, new Estimate(demand, SATURATING), others);
            final String inputs = split.method() + " b=" + b + " demand=" + demand + " remaining=" + remaining;
            assertTrue(budget >= 10 && budget <= 1000, inputs + " gave " + budget);
            if (b >= 10 && b <= 1000) {
              assertTrue(budget >= Math.max(10, b / 4) && budget <= Math.min(1000, 4 * b), inputs + " gave " + budget);
            }
          }
        }
        final double alone = Double.isFinite(b) && b > 0 ? Math.max(10, Math.min(1000, b)) : 10;
        assertEquals(alone, split.budget(b, linear(20), List.of()), EPS, "alone, b=" + b);
      }
    }
  }

  @Test
  void badSettingsFailAtConstruction()
  {
    assertThrows(IllegalArgumentException.class, () -> new PendingQueriesSplit(null, 10, 100));
    assertThrows(IllegalArgumentException.class, () -> new PendingQueriesSplit(Method.EQ_RESV, 0, 100));
    assertThrows(IllegalArgumentException.class, () -> new PendingQueriesSplit(Method.EQ_RESV, 10, 5));
    assertThrows(IllegalArgumentException.class, () -> new PendingQueriesSplit(Method.EQ_RESV, 10, Double.NaN));
  }
}
