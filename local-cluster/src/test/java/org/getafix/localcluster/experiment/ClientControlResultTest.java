package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ClientControlResultTest
{
  private static final long TARGET = 400;

  @Test
  void settlingCountsIntervalsUntilTheWindowedMeanStaysInTheBand()
  {
    // Five intervals far above T, then on it: the 5-interval window is within 5% only once it holds no high one, at
    // the tenth interval, so nine were outside.
    final List<Double> after = new ArrayList<>(List.of(800.0, 800.0, 800.0, 800.0, 800.0));
    for (int i = 0; i < 10; i++) {
      after.add(400.0);
    }
    assertEquals(9, ClientControlResult.settlingIntervals(after, TARGET));
    assertEquals(0, ClientControlResult.settlingIntervals(List.of(400.0, 410.0, 390.0), TARGET), "never left");
  }

  @Test
  void singleNoisyIntervalsAreSmoothedButAWindowOutsideTheBandIsNot()
  {
    // 440 and 360 alternate: each is 10% off, every window of them within 2%.
    final List<Double> alternating = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      alternating.add(i % 2 == 0 ? 440.0 : 360.0);
    }
    assertEquals(1, ClientControlResult.settlingIntervals(alternating, TARGET), "the first window is 440 alone");
    final List<Double> drifting = List.of(400.0, 400.0, 400.0, 400.0, 400.0, 450.0, 450.0, 450.0);
    assertNull(ClientControlResult.settlingIntervals(drifting, TARGET), "the last window is 430, 7.5% off");
    assertNull(ClientControlResult.settlingIntervals(List.of(), TARGET));
  }

  /** Query {@code index} sent at {@code startMillis}, answered (or not) after {@code millis}. */
  private static BudgetLoad.Outcome outcome(int index, int status, long millis, long startMillis)
  {
    return new BudgetLoad.Outcome(index, true, status, millis, 1, startMillis + millis, Double.NaN);
  }

  @Test
  void queriesBelongToThePhaseTheyWereSentInAndIntervalsToTheirCompletionOrder()
  {
    final List<BudgetLoad.Outcome> outcomes = new ArrayList<>();
    int index = 0;
    // 10 queries sent before the step at 10 s, of 200 ms, one of them answered after it.
    for (int i = 0; i < 10; i++) {
      outcomes.add(outcome(++index, 200, 200, i == 9 ? 9_900 : 1_000 * i));
    }
    // 25 sent after it: 20 answered (two intervals, at 800 ms then 400 ms), 1 failed, 4 left in a partial interval.
    for (int i = 0; i < 10; i++) {
      outcomes.add(outcome(++index, 200, 800, 10_000 + i));
    }
    outcomes.add(outcome(++index, 500, 5, 10_050));
    for (int i = 0; i < 14; i++) {
      outcomes.add(outcome(++index, 200, 400, 11_000 + i));
    }
    final List<BudgetLoad.Snapshot> budgets = List.of(
        new BudgetLoad.Snapshot(10, 2_000, new double[]{900, 0}),
        new BudgetLoad.Snapshot(20, 6_000, new double[]{1_000, 0}),
        new BudgetLoad.Snapshot(30, 16_000, new double[]{600, 380}),
        new BudgetLoad.Snapshot(40, 19_000, new double[]{400, 360})
    );
    final ClientControlResult result = ClientControlResult.of(outcomes, budgets, 10_000, 20_000, TARGET);
    assertEquals(List.of(200.0), result.intervalsBefore(), "the query answered after the step was sent before it");
    assertEquals(List.of(800.0, 400.0), result.intervalsAfter(), "the failed query counts in no interval");
    assertEquals(0, result.rtErrorAfter(), 1e-12, "the late half is the 400 ms interval");
    assertEquals(0, result.windowNoise(), 1e-12, "whose answers all took 400 ms");
    assertNull(result.settlingIntervals(), "the last window is 600 ms");
    assertEquals(1, result.failed());
    assertEquals(1_000, result.budgetBefore(), 1e-12, "the late half of the time before the step: 5 s on");
    assertEquals(500, result.budgetAfter(), 1e-12, "15 s on");
    assertEquals(0.5, result.budgetRatio(), 1e-12);
    assertEquals(370, result.estimateAfter(), 1e-12, "the controller's estimate, 15 s on");
    assertEquals(List.of(800L, 400L), result.figures().get("meanRtMsAfterStep"));
  }

  /**
   * The late half's answers alternate 300 and 500 ms: their standard deviation is 105.4 ms, and a window of 50 such
   * answers has a mean that wanders by 105.4 / √50 = 14.9 ms, 3.7% of T, against a band of 5%.
   */
  @Test
  void theWindowsNoiseIsTheStandardErrorOfItsMeanFromTheLateAnswersSpread()
  {
    final List<BudgetLoad.Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      outcomes.add(outcome(i, 200, 900, 10_000 + i));
    }
    for (int i = 10; i < 20; i++) {
      outcomes.add(outcome(i, 200, i % 2 == 0 ? 300 : 500, 11_000 + i));
    }
    final ClientControlResult result = ClientControlResult.of(outcomes, List.of(), 10_000, 20_000, TARGET);
    final double deviation = Math.sqrt(10 * 100.0 * 100.0 / 9);
    assertEquals(deviation / Math.sqrt(50) / TARGET, result.windowNoise(), 1e-12);
    assertEquals(0.037, result.windowNoise(), 0.001);
  }
}
