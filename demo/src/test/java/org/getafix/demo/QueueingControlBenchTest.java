package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.localcluster.experiment.ClientControlResult;
import org.getafix.localcluster.experiment.ConcurrencyProbe;
import org.getafix.localcluster.experiment.QueueingCalibration;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueueingControlBenchTest
{
  private static final ConcurrencyProbe PROBE = new ConcurrencyProbe(List.of(
      new ConcurrencyProbe.Level(1, 30, 130, 200, 7.7),
      new ConcurrencyProbe.Level(2, 30, 200, 300, 10),
      new ConcurrencyProbe.Level(3, 30, 450, 700, 12)
  ));
  private static final QueueingCalibration CALIBRATION = QueueingCalibration.of(PROBE);
  /** On target and settled at once; 8% off and never settled. */
  private static final List<ClientControlResult> RESULTS = List.of(
      new ClientControlResult(List.of(300.0, 320.0), List.of(390.0, 392.0, 388.0, 390.0), 390, 0.0, 0, 0.02, 900, 450, 385, 0),
      new ClientControlResult(List.of(300.0), List.of(421.2, 421.2), 390, 0.08, null, 0.03, 900, 600, 380, 2)
  );

  @Test
  void eachRunIsJudgedOnTheClientsResponseTimesByTheControlGoal()
  {
    final List<ControlBench.Run> runs = QueueingControlBench.runs(RESULTS);
    assertTrue(runs.get(0).goalMet());
    assertEquals(0.5, runs.get(0).budgetRatio(), 1e-12);
    assertTrue(Double.isNaN(runs.get(1).settlingIntervals()), "did not settle");
    assertEquals(1, ControlBench.goalsMet(runs));
  }

  @Test
  void theResultsHoldTheGoalTheCalibrationAndEveryRunsIntervals() throws Exception
  {
    final JsonNode json = new ObjectMapper().readTree(
        QueueingControlBench.json("setup", PROBE, CALIBRATION, 60, RESULTS).toString()
    );
    assertEquals("live-bench-control-queueing", json.path("experiment").asText());
    assertEquals(1, json.path("goal").path("metInRuns").asInt());
    assertEquals("client-side", json.path("goal").path("measured").asText());
    assertEquals(390, json.path("calibration").path("targetMs").asLong());
    assertEquals(1.3, json.path("calibration").path("loadAfterStep").asDouble(), 1e-9);
    assertEquals(3, json.path("probe").size());
    assertEquals(4, json.path("runs").get(0).path("figures").path("meanRtMsAfterStep").size());
    final JsonNode error = json.path("figures").path("response time error after the step");
    assertEquals(0.04, error.path("median").asDouble(), 1e-12);
  }

  @Test
  void theReportStatesTheCalibrationTheGoalAndEachRun()
  {
    final String html = QueueingControlBench.html("3 Historicals at 0.5 cores", PROBE, CALIBRATION, 60, RESULTS);
    assertTrue(html.contains("3 Historicals at 0.5 cores"));
    assertTrue(html.contains("met in 1 of 2 runs"), "the goal");
    assertTrue(html.contains("T = 390 ms"), "the calibration");
    assertTrue(html.contains("goal missed"));
    assertEquals(2, html.split("<img").length - 1, "the intervals' chart and the runs' ratios");
    final String text = QueueingControlBench.text(CALIBRATION, 60, RESULTS);
    assertTrue(text.contains("run 2: client-side response time after the step +8.0% off T (the controller's own "
                             + "estimate -2.6%), settled after no intervals (a settling window's noise ±3.0% of T)"), text);
    assertTrue(text.contains("1.30x capacity"), text);
  }
}
