package org.getafix.demo;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BudgetedBenchTest
{
  private static final long TARGET_MS = 1000;

  @Test
  void sharesAreOfTheQueriesSentAndQualityOfTheMatureRuns()
  {
    final BudgetedBench.Figures budgeted = BudgetedBench.Figures.of(BudgetedBench.BUDGETED, TARGET_MS, List.of(
        new BudgetedBench.Answer(200, 990, 0.7, 0.7),
        new BudgetedBench.Answer(200, 1050, 0.6, 0.5),
        new BudgetedBench.Answer(200, 1200, 1.0, 1.0),
        new BudgetedBench.Answer(200, 800, 1.0, Double.NaN)
    ));
    assertEquals(1.0, budgeted.answered());
    assertEquals(0.5, budgeted.withinTarget(), "990 and 800 ms of a 1,000 ms target");
    assertEquals(0.75, budgeted.withinTenPercentOver(), "and 1,050 ms");
    assertEquals(0.825, budgeted.meanCoverage(), 1e-12);
    assertEquals(2.2 / 3, budgeted.meanQuality(), 1e-12, "the three measured mature runs");
    assertEquals(0.5, budgeted.p10Quality(), "the lowest of three by nearest rank");

    final BudgetedBench.Figures stock = BudgetedBench.Figures.of(BudgetedBench.STOCK, TARGET_MS, List.of(
        new BudgetedBench.Answer(504, 1003, Double.NaN, Double.NaN),
        new BudgetedBench.Answer(200, 700, Double.NaN, Double.NaN)
    ));
    assertEquals(0.5, stock.answered(), "a timeout is no answer");
    assertEquals(0.5, stock.withinTarget());
    assertTrue(Double.isNaN(stock.meanCoverage()) && Double.isNaN(stock.meanQuality()), "stock states no coverage");
  }

  @Test
  void theRatiosAreTheBudgetedOverStockWithinEachRepetition()
  {
    final BudgetedBench.Figures stock = new BudgetedBench.Figures(BudgetedBench.STOCK, 0.5, 0.25, 0.25, 1000, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    final BudgetedBench.Figures budgeted = new BudgetedBench.Figures(BudgetedBench.BUDGETED, 1, 0.75, 1, 900, 0.7, 0.7, 0.6, 0.5, Double.NaN, Double.NaN);
    final List<AbbaComparison.Repetition<BudgetedBench.Figures>> repetitions = List.of(
        new AbbaComparison.Repetition<>(List.of(stock, budgeted)),
        new AbbaComparison.Repetition<>(List.of(budgeted, stock))
    );
    final RepetitionsReport.Measure meanTime = BudgetedBench.Variant.TIMEOUT.comparison.ratios(repetitions).get(0);
    assertEquals("mean response time", meanTime.name());
    assertEquals(List.of(0.9, 0.9), meanTime.values());
    assertEquals(0.75, BudgetedBench.Variant.TIMEOUT.comparison.figures(repetitions).stream()
                                                 .filter(m -> m.name().equals("budgeted: answered within T"))
                                                 .findFirst().orElseThrow().median());
    assertTrue(BudgetedBench.html(BudgetedBench.Variant.TIMEOUT, "a setup", repetitions).contains("a setup"));
  }

  @Test
  void theHedgedVariantComparesHedgedWithUnhedgedBudgetsOnTwoReplicas()
  {
    final BudgetedBench.Variant hedging = BudgetedBench.Variant.HEDGING;
    assertEquals("hedged", hedging.comparison.experiment());
    assertEquals(List.of(BudgetedBench.BUDGETED, BudgetedBench.HEDGED), hedging.comparison.setups());
    assertEquals(2, hedging.replicas);
    assertEquals("true", hedging.broker.get("druid.getafix.quality.hedging"), "the Broker hedges");
    assertTrue(BudgetedBench.Variant.TIMEOUT.broker.isEmpty(), "the timeout variant keeps the Broker as started");
    assertEquals("getafix_hedged", hedging.dataSource());

    final BudgetedBench.Figures unhedged = new BudgetedBench.Figures(BudgetedBench.BUDGETED, 1, 0.5, 1, 1100, 0.7, 0.7, 0.6, 0.5, 0, 0);
    final BudgetedBench.Figures hedged = new BudgetedBench.Figures(BudgetedBench.HEDGED, 1, 1, 1, 880, 1, 1, 1, 1, 0.3, 0.25);
    final List<AbbaComparison.Repetition<BudgetedBench.Figures>> repetitions = List.of(
        new AbbaComparison.Repetition<>(List.of(unhedged, hedged)),
        new AbbaComparison.Repetition<>(List.of(hedged, unhedged))
    );
    assertEquals(List.of(0.8, 0.8), hedging.comparison.ratios(repetitions).get(0).values(), "hedged over unhedged");
    assertTrue(BudgetedBench.html(hedging, "a setup", repetitions).contains("with and without hedged sub-queries"));
  }

  @Test
  void theHedgedVariantOnGetafixHsPlanKeepsTheSetupsButNotThePlacementOrTheHedgeRatio()
  {
    final BudgetedBench.Variant planned = BudgetedBench.Variant.HEDGING_PLANNED;
    assertEquals("hedged-getafix", planned.comparison.experiment());
    assertEquals(BudgetedBench.Variant.HEDGING.comparison.setups(), planned.comparison.setups());
    final Map<String, String> stockPlacementBroker = new HashMap<>(BudgetedBench.Variant.HEDGING.broker);
    assertEquals(String.valueOf(BudgetedBench.HEDGE_RATIO), stockPlacementBroker.remove("druid.getafix.quality.hedgeRatio"));
    assertEquals(stockPlacementBroker, planned.broker, "the same Broker at the default hedgeRatio");
    assertTrue(planned.plannedByGetafix);
    assertFalse(BudgetedBench.Variant.HEDGING.plannedByGetafix);
    assertEquals(1, planned.replicas, "Getafix-H's floor");
    assertTrue(LiveBench.EXPERIMENTS.contains(planned.comparison.experiment()));
  }

  @Test
  void aPlanAroundTheStragglerIsDoneOnlyWhenFoundRealisedAndNothingIsOnItAlone()
  {
    assertTrue(new BudgetedBench.PlanAroundStraggler(true, true, 130, 40, 0).done());
    assertFalse(new BudgetedBench.PlanAroundStraggler(true, true, 130, 40, 1).done(), "a segment on it alone");
    assertFalse(new BudgetedBench.PlanAroundStraggler(false, true, 130, 40, 0).done(), "not found");
    assertFalse(new BudgetedBench.PlanAroundStraggler(true, false, 130, 40, 0).done(), "not realised");
    assertTrue(new BudgetedBench.PlanAroundStraggler(true, true, 130, 40, 0).toString().contains("40 segments on"));
  }

  @Test
  void theReactionGivesEachSetupsQueriesApart()
  {
    final String text = BudgetedBench.reaction(true, 14, 95, 1000, Map.of(
        BudgetedBench.BUDGETED, List.of(
            new BudgetedBench.ReactingAnswer(new BudgetedBench.Answer(200, 900, 0.7, 0.7), true),
            new BudgetedBench.ReactingAnswer(new BudgetedBench.Answer(200, 1100, 0.6, 0.6), false)
        ),
        BudgetedBench.HEDGED, List.of(new BudgetedBench.ReactingAnswer(new BudgetedBench.Answer(200, 400, 1, 1), false))
    ));
    assertTrue(
        text.startsWith("Getafix-H had planned around the straggler 95 s after the throttle; the queries from 14 s"),
        text
    );
    assertTrue(text.contains("budgeted 2 sent, 50% within T, mean quality 0.650, p10 0.600 ("), text);
    assertTrue(text.contains("(1 while the straggler held segments alone, 100% within T, mean quality 0.700, p10 0.700; "
                             + "1 after, 0% within T, mean quality 0.600, p10 0.600);"), text);
    assertTrue(text.endsWith("hedged 1 sent, 100% within T, mean quality 1.000, p10 1.000 (none while the straggler held "
                             + "segments alone; 1 after, 100% within T, mean quality 1.000, p10 1.000)"), text);
  }
}
