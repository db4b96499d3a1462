package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OnlineFiguresTest
{
  static BudgetLoad.Outcome outcome(int status, long millis, double share)
  {
    return new BudgetLoad.Outcome(1, true, status, millis, share, millis, Double.NaN);
  }

  @Test
  void responseTimesAndCoverageAreOfTheAnsweredQueriesOnly()
  {
    final OnlineFigures figures = OnlineFigures.of(List.of(
        outcome(200, 1000, 1.0),
        outcome(200, 2000, 0.5),
        outcome(500, 30, Double.NaN),
        outcome(-1, 60_000, Double.NaN)
    ));
    assertEquals(4, figures.queries());
    assertEquals(2, figures.answered());
    assertEquals(2, figures.failed());
    assertEquals(1, figures.partial());
    assertEquals(1500, figures.meanMillis(), 1e-9, "the failures' times do not count");
    assertEquals(2000, figures.p99Millis(), 1e-9);
    assertEquals(0.75, figures.meanCoverage(), 1e-12, "a failed query is no answer, not one of quality 0");
  }

  @Test
  void anAnswerWithoutCoverageIsLeftOutOfTheMeanCoverageAndNothingAnsweredGivesNaN()
  {
    final OnlineFigures figures = OnlineFigures.of(List.of(outcome(200, 100, 0.4), outcome(200, 100, Double.NaN)));
    assertEquals(0.4, figures.meanCoverage(), 1e-12);
    assertEquals(1, figures.partial(), "only the one with a coverage below 1 is partial");
    final OnlineFigures none = OnlineFigures.of(List.of(outcome(429, 5, Double.NaN)));
    assertTrue(Double.isNaN(none.meanMillis()) && Double.isNaN(none.p99Millis()) && Double.isNaN(none.meanCoverage()));
  }

  @Test
  void theP99IsTheNearestRank()
  {
    final List<BudgetLoad.Outcome> hundredAndOne = new ArrayList<>();
    for (int i = 1; i <= 101; i++) {
      hundredAndOne.add(outcome(200, i, 1.0));
    }
    assertEquals(100, OnlineFigures.of(hundredAndOne).p99Millis(), 1e-9, "rank ceil(0.99 x 101) = 100");
  }
}
