package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadStepTest
{
  /** A query that started at {@code startMillis} of its run and took {@code millis}. */
  private static BudgetLoad.Outcome outcome(int index, int status, long millis, double share, long startMillis)
  {
    return new BudgetLoad.Outcome(index, true, status, millis, share, startMillis + millis, Double.NaN);
  }

  @Test
  void onlyTheQueriesThatStartedInTheWindowCount()
  {
    final LoadStep step = LoadStep.of(4, 2, List.of(
        outcome(1, 200, 100, Double.NaN, 900),
        outcome(2, 200, 300, Double.NaN, 1000),
        outcome(3, 200, 500, Double.NaN, 2999),
        outcome(4, 200, 100, Double.NaN, 3000)
    ), 1000, 3000, Double.NaN, Double.NaN);
    assertEquals(2, step.offered(), "started at 1000 and 2999, not before 1000 nor at 3000");
    assertEquals(400, step.meanMillis(), 1e-9);
    assertEquals(1.0, step.answeredPerSecond(), 1e-9, "2 answered in 2 s");
    assertEquals(4, step.offeredPerSecond());
    assertEquals(2, step.loadFactor());
  }

  @Test
  void qualityCountsEveryQueryOfferedAndResponseTimeOnlyTheAnswered()
  {
    final LoadStep step = LoadStep.of(10, 1, List.of(
        outcome(1, 200, 100, Double.NaN, 0),
        outcome(2, 200, 400, 0.5, 10),
        outcome(3, 429, 2, Double.NaN, 20),
        outcome(4, 500, 50, Double.NaN, 30)
    ), 0, 1000, 250, 0.5);
    assertEquals(4, step.offered());
    assertEquals(2, step.answered());
    assertEquals(1, step.rejected());
    assertEquals(1, step.failed());
    assertEquals(1, step.partial());
    assertEquals((1 + 0.5 + 0 + 0) / 4, step.meanQuality(), 1e-12, "whole 1, partial its share, the rest 0");
    assertEquals(250, step.meanMillis(), 1e-9, "the 2 ms of the one turned away do not count");
    assertEquals(400, step.p99Millis(), 1e-9);
    assertEquals(250, step.budgetMillis());
    assertEquals(0.5, step.splitPerQuery());
  }

  @Test
  void aMeasuredQualityCountsInsteadOfTheAnsweredShare()
  {
    final LoadStep step = LoadStep.of(10, 1, List.of(
        new BudgetLoad.Outcome(1, true, 200, 100, 0.25, 100, 0.95),
        new BudgetLoad.Outcome(2, true, 200, 100, Double.NaN, 110, 1.0),
        new BudgetLoad.Outcome(3, true, 429, 2, Double.NaN, 22, Double.NaN)
    ), 0, 1000, Double.NaN, Double.NaN);
    assertEquals((0.95 + 1 + 0) / 3, step.meanQuality(), 1e-12, "a quarter of the segments, 0.95 of the answer");
    assertEquals(1, step.partial(), "partial is still by coverage");
  }

  @Test
  void theP99IsTheNearestRankOfTheAnswered()
  {
    final List<BudgetLoad.Outcome> hundred = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      hundred.add(outcome(i, 200, i, 1.0, 0));
    }
    assertEquals(99, LoadStep.of(1, 1, hundred, 0, 1000, Double.NaN, Double.NaN).p99Millis(), 1e-9);
    final LoadStep none = LoadStep.of(1, 1, List.of(outcome(1, 429, 1, Double.NaN, 0)), 0, 1000, Double.NaN, Double.NaN);
    assertTrue(Double.isNaN(none.meanMillis()) && Double.isNaN(none.p99Millis()));
    assertEquals(0, none.meanQuality());
  }
}
