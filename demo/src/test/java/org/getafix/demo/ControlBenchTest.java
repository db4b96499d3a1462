package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlBenchTest
{
  /** On target and settled; on target but not settled; settled but 8% off; at the edge of both. */
  private static final List<ControlBench.Run> RUNS = List.of(
      new ControlBench.Run(0.01, 2, 0.6, 0),
      new ControlBench.Run(-0.02, Double.NaN, 0.7, 0),
      new ControlBench.Run(0.08, 4, 0.8, 3),
      new ControlBench.Run(-0.05, 10, 0.5, 0)
  );

  @Test
  void theGoalIsBothWithinFivePercentAndSettledWithinTenIntervals()
  {
    assertTrue(RUNS.get(0).goalMet());
    assertFalse(RUNS.get(1).goalMet(), "did not settle");
    assertFalse(RUNS.get(2).goalMet(), "8% off");
    assertTrue(RUNS.get(3).goalMet(), "at the edge");
    assertEquals(2, ControlBench.goalsMet(RUNS));
    assertTrue(ControlBench.goal(RUNS).contains("met in 2 of 4 runs"), ControlBench.goal(RUNS));
  }

  @Test
  void eachFigureHasItsMedianAndRangeOverTheRuns()
  {
    final RepetitionsReport.Measure settling = ControlBench.measures(RUNS).get(1);
    assertEquals(4.0, settling.median(), 1e-12, "the run that did not settle counts for none");
    final JsonNode json = ControlBench.json("setup", RUNS);
    assertEquals("live-bench-control", json.path("experiment").asText());
    assertEquals("HYBRID", json.path("mode").asText());
    assertEquals(2, json.path("goal").path("metInRuns").asInt());
    final JsonNode error = json.path("figures").path("response time error after the step");
    assertEquals(-0.05, error.path("min").asDouble(), 1e-12);
    assertEquals(0.08, error.path("max").asDouble(), 1e-12);
    assertTrue(json.path("figures").path("settling intervals after the step").path("values").get(1).isNull());
    assertEquals(0.65, json.path("figures").path("budget after / before the step").path("median").asDouble(), 1e-12);
  }

  @Test
  void theReportNamesTheSetupTheGoalAndEveryRun()
  {
    final String html = ControlBench.html("3 Historicals at 1.0/0.5/0.25 cores", RUNS);
    assertTrue(html.contains("3 Historicals at 1.0/0.5/0.25 cores"));
    assertTrue(html.contains("met in 2 of 4 runs"));
    assertTrue(html.contains("goal missed"), "each run's column says whether it met the goal");
    assertTrue(html.contains("<img"), "the chart");
    assertTrue(ControlBench.text(RUNS).contains("failed queries: 0.00 [0.00, 3.00]"), ControlBench.text(RUNS));
  }
}
