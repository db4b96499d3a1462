package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.demo.PairedDifference.Pair;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OverheadBenchTest
{
  /** 20 pairs whose differences are {@code shift} ms ± 0.475 ms in steps of 0.05, the quality monitor first in half. */
  private static OverheadBench.Repetition repetition(double shift, boolean qualityMonitorFirst)
  {
    final List<Pair> pairs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      final double query = 10 + i;
      pairs.add(new Pair(query + shift + (i - 9.5) * 0.05, query, i % 2 == 0));
    }
    return new OverheadBench.Repetition(PairedDifference.of(pairs), 1, 0, qualityMonitorFirst, 0.02);
  }

  private static final List<OverheadBench.Repetition> RUNS =
      List.of(repetition(0.1, false), repetition(0.3, true), repetition(0.9, false));

  @Test
  void theFiguresArePerRepetitionWithTheirMedianAndRange()
  {
    final List<RepetitionsReport.Measure> measures = OverheadBench.measures(RUNS);
    assertEquals(OverheadBench.FIGURES.size(), measures.size());
    final RepetitionsReport.Measure difference = measures.get(0);
    assertEquals("paired median difference (ms)", difference.name());
    assertEquals(0.1, difference.values().get(0), 1e-9);
    assertEquals(0.3, difference.median(), 1e-9);
    assertEquals(0.9, difference.max(), 1e-9);
    assertTrue(OverheadBench.goalMet(RUNS), "the median repetition is 0.3 ms");
    // 20 pairs: the 6th smallest and largest differences, 0.1 ± 0.225 ms in the first repetition.
    assertEquals(1, OverheadBench.intervalsWithinGoal(RUNS), "only the first's upper end, 0.325 ms, is within 0.5");
    assertFalse(OverheadBench.goalMet(List.of(repetition(0.6, false))));
  }

  @Test
  void resultsJsonHoldsTheGoalAndEveryFigure()
  {
    final JsonNode json = OverheadBench.json("setup", RUNS);
    assertEquals("live-bench-overhead", json.path("experiment").asText());
    assertEquals(3, json.path("repetitions").asInt());
    assertEquals(0.5, json.path("goalMillis").asDouble(), 1e-12);
    assertTrue(json.path("goalMet").asBoolean());
    assertEquals("quality monitor first", json.path("order").get(1).asText());
    assertEquals(20, json.path("figures").path("pairs").path("median").asDouble(), 1e-12);
    assertEquals(1, json.path("figures").path("pairs not answered by both").path("max").asDouble(), 1e-12);
    assertEquals(29.475 + 0.3, json.path("figures").path(OverheadBench.QUALITY_MONITOR + ": p99 (ms)").path("median")
                                .asDouble(), 1e-9, "the largest of the 20, at the median repetition");
  }

  @Test
  void theReportStatesTheGoalAndShowsTheDifferences()
  {
    final String html = OverheadBench.html("3 uncapped Historicals", RUNS);
    assertTrue(html.contains("3 uncapped Historicals"));
    assertTrue(html.contains("1 of 3 repetitions' intervals"), html);
    assertTrue(html.contains("<img"), "the differences' chart");
    final String text = OverheadBench.text(RUNS);
    assertTrue(text.contains("paired median difference (ms): 0.30 [0.10, 0.90]"), text);
    assertTrue(text.contains("met by the median; 1 of 3 intervals within it"), text);
  }

  @Test
  void answersDifferingOnlyInTheLastDigitsOfASumOfDoublesAreTheSame() throws Exception
  {
    final ObjectMapper mapper = new ObjectMapper();
    final JsonNode a = mapper.readTree("[{\"timestamp\": \"2025-01-01\", \"result\": {\"rows\": 5, \"delta\": 0.30000000000000004}}]");
    final JsonNode b = mapper.readTree("[{\"timestamp\": \"2025-01-01\", \"result\": {\"rows\": 5, \"delta\": 0.3}}]");
    assertTrue(OverheadBench.sameAnswer(a, b));
    assertFalse(OverheadBench.sameAnswer(a, mapper.readTree("[{\"timestamp\": \"2025-01-01\", \"result\": {\"rows\": 5, \"delta\": 0.31}}]")));
    assertFalse(OverheadBench.sameAnswer(a, mapper.readTree("[{\"timestamp\": \"2025-01-01\", \"result\": {\"rows\": 6, \"delta\": 0.3}}]")));
    assertFalse(OverheadBench.sameAnswer(a, mapper.readTree("[]")));
    assertFalse(OverheadBench.sameAnswer(a, mapper.readTree("[{\"timestamp\": \"2025-01-02\", \"result\": {\"rows\": 5, \"delta\": 0.3}}]")));
  }
}
