package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KillBenchTest
{
  /** Stock Druid failed 10 queries for 4 s in the first repetition and none in the second; druid-getafix 5 and 2. */
  private static final List<AbbaComparison.Repetition<KillBench.Figures>> RUNS = List.of(
      new AbbaComparison.Repetition<>(List.of(
          new KillBench.Figures(KillBench.STOCK, 500, 10, 4.0, 10.0, 200, 200),
          new KillBench.Figures(KillBench.GETAFIX, 520, 5, 6.0, 11.0, 180, 124)
      )),
      new AbbaComparison.Repetition<>(List.of(
          new KillBench.Figures(KillBench.GETAFIX, 510, 2, 1.0, 10.5, 190, 126),
          new KillBench.Figures(KillBench.STOCK, 505, 0, 0.0, 10.0, 190, 200)
      ))
  );

  @Test
  void druidGetafixOverStockAndNoRatioWhereStockFailedNothing()
  {
    assertEquals(List.of(KillBench.STOCK, KillBench.GETAFIX), KillBench.COMPARISON.schedule(1, false).get(0));
    final JsonNode json = KillBench.COMPARISON.json("setup", RUNS);
    assertEquals("live-bench-kill", json.path("experiment").asText());
    final JsonNode failed = json.path("ratios").path("failed queries");
    assertEquals(0.5, failed.path("values").get(0).asDouble(), 1e-12);
    assertTrue(failed.path("values").get(1).isNull(), "stock failed none: no ratio, " + failed);
    assertEquals(1.5, json.path("ratios").path("seconds from the kill to the last failed query").path("values").get(0)
                          .asDouble(), 1e-12);
    assertEquals(2, json.path("figures").path(KillBench.STOCK + ": failed queries").path("values").size());
    assertEquals(125, json.path("figures").path(KillBench.GETAFIX + ": replicas before the kill").path("median")
                          .asDouble(), 1e-12);
  }

  @Test
  void theReportSaysWhatEachPhaseDoes()
  {
    final String html = KillBench.html("3 Historicals", RUNS);
    assertTrue(html.contains("A Historical killed under load, 2 repetitions"), html);
    assertTrue(html.contains("the same query sequence with the same kill"));
  }
}
