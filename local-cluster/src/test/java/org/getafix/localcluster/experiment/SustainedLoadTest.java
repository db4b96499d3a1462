package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SustainedLoadTest
{
  private static final LoadTarget TARGET = new LoadTarget(1000, 0.9);

  /** A step at {@code rate} queries per second (a tenth of it the load factor). */
  static LoadStep step(double rate, double meanMillis, double quality)
  {
    return new LoadStep(rate, rate / 10, 100, 100, 0, 0, 0, meanMillis, 2 * meanMillis, quality, rate, Double.NaN, Double.NaN);
  }

  @Test
  void theResponseTimeMayExceedTheTargetByItsToleranceOnly()
  {
    assertTrue(TARGET.timely(1050));
    assertFalse(TARGET.timely(1051));
    assertFalse(TARGET.timely(Double.NaN), "nothing answered is not timely");
    assertTrue(TARGET.good(0.9));
    assertFalse(TARGET.good(Double.NaN), "nothing offered is not good");
    assertTrue(TARGET.meets(step(1, 1000, 0.95)));
    assertFalse(TARGET.meets(step(1, 1000, 0.85)));
    assertThrows(IllegalArgumentException.class, () -> new LoadTarget(0, 0.9));
    assertThrows(IllegalArgumentException.class, () -> new LoadTarget(100, 1.5));
  }

  @Test
  void aQualityMissIsInterpolatedBetweenTheLastGoodStepAndIt()
  {
    final SustainedLoad sustained = SustainedLoad.of(
        List.of(step(20, 900, 0.8), step(10, 500, 1.0), step(30, 950, 0.5)), TARGET
    );
    assertEquals(15, sustained.queriesPerSecond(), 1e-9, "quality 1.0 at 10/s, 0.8 at 20/s: 0.9 halfway");
    assertEquals(1.5, sustained.loadFactor(), 1e-9);
    assertEquals(SustainedLoad.QUALITY, sustained.limitedBy());
  }

  @Test
  void aResponseTimeMissEndsAtTheLastGoodStep()
  {
    final SustainedLoad sustained = SustainedLoad.of(List.of(step(10, 500, 1.0), step(20, 1200, 0.99)), TARGET);
    assertEquals(10, sustained.queriesPerSecond(), 1e-9);
    assertEquals(SustainedLoad.RESPONSE_TIME, sustained.limitedBy());
    final SustainedLoad both = SustainedLoad.of(List.of(step(10, 500, 1.0), step(20, 1200, 0.5)), TARGET);
    assertEquals(10, both.queriesPerSecond(), 1e-9, "missing both, no interpolation");
    assertEquals(SustainedLoad.RESPONSE_TIME, both.limitedBy());
  }

  @Test
  void aLowerStepThatMissesCountsEvenIfAHigherOneMeets()
  {
    final SustainedLoad sustained = SustainedLoad.of(List.of(step(10, 1200, 1.0), step(20, 500, 1.0)), TARGET);
    assertEquals(0, sustained.queriesPerSecond());
    assertEquals(SustainedLoad.RESPONSE_TIME, sustained.limitedBy());
    assertEquals(SustainedLoad.QUALITY, SustainedLoad.of(List.of(step(10, 500, 0.5)), TARGET).limitedBy());
  }

  @Test
  void aSweepWhoseTopMeetsBothIsALowerBound()
  {
    final SustainedLoad sustained = SustainedLoad.of(List.of(step(10, 500, 1.0), step(20, 900, 0.95)), TARGET);
    assertEquals(20, sustained.queriesPerSecond(), 1e-9);
    assertEquals(2, sustained.loadFactor(), 1e-9);
    assertEquals(SustainedLoad.NONE, sustained.limitedBy());
    assertEquals(0, SustainedLoad.of(List.of(), TARGET).queriesPerSecond());
  }

  @Test
  void aStepWithNothingInItsWindowEndsTheLoadAtTheStepBefore()
  {
    final LoadStep empty = new LoadStep(20, 2, 0, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN);
    final SustainedLoad sustained = SustainedLoad.of(List.of(step(10, 500, 1.0), empty), TARGET);
    assertEquals(10, sustained.queriesPerSecond(), 1e-9);
    assertEquals(SustainedLoad.RESPONSE_TIME, sustained.limitedBy(), "nothing answered: its response time is missing");
  }

  @Test
  void measuredQualitySustainsALoadThatTheAnsweredShareWouldNot()
  {
    // At 20/s half the answers read half of their segments, each worth 0.96 measured: 0.98 by measure, 0.75 by share.
    final List<BudgetLoad.Outcome> atTwenty = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      atTwenty.add(new BudgetLoad.Outcome(i + 1, true, 200, 800, i % 2 == 0 ? 0.5 : 1, 50L * i + 800,
                                          i % 2 == 0 ? 0.96 : 1));
    }
    final List<BudgetLoad.Outcome> byShare = atTwenty.stream()
                                                     .map(o -> new BudgetLoad.Outcome(
                                                         o.index(), true, o.status(), o.millis(), o.answeredShare(),
                                                         o.endMillis(), Double.NaN))
                                                     .toList();
    final LoadStep measured = LoadStep.of(20, 2, atTwenty, 0, 1000, Double.NaN, Double.NaN);
    final LoadStep shared = LoadStep.of(20, 2, byShare, 0, 1000, Double.NaN, Double.NaN);
    assertEquals(0.98, measured.meanQuality(), 1e-9);
    assertEquals(0.75, shared.meanQuality(), 1e-9);
    assertEquals(20, SustainedLoad.of(List.of(step(10, 500, 1), measured), TARGET).queriesPerSecond(), 1e-9);
    final SustainedLoad byCoverage = SustainedLoad.of(List.of(step(10, 500, 1), shared), TARGET);
    assertEquals(10 + 10 * (1 - 0.9) / (1 - 0.75), byCoverage.queriesPerSecond(), 1e-9);
    assertEquals(SustainedLoad.QUALITY, byCoverage.limitedBy());
  }
}
