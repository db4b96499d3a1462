package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChurnBenchTest
{
  /** Stock Druid loaded nothing in the first repetition and 2 replicas in the second; druid-getafix 1 and 4. */
  private static final List<AbbaComparison.Repetition<ChurnBench.Figures>> RUNS = List.of(
      new AbbaComparison.Repetition<>(List.of(
          new ChurnBench.Figures(ChurnBench.STOCK, 0, 0.0, 10.0, 200, 200),
          new ChurnBench.Figures(ChurnBench.GETAFIX, 1, 0.1, 11.0, 180, 124)
      )),
      new AbbaComparison.Repetition<>(List.of(
          new ChurnBench.Figures(ChurnBench.GETAFIX, 4, 0.4, 10.5, 190, 126),
          new ChurnBench.Figures(ChurnBench.STOCK, 2, 0.2, 10.0, 190, 200)
      ))
  );

  @Test
  void druidGetafixOverStockAndNoRatioWhereStockLoadedNothing()
  {
    assertEquals(List.of(ChurnBench.STOCK, ChurnBench.GETAFIX), ChurnBench.COMPARISON.schedule(1, false).get(0));
    final JsonNode json = ChurnBench.COMPARISON.json("setup", RUNS);
    assertEquals("live-bench-churn", json.path("experiment").asText());
    final JsonNode loaded = json.path("ratios").path("data loaded per hour");
    assertTrue(loaded.path("values").get(0).isNull(), "stock loaded nothing: no ratio, " + loaded);
    assertEquals(2.0, loaded.path("values").get(1).asDouble(), 1e-12);
    assertEquals(2.5, json.path("figures").path(ChurnBench.GETAFIX + ": replica loads").path("median").asDouble(), 1e-12);
  }

  @Test
  void theReportStatesTheTarget()
  {
    final String html = ChurnBench.html("3 Historicals", RUNS);
    assertTrue(html.contains("Data loaded under a steady workload, 2 repetitions"), html);
    assertTrue(html.contains("at most 0.05 of the data set per hour"));
  }
}
