package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConcurrencyProbeTest
{
  private static ConcurrencyProbe.Level level(int clients, double meanMillis)
  {
    return new ConcurrencyProbe.Level(clients, 30, meanMillis, 2 * meanMillis, clients * 1000 / meanMillis);
  }

  private static ConcurrencyProbe probe(double... meanMillis)
  {
    final List<ConcurrencyProbe.Level> levels = new ArrayList<>();
    for (double m : meanMillis) {
      levels.add(level(levels.size() + 1, m));
    }
    return new ConcurrencyProbe(levels);
  }

  @Test
  void theTargetIsThreeWholeAnswersAloneRoundedUpToTenMilliseconds()
  {
    assertEquals(610, ConcurrencyProbe.targetMillis(level(1, 201)));
    assertEquals(600, ConcurrencyProbe.targetMillis(level(1, 200)));
  }

  @Test
  void theTunedLimitIsTheMostClientsWhoseWholeAnswersMetTheTargetAtItAndBelow()
  {
    final LoadTarget target = new LoadTarget(600, 0.9);
    assertEquals(3, probe(200, 400, 620, 800).tunedLimit(target), "620 ms is within the 5% tolerance of 600");
    assertEquals(1, probe(200, 700, 500).tunedLimit(target), "a later level that meets it again does not count");
    assertEquals(1, probe(700).tunedLimit(target), "never below 1");
    assertEquals(5, probe(200, 400).perSecond(2), 1e-9, "2 clients at 400 ms: 5 per second");
  }

  @Test
  void theProbeGoesOnWhileTheLastLevelMetTheTargetUpToItsMostClients()
  {
    final LoadTarget target = new LoadTarget(600, 0.9);
    assertTrue(probe().goOn(target));
    assertTrue(probe(200, 400).goOn(target));
    assertFalse(probe(200, 400, 700).goOn(target));
    assertFalse(probe(10, 10, 10, 10, 10, 10, 10, 10).goOn(target), "8 clients at most");
    assertThrows(IllegalArgumentException.class, () -> new ConcurrencyProbe(List.of(level(2, 100))));
  }

  @Test
  void aLevelLeavesOutTheStartAndCountsAnswersPerSecondFromIt()
  {
    final List<BudgetLoad.Outcome> outcomes = List.of(
        new BudgetLoad.Outcome(1, true, 200, 900, Double.NaN, 900, Double.NaN),
        new BudgetLoad.Outcome(2, true, 200, 900, Double.NaN, 1000, Double.NaN),
        new BudgetLoad.Outcome(3, true, 200, 100, Double.NaN, 1500, Double.NaN),
        new BudgetLoad.Outcome(4, true, 200, 300, Double.NaN, 2000, Double.NaN),
        new BudgetLoad.Outcome(5, true, 500, 10, Double.NaN, 2500, Double.NaN),
        new BudgetLoad.Outcome(6, true, 200, 900, Double.NaN, 3100, Double.NaN)
    );
    final ConcurrencyProbe.Level level = ConcurrencyProbe.Level.of(2, outcomes, 2, 3000);
    assertEquals(2, level.answered(), "completions 3 and 4; 5 failed, 6 came after the stop");
    assertEquals(200, level.meanMillis(), 1e-9);
    assertEquals(300, level.p99Millis(), 1e-9);
    assertEquals(1.0, level.perSecond(), 1e-9, "2 answers from the 2nd completion at 1 s to the stop at 3 s");
  }
}
