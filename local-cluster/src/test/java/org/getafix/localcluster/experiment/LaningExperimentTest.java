package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.DruidRole;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.getafix.core.redundancy.SubQuerySplit.Trigger.ALWAYS;
import static org.getafix.core.redundancy.SubQuerySplit.Trigger.LATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaningExperimentTest
{
  private static final LaningExperiment.Calibration CALIBRATION = new LaningExperiment.Calibration(
      new ConcurrencyProbe(List.of(new ConcurrencyProbe.Level(1, 30, 200, 300, 5))), new LoadTarget(600, 0.9), 3, 5,
      Map.of(), List.of()
  );

  @Test
  void theRatesAreTheLoadFactorsTimesTheReferenceAsFarAsTheBrokerTakesThemInFlight()
  {
    final LaningExperiment.Settings settings = LaningExperiment.Settings.standard(false, "NONE", LATE, LaningWorkload.HOURLY, "x-");
    assertEquals(List.of(0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0), settings.loadFactors());
    assertEquals(List.of(2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0), settings.rates(4, 500), "12/s x 0.5 s = 6 in flight");
    assertEquals(List.of(2.0, 3.0, 4.0, 5.0, 6.0, 8.0), settings.rates(4, 1000), "10/s x 1 s = 10 in flight: too many");
    assertEquals(List.of(20.0), settings.rates(40, 1000), "the first load always");
  }

  @Test
  void quickRunsCoarserAndShorterSteps()
  {
    final LaningExperiment.Settings quick = LaningExperiment.Settings.standard(true, "EQ_RESV", LATE, LaningWorkload.HOURLY, "x-");
    final LaningExperiment.Settings full = LaningExperiment.Settings.standard(false, "EQ_RESV", LATE, LaningWorkload.HOURLY, "x-");
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
    assertThrows(NullPointerException.class, () -> settings(List.of(1.0), "NONE", null, LaningWorkload.HOURLY));
  }

  private static LaningExperiment.Settings settings(List<Double> factors, String split)
  {
    return settings(factors, split, LATE, LaningWorkload.HOURLY);
  }

  private static LaningExperiment.Settings settings(
      List<Double> factors,
      String split,
      SubQuerySplit.Trigger splitWhen,
      LaningWorkload workload
  )
  {
    return new LaningExperiment.Settings(
        factors, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), 5, Duration.ofSeconds(1), split,
        splitWhen, workload, ""
    );
  }

  private static Map<String, String> brokerProperties(
      String split,
      SubQuerySplit.Trigger splitWhen,
      LaningWorkload workload
  )
  {
    return LaningExperiment.brokerProperties(CALIBRATION, settings(List.of(1.0), split, splitWhen, workload), 3);
  }

  @Test
  void theBrokerLimitsTheStockLaneAndControlsTheOtherAtTheTarget()
  {
    final Map<String, String> properties = brokerProperties("MAX_QUALITY", LATE, LaningWorkload.HOURLY);
    assertEquals("manual", properties.get("druid.query.scheduler.laning.strategy"));
    assertEquals("3", properties.get("druid.query.scheduler.laning.lanes.stock"));
    assertEquals("[\"getafix\"]", properties.get("druid.getafix.quality.controlledLanes"));
    assertEquals("600", properties.get("druid.getafix.quality.targetResponseTimeMs"));
    assertEquals("HYBRID", properties.get("druid.getafix.quality.controlMode"));
    assertEquals("MAX_QUALITY", properties.get("druid.getafix.quality.budgetSplit"));
    assertEquals("0", properties.get("druid.getafix.quality.matureSampleRate"), "the hourly profile is linear");
    assertEquals("LATE", properties.get("druid.getafix.quality.splitWhen"));
    assertNull(properties.get("druid.broker.http.numConnections"), "the launcher's connections");
    assertNull(properties.get("druid.getafix.quality.readerThreads"), "the quality monitor's reader threads");
  }

  @Test
  void splittingAlwaysGivesTheBrokerAConnectionAndAReaderThreadForEachPart()
  {
    final Map<String, String> properties = brokerProperties("NONE", ALWAYS, LaningWorkload.CONCAVE);
    assertEquals("ALWAYS", properties.get("druid.getafix.quality.splitWhen"));
    assertEquals(String.valueOf(LaningExperiment.SPLIT_ALWAYS_CONNECTIONS), properties.get("druid.broker.http.numConnections"));
    assertTrue(LaningExperiment.SPLIT_ALWAYS_CONNECTIONS > LocalDruidCluster.BROKER_CONNECTIONS);
    assertEquals(
        String.valueOf(3 * LaningExperiment.SPLIT_ALWAYS_CONNECTIONS),
        properties.get("druid.getafix.quality.readerThreads"),
        "one for each connection to the 3 Historicals"
    );
    assertEquals("manual", properties.get("druid.query.scheduler.laning.strategy"), "the lanes as without");
    assertEquals("0", properties.get("druid.getafix.quality.matureSampleRate"));
  }

  @Test
  void theHistoricalsServeEveryPartTheBrokerMaySendThemAtOnce()
  {
    assertEquals(
        Map.of("druid.server.http.numThreads", String.valueOf(LaningExperiment.HISTORICAL_HTTP_THREADS)),
        LaningExperiment.HISTORICAL_PROPERTIES
    );
    assertTrue(LaningExperiment.HISTORICAL_HTTP_THREADS >= LaningExperiment.SPLIT_ALWAYS_CONNECTIONS);
    final ClusterConfig.Builder cluster = ClusterConfig.builder().workDir(Path.of("target/laning-test"));
    assertEquals(LocalDruidCluster.HISTORICAL_HTTP_THREADS, LaningExperiment.historicalHttpThreads(cluster.build()));
    LaningExperiment.HISTORICAL_PROPERTIES.forEach((key, value) -> cluster.property(DruidRole.HISTORICAL, key, value));
    assertEquals(32, LaningExperiment.historicalHttpThreads(cluster.build()));
  }

  @Test
  void theSetupSaysHowSubQueriesAreSplitAndWhatBoundsTheirParts()
  {
    final String always = LaningExperiment.splitting(ALWAYS, 3, 32);
    assertTrue(always.startsWith("every budgeted sub-query split into parts at descending priority (splitWhen ALWAYS"), always);
    assertTrue(always.contains("the Broker's 24 connections to the Historical are free, raised from the launcher's 10"), always);
    assertTrue(always.contains("72 reader threads"), always);
    assertTrue(always.contains("the Historicals serve 32 requests at once (druid.server.http.numThreads; the launcher sets 10) "
                               + "and queue the rest first come, first served, before the parts' priorities count"), always);
    final String late = LaningExperiment.splitting(LATE, 3, 10);
    assertTrue(late.contains("only to a Historical expected to miss the deadline (splitWhen LATE, the Broker's 10 connections"), late);
    assertTrue(late.contains("the Historicals serve 10 requests at once"), late);
  }

  @Test
  void theBrokerRunsMatureRunsOnlyForASplitOfTheConcaveWorkload()
  {
    assertEquals(
        String.valueOf(LaningExperiment.MATURE_SAMPLE_RATE_FOR_SPLIT),
        brokerProperties("EQ_RESV", LATE, LaningWorkload.CONCAVE).get("druid.getafix.quality.matureSampleRate")
    );
    assertEquals(
        "0",
        brokerProperties("NONE", ALWAYS, LaningWorkload.CONCAVE).get("druid.getafix.quality.matureSampleRate"),
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
