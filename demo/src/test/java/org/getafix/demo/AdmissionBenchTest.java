package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.getafix.localcluster.experiment.BudgetExperiment.ANSWER_QUALITY;
import static org.getafix.localcluster.experiment.BudgetExperiment.TIMEOUT_RATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionBenchTest
{
  /**
   * Quality-guided admission lets 1.5, 0.8 and 2.0 times as many low-priority queries through in the late half, 1.25
   * times as many over the whole run, at 0.9 of the timeout-rate-guided one's high-priority quality.
   */
  private static final List<AbbaComparison.Repetition<AdmissionBench.Figures>> RUNS = List.of(
      repetition(true, 3.0, 2.0),
      repetition(false, 2.0, 2.5),
      repetition(true, 2.0, 1.0)
  );

  private static AbbaComparison.Repetition<AdmissionBench.Figures> repetition(
      boolean qualityFirst,
      double qualityLateRate,
      double timeoutLateRate
  )
  {
    final AdmissionBench.Figures quality = new AdmissionBench.Figures(ANSWER_QUALITY, 0.9, 1200, 2.0, qualityLateRate, 0, 0);
    final AdmissionBench.Figures timeout = new AdmissionBench.Figures(TIMEOUT_RATE, 1.0, 1000, 1.6, timeoutLateRate, 1, 0);
    return new AbbaComparison.Repetition<>(qualityFirst ? List.of(quality, timeout) : List.of(timeout, quality));
  }

  @Test
  void theQualityGuidedControllerRunsFirstAndIsTheNumerator()
  {
    assertEquals(List.of(ANSWER_QUALITY, TIMEOUT_RATE), AdmissionBench.COMPARISON.schedule(2, false).get(0));
    final List<RepetitionsReport.Measure> ratios = AdmissionBench.COMPARISON.ratios(RUNS);
    assertEquals(
        List.of("low-priority throughput, late half", "low-priority throughput, whole run", "high-priority mean quality",
                "high-priority mean response time"),
        ratios.stream().map(RepetitionsReport.Measure::name).toList()
    );
    assertEquals(List.of(1.5, 0.8, 2.0), ratios.get(0).values());
    assertEquals(1.25, ratios.get(1).median(), 1e-12);
    assertEquals(0.9, ratios.get(2).median(), 1e-12);
    assertEquals(1.2, ratios.get(3).median(), 1e-12);
  }

  @Test
  void theMediansByOrderAndEachSignalsFiguresAreInTheResults()
  {
    final JsonNode json = AdmissionBench.COMPARISON.json("setup", RUNS);
    assertEquals("live-bench-admission", json.path("experiment").asText());
    final JsonNode late = json.path("ratios").path("low-priority throughput, late half");
    assertEquals(1.75, late.path("medianAnswerQualityFirst").asDouble(), 1e-12, "the median of 1.5 and 2.0");
    assertEquals(0.8, late.path("medianTimeoutRateFirst").asDouble(), 1e-12);
    assertEquals(1, json.path("figures").path(TIMEOUT_RATE + ": high-priority failed").path("median").asDouble());
    assertEquals(2.0, json.path("figures").path(ANSWER_QUALITY + ": low-priority admitted per second").path("max").asDouble());
  }

  @Test
  void theReportSaysWhatEachRunDoesAndHowToReadTheRatios()
  {
    final String html = AdmissionBench.html("3 Historicals at 1.0/0.5/0.25 cores", RUNS);
    assertTrue(html.contains("3 Historicals at 1.0/0.5/0.25 cores"));
    assertTrue(html.contains("until 120 high-priority queries have been answered or 50 s have passed"), html);
    assertTrue(html.contains("(+55%)"), "the claim measured against");
    assertTrue(html.contains(TIMEOUT_RATE + " first"), "the medians by order");
  }
}
