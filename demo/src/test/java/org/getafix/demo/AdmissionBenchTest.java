package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.localcluster.experiment.AdmissionWindows;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.getafix.localcluster.experiment.BudgetExperiment.ANSWER_QUALITY;
import static org.getafix.localcluster.experiment.BudgetExperiment.GRADIENT2;
import static org.getafix.localcluster.experiment.BudgetExperiment.PREDICTED_QUALITY;
import static org.getafix.localcluster.experiment.BudgetExperiment.TIMEOUT_RATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionBenchTest
{
  /**
   * Two windows each. Quality-guided admits 6 low-priority queries a window and meets the target only in the first;
   * timeout-rate-guided admits 3 a window at the target in both; Gradient2 admits 4 a window at the target in the
   * first only; predicted-quality-guided admits 5 a window at the target in both. Repetition 2's quality-guided mean
   * high-priority quality is 0.85 against the baseline's 0.95.
   */
  private static final List<AbbaComparison.Repetition<AdmissionBench.Figures>> RUNS = List.of(
      repetition(List.of(ANSWER_QUALITY, PREDICTED_QUALITY, TIMEOUT_RATE, GRADIENT2), 0.94),
      repetition(List.of(GRADIENT2, TIMEOUT_RATE, PREDICTED_QUALITY, ANSWER_QUALITY), 0.85),
      repetition(List.of(ANSWER_QUALITY, PREDICTED_QUALITY, TIMEOUT_RATE, GRADIENT2), 0.95)
  );

  private static AdmissionWindows windows(int lowPerWindow, double firstQuality, double secondQuality)
  {
    return new AdmissionWindows(5000, List.of(
        new AdmissionWindows.Window(lowPerWindow, 2, firstQuality),
        new AdmissionWindows.Window(lowPerWindow, 2, secondQuality)
    ));
  }

  private static AbbaComparison.Repetition<AdmissionBench.Figures> repetition(List<String> order, double qualityMean)
  {
    final Map<String, AdmissionBench.Figures> runs = List.of(
        new AdmissionBench.Figures(ANSWER_QUALITY, qualityMean, 1200, 1.2, 1.2, 0, 0, windows(6, 0.95, 0.7)),
        new AdmissionBench.Figures(PREDICTED_QUALITY, 0.95, 1100, 1.0, 1.0, 0, 0, windows(5, 0.95, 0.95)),
        new AdmissionBench.Figures(TIMEOUT_RATE, 0.95, 1000, 0.6, 0.6, 1, 0, windows(3, 0.95, 0.95)),
        new AdmissionBench.Figures(GRADIENT2, 0.8, 1500, 0.8, 0.8, 0, 0, windows(4, 0.92, 0.5))
    ).stream().collect(Collectors.toMap(AdmissionBench.Figures::setup, Function.identity()));
    return new AbbaComparison.Repetition<>(order.stream().map(runs::get).toList());
  }

  @Test
  void thePoliciesAlternateOrderAndTheQualityGuidedControllerIsTheNumerator()
  {
    assertEquals(List.of(ANSWER_QUALITY, PREDICTED_QUALITY, TIMEOUT_RATE, GRADIENT2),
                 AdmissionBench.COMPARISON.schedule(2, false).get(0));
    assertEquals(List.of(GRADIENT2, TIMEOUT_RATE, PREDICTED_QUALITY, ANSWER_QUALITY),
                 AdmissionBench.COMPARISON.schedule(2, false).get(1));
    final Map<String, RepetitionsReport.Measure> ratios = AdmissionBench.COMPARISON
        .ratios(RUNS)
        .stream()
        .collect(Collectors.toMap(RepetitionsReport.Measure::name, Function.identity()));
    assertEquals(2.0, ratios.get("low-priority throughput, whole run").median(), 1e-12);
    assertEquals(
        List.of(2.0, 2.0, 2.0),
        ratios.get(AdmissionBench.equalQualityName(ANSWER_QUALITY, TIMEOUT_RATE)).values(),
        "only the first window, where both met the target: 6 / 3"
    );
    assertEquals(6.0 / 4, ratios.get(AdmissionBench.equalQualityName(ANSWER_QUALITY, GRADIENT2)).median(), 1e-12);
    assertEquals(List.of(0.0, 1.0, 0.0), ratios.get(AdmissionBench.qualityBelowBaselineName(ANSWER_QUALITY)).values(),
                 "0.94 is within the margin of 0.95; 0.85 is not");
    assertEquals(List.of(5.0 / 3, 5.0 / 3, 5.0 / 3),
                 ratios.get(AdmissionBench.equalQualityName(PREDICTED_QUALITY, TIMEOUT_RATE)).values(),
                 "both windows, where both met the target: 5 / 3");
    assertEquals(List.of(0.0, 0.0, 0.0),
                 ratios.get(AdmissionBench.qualityBelowBaselineName(PREDICTED_QUALITY)).values());
  }

  @Test
  void theResultsGiveTheMediansByOrderAndEachPolicysFigures()
  {
    final JsonNode json = AdmissionBench.COMPARISON.json("setup", RUNS);
    assertEquals("live-bench-admission", json.path("experiment").asText());
    final JsonNode whole = json.path("ratios").path("low-priority throughput, whole run");
    assertEquals(2.0, whole.path("medianAnswerQualityFirst").asDouble(), 1e-12);
    assertTrue(whole.has("medianGradient2First"), "the reversed order starts with the last policy");
    assertEquals(1, json.path("figures").path(TIMEOUT_RATE + ": high-priority failed").path("median").asDouble());
    assertEquals(0.5, json.path("figures").path(ANSWER_QUALITY + ": high-priority windows at target").path("median")
                          .asDouble(), 1e-12);
    assertEquals(0.8, json.path("figures").path(GRADIENT2 + ": low-priority admitted per second").path("max").asDouble());
  }

  @Test
  void theReportSaysWhatEachRunDoesAndFlagsRepetitionsNotAtEqualQuality()
  {
    final String html = AdmissionBench.html("3 Historicals at 1.0/0.5/0.25 cores", RUNS);
    assertTrue(html.contains("3 Historicals at 1.0/0.5/0.25 cores"));
    assertTrue(html.contains("until 120 high-priority queries have been answered or 50 s have passed"), html);
    assertTrue(html.contains("(+55%)"), "the claim measured against");
    assertTrue(html.contains(GRADIENT2 + " first"), "the medians by order");
    assertTrue(html.contains("Not at equal quality:</b> in repetition 2 (0.850 against 0.950)"), html);
    assertFalse(AdmissionBench.flagged(List.of(RUNS.get(0), RUNS.get(2))).contains("Not at equal quality"));
  }
}
