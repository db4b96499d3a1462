package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RepetitionsReportTest
{
  private static final List<DemoResults> ABA = List.of(
      DemoReportTest.results(DemoReportTest.stock(), DemoReportTest.getafix()),
      DemoReportTest.results(DemoReportTest.getafix(), DemoReportTest.stock()),
      DemoReportTest.results(DemoReportTest.stock(), DemoReportTest.getafix())
  );

  @Test
  void aMeasureHasTheMedianAndRangeOfItsFiniteValues()
  {
    final RepetitionsReport.Measure m = new RepetitionsReport.Measure("p99", List.of(0.9, 0.5, Double.NaN, 0.7, 2.0));
    assertEquals(0.8, m.median(), 1e-9, "the mean of the middle two of four values");
    assertEquals(0.5, m.min());
    assertEquals(2.0, m.max());
    assertEquals(0.7, m.median(List.of(true, true, false, true, false)), 1e-9);
    assertEquals(Double.NaN, new RepetitionsReport.Measure("none", List.of(Double.NaN)).median());
  }

  @Test
  void eachRepetitionsRatiosAreSummarisedAndSplitByOrder()
  {
    assertEquals(List.of(true, false, true), RepetitionsReport.stockFirst(ABA));
    final List<Ratios.Ratio> single = DemoReport.ratios(ABA.get(0));
    final List<RepetitionsReport.Measure> ratios = RepetitionsReport.ratios(ABA);
    assertEquals(single.size(), ratios.size());
    for (int i = 0; i < single.size(); i++) {
      assertEquals(single.get(i).name(), ratios.get(i).name());
      assertEquals(3, ratios.get(i).values().size());
      assertEquals(single.get(i).value(), ratios.get(i).median(), 1e-12, "the same phases give the same ratio");
    }

    final JsonNode json = RepetitionsReport.json(ABA);
    assertEquals(3, json.path("repetitions").asInt());
    assertEquals("druid-getafix", json.path("order").get(1).get(0).asText(), "the second repetition ran getafix first");
    final JsonNode p99 = json.path("ratios").path("p99 latency");
    assertEquals(p99.path("median").asDouble(), p99.path("medianStockFirst").asDouble(), 1e-12);
    assertEquals(p99.path("median").asDouble(), p99.path("medianGetafixFirst").asDouble(), 1e-12);
    assertTrue(p99.path("median").asDouble() < 1, "the fixture's druid-getafix answers in half the time: " + p99);
    assertEquals(5, json.path("figures").path("druid-getafix: failed queries").path("median").asDouble());
    assertEquals(0, json.path("figures").path("stock Druid: failed queries").path("max").asDouble());
    // The fixture's druid-getafix loads a 1 MB copy in the 3 s before its straggler, of 3 MB of data: 400 times an hour.
    assertEquals(400, json.path("figures").path("druid-getafix: bytes loaded per hour before the straggler, share of the data")
                          .path("median").asDouble(), 1e-9);
    assertEquals(0, json.path("figures").path("stock Druid: bytes loaded per hour before the straggler, share of the data")
                        .path("max").asDouble(), "stock moves its copy only after the straggler");
    assertEquals(2, json.path("figures").path("Historical statistics that came late (Historical-rounds)").path("median").asDouble());
    assertEquals(12, json.path("figures").path("druid-getafix: hedges sent").path("median").asDouble(), "the fixture hedged");
    assertEquals("repetition-3/report.html", json.path("repetitionReports").get(2).asText());
  }

  @Test
  void theReportLinksEachRepetitionAndSaysTheOrders()
  {
    final String html = RepetitionsReport.html(ABA);
    assertTrue(html.contains("href=\"repetition-2/report.html\""), "links the repetitions' own reports");
    assertTrue(html.contains("stock,getafix; getafix,stock; stock,getafix"), "states the orders");
    assertTrue(html.contains("<img"), "plots the ratios");
    final String text = RepetitionsReport.text(ABA);
    assertTrue(text.startsWith("3 repetitions, in the orders: stock,getafix; getafix,stock; stock,getafix"), text);
    assertTrue(text.contains("p99 latency"), text);
  }
}
