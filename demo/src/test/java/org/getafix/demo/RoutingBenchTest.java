package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.getafix.localcluster.experiment.RoutingComparison.ADAPTIVE;
import static org.getafix.localcluster.experiment.RoutingComparison.CONNECTION_COUNT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoutingBenchTest
{
  private static RoutingBench.Figures connectionCount(double p99)
  {
    return new RoutingBench.Figures(CONNECTION_COUNT, 400, 2, 10.0, 40, p99, 0.12);
  }

  private static RoutingBench.Figures adaptive(double p99)
  {
    return new RoutingBench.Figures(ADAPTIVE, 440, 0, 11.0, 36, p99, 0.06);
  }

  /** Adaptive's p99 is 0.5, 0.8 and 0.6 of connectionCount's, in the orders ABBA would run them. */
  private static final List<AbbaComparison.Repetition<RoutingBench.Figures>> ABA = List.of(
      new AbbaComparison.Repetition<>(List.of(connectionCount(200), adaptive(100))),
      new AbbaComparison.Repetition<>(List.of(adaptive(160), connectionCount(200))),
      new AbbaComparison.Repetition<>(List.of(connectionCount(100), adaptive(60)))
  );

  @Test
  void theOrderIsReversedEveryOtherRepetition()
  {
    assertEquals(
        List.of(List.of(CONNECTION_COUNT, ADAPTIVE), List.of(ADAPTIVE, CONNECTION_COUNT), List.of(CONNECTION_COUNT, ADAPTIVE)),
        RoutingBench.COMPARISON.schedule(3, false)
    );
  }

  @Test
  void ratiosAreTakenWithinEachRepetitionAndSummarisedByOrder()
  {
    final RepetitionsReport.Measure p99 = RoutingBench.COMPARISON.ratios(ABA).get(0);
    assertEquals("p99", p99.name());
    assertEquals(List.of(0.5, 0.8, 0.6), p99.values());
    assertEquals(0.6, p99.median(), 1e-12);

    final JsonNode json = RoutingBench.COMPARISON.json("setup", ABA);
    assertEquals(3, json.path("repetitions").asInt());
    assertEquals(ADAPTIVE + "," + CONNECTION_COUNT, json.path("order").get(1).asText());
    final JsonNode p99Json = json.path("ratios").path("p99");
    assertEquals(0.5, p99Json.path("min").asDouble(), 1e-12);
    assertEquals(0.8, p99Json.path("max").asDouble(), 1e-12);
    assertEquals(0.55, p99Json.path("medianConnectionCountFirst").asDouble(), 1e-12, "the median of 0.5 and 0.6");
    assertEquals(0.8, p99Json.path("medianGetafixAdaptiveFirst").asDouble(), 1e-12);
    assertEquals(0.5, json.path("ratios").path("straggler's share of sub-queries").path("median").asDouble(), 1e-12);
    assertEquals(2, json.path("figures").path(CONNECTION_COUNT + ": failed queries").path("median").asDouble());
  }

  @Test
  void theReportNamesTheSetupAndEveryRepetition()
  {
    final String html = RoutingBench.html("3 Historicals at 0.5 cores", ABA);
    assertTrue(html.contains("3 Historicals at 0.5 cores"));
    assertTrue(html.contains("<img"), "the ratios' chart");
    assertTrue(html.contains(ADAPTIVE + " first"), "the medians by order");
    assertTrue(RoutingBench.COMPARISON.text(ABA).contains("0.60 [0.50, 0.80]"), RoutingBench.COMPARISON.text(ABA));
  }
}
