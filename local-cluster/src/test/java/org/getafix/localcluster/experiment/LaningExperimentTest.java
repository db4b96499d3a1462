package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaningExperimentTest
{
  @Test
  void theRatesAreTheLoadFactorsTimesTheReferenceAsFarAsTheBrokerTakesThemInFlight()
  {
    final LaningExperiment.Settings settings = LaningExperiment.Settings.standard(false, "NONE", LaningWorkload.HOURLY, "x-");
    assertEquals(List.of(0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0), settings.loadFactors());
    assertEquals(List.of(2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0), settings.rates(4, 500), "12/s x 0.5 s = 6 in flight");
    assertEquals(List.of(2.0, 3.0, 4.0, 5.0, 6.0, 8.0), settings.rates(4, 1000), "10/s x 1 s = 10 in flight: too many");
    assertEquals(List.of(20.0), settings.rates(40, 1000), "the first load always");
  }

  @Test
  void quickRunsCoarserAndShorterSteps()
  {
    final LaningExperiment.Settings quick = LaningExperiment.Settings.standard(true, "EQ_RESV", LaningWorkload.HOURLY, "x-");
    final LaningExperiment.Settings full = LaningExperiment.Settings.standard(false, "EQ_RESV", LaningWorkload.HOURLY, "x-");
    assertEquals(List.of(0.5, 1.0, 1.5, 2.0, 3.0), quick.loadFactors());
    assertEquals(Duration.ofSeconds(8), quick.measure());
    assertEquals(Duration.ofSeconds(20), full.measure());
    assertEquals(Duration.ofSeconds(20), full.leadIn(), "the first load settles longer than the others");
    assertEquals(Duration.ofSeconds(10), full.settle());
  }

  @Test
  void badSettingsAreRefused()
  {
    assertThrows(IllegalArgumentException.class, () -> settings(List.of(1.0, 1.0), "NONE"));
    assertThrows(IllegalArgumentException.class, () -> settings(List.of(), "NONE"));
    assertThrows(IllegalArgumentException.class, () -> settings(List.of(1.0), "MINMRT"));
  }

  private static LaningExperiment.Settings settings(List<Double> factors, String split)
  {
    return new LaningExperiment.Settings(
        factors, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), 5, Duration.ofSeconds(1), split,
        LaningWorkload.HOURLY, ""
    );
  }

  @Test
  void theBrokerLimitsTheStockLaneAndControlsTheOtherAtTheTarget()
  {
    final ConcurrencyProbe probe = new ConcurrencyProbe(List.of(new ConcurrencyProbe.Level(1, 30, 200, 300, 5)));
    final LaningExperiment.Calibration calibration =
        new LaningExperiment.Calibration(probe, new LoadTarget(600, 0.9), 3, 5, Map.of(), List.of());
    final Map<String, String> properties =
        LaningExperiment.brokerProperties(calibration, "MAX_QUALITY", LaningWorkload.HOURLY);
    assertEquals("manual", properties.get("druid.query.scheduler.laning.strategy"));
    assertEquals("3", properties.get("druid.query.scheduler.laning.lanes.stock"));
    assertEquals("[\"getafix\"]", properties.get("druid.getafix.quality.controlledLanes"));
    assertEquals("600", properties.get("druid.getafix.quality.targetResponseTimeMs"));
    assertEquals("HYBRID", properties.get("druid.getafix.quality.controlMode"));
    assertEquals("MAX_QUALITY", properties.get("druid.getafix.quality.budgetSplit"));
    assertEquals("0", properties.get("druid.getafix.quality.matureSampleRate"), "the hourly profile is linear");
  }

  @Test
  void theBrokerRunsMatureRunsOnlyForASplitOfTheConcaveWorkload()
  {
    final LaningExperiment.Calibration calibration = new LaningExperiment.Calibration(
        new ConcurrencyProbe(List.of(new ConcurrencyProbe.Level(1, 30, 200, 300, 5))), new LoadTarget(600, 0.9), 3, 5,
        Map.of(), List.of()
    );
    assertEquals(
        String.valueOf(LaningExperiment.MATURE_SAMPLE_RATE_FOR_SPLIT),
        LaningExperiment.brokerProperties(calibration, "EQ_RESV", LaningWorkload.CONCAVE)
                        .get("druid.getafix.quality.matureSampleRate")
    );
    assertEquals(
        "0",
        LaningExperiment.brokerProperties(calibration, "NONE", LaningWorkload.CONCAVE)
                        .get("druid.getafix.quality.matureSampleRate"),
        "without a split nothing reads the profiles"
    );
  }

  @Test
  void splitSubQueriesAreCountedPerBudgetedQueryOfTheStep() throws Exception
  {
    final ObjectMapper json = new ObjectMapper();
    assertEquals(
        0.75,
        LaningExperiment.splitPerQuery(
            json.readTree("{\"budgetedQueries\": 100, \"subQueriesSplit\": 40}"),
            json.readTree("{\"budgetedQueries\": 140, \"subQueriesSplit\": 70}")
        )
    );
    assertTrue(
        Double.isNaN(LaningExperiment.splitPerQuery(
            json.readTree("{\"budgetedQueries\": 5}"), json.readTree("{\"budgetedQueries\": 5}")
        )),
        "no budgeted query in the step"
    );
  }
}
