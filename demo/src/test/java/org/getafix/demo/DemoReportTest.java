package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoReportTest
{
  private static final List<Node> NODES = List.of(
      new Node("h1:1", "historical-1", 1.0),
      new Node("h2:2", "historical-2", 0.5),
      new Node("h3:3", "historical-3", 0.25)
  );
  private static final Map<String, Double> QUOTAS = Map.of("h1:1", 1.0, "h2:2", 0.5, "h3:3", 0.25);
  private static final Map<String, Long> SIZES = Map.of("s0", 1_000_000L, "s1", 2_000_000L);

  /** Stock: 2 replicas of both segments all along; a load and a drop between the 2nd and 3rd sample. */
  static PhaseRecord stock()
  {
    final Map<String, Set<String>> a = Map.of("s0", Set.of("h1:1", "h2:2"), "s1", Set.of("h2:2", "h3:3"));
    final Map<String, Set<String>> b = Map.of("s0", Set.of("h1:1", "h3:3"), "s1", Set.of("h2:2", "h3:3"));
    return phase(Strategy.STOCK, List.of(
        sample(0, a, 0, Map.of()),
        sample(3, a, 1_500_000, Map.of()),
        sample(6, b, 3_000_000, Map.of())
    ), 0, new PhaseWarmUp(20, 40, 4, 0.08, 0.03));
  }

  /** Getafix: one replica each, then a third for the hot segment; tiers all right, then one wrong round (7 of 9 node-samples right). */
  static PhaseRecord getafix()
  {
    final Map<String, Set<String>> a = Map.of("s0", Set.of("h1:1"), "s1", Set.of("h2:2"));
    final Map<String, Set<String>> b = Map.of("s0", Set.of("h1:1", "h2:2"), "s1", Set.of("h2:2"));
    final Map<String, String> right = Map.of("h1:1", "HOT", "h2:2", "WARM", "h3:3", "COLD");
    final Map<String, String> wrong = Map.of("h1:1", "WARM", "h2:2", "HOT", "h3:3", "COLD");
    return phase(Strategy.GETAFIX, List.of(
        sample(0, a, 0, right),
        sample(3, b, 1_500_000, wrong),
        sample(6, b, 3_000_000, right)
    ), 5, new PhaseWarmUp(30, 10, 1, 0.04, 0.12));
  }

  private static Sample sample(double t, Map<String, Set<String>> holders, long cpu, Map<String, String> tiers)
  {
    return new Sample(
        t,
        holders,
        Map.of("h1:1", cpu, "h2:2", cpu / 2, "h3:3", 0L),
        Map.of("h1:1", cpu / 1000, "h2:2", 0L, "h3:3", 0L),
        tiers,
        QUOTAS
    );
  }

  private static PhaseRecord phase(Strategy strategy, List<Sample> samples, long failures, PhaseWarmUp warmUp)
  {
    final Histogram latency = new Histogram(3);
    for (int i = 1; i <= 100; i++) {
      latency.recordValue(i * 1000L * (strategy == Strategy.STOCK ? 2 : 1));
    }
    final boolean budgeted = strategy == Strategy.GETAFIX;
    return new PhaseRecord(
        strategy, NODES, samples, 0, 6, "h1:1", 3, true, latency, Map.of("timeseries", latency), 100, failures,
        failures > 0 ? List.of("HTTP 500 <boom>") : List.of(), 6, List.of("s0", "s1"), SIZES, new long[]{80, 20}, 1.0,
        budgeted ? QualityAnalysisTest.BUDGETED_TIMELINE : QualityAnalysisTest.STOCK_TIMELINE,
        budgeted ? QualityAnalysisTest.QUALITY : null,
        warmUp,
        0,
        strategy == Strategy.GETAFIX ? 2 : 0
    );
  }

  static DemoResults results()
  {
    return results(stock(), getafix());
  }

  static DemoResults results(PhaseRecord... inOrder)
  {
    return new DemoResults("3 Historicals", "2 segments", 42, 10, 6, JitCompilerCpu.WarmUp.QUERIES, List.of(inOrder));
  }

  @Test
  void analysisComputesReplicasMemoryChurnAndTiering()
  {
    final var stock = PhaseAnalysis.runResult(stock());
    assertEquals(4, stock.totalReplicas());
    assertEquals(2, stock.extraReplicas());
    assertEquals(6_000_000, stock.totalMemoryBytes());
    assertEquals(null, stock.tieringAccuracy());
    assertEquals(1, stock.replicaLoads());
    assertEquals("cost", stock.strategy());
    assertEquals("connectionCount", stock.routing());

    final var getafix = PhaseAnalysis.runResult(getafix());
    assertEquals(3, getafix.totalReplicas());
    assertEquals(7.0 / 9, getafix.tieringAccuracy(), 1e-9);
    assertEquals("getafixAdaptive", getafix.routing());
    assertTrue(getafix.latencyMs().p99() < stock.latencyMs().p99());

    // 1.5 s of CPU over 3 s on a 1-core node: half its cap; 0.75 s on a 0.5-core node: half its cap.
    final double[][] load = PhaseAnalysis.nodeUtilisation(stock());
    assertEquals(0.5, load[0][0], 1e-9);
    assertEquals(0.5, load[0][1], 1e-9);
    assertEquals(0.0, load[0][2], 1e-9);
    assertEquals(List.of(1, 1), List.of(PhaseAnalysis.loadsAndDrops(stock().samples())[1][0],
                                        PhaseAnalysis.loadsAndDrops(stock().samples())[1][1]));
  }

  @Test
  void longRunsKeepAtMostMaxRowsOfTiers()
  {
    final PhaseRecord getafix = getafix();
    final List<Sample> many = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      final Sample s = getafix.samples().get(i % 3);
      many.add(new Sample(i * 3, s.holders(), s.cpuMicros(), s.scans(), s.tiers(), s.quotas()));
    }
    final PhaseRecord longRun = new PhaseRecord(
        getafix.strategy(), getafix.nodes(), many, 0, 300, null, Double.NaN, false, getafix.latencyMicros(),
        getafix.latencyByType(), 1, 0, List.of(), 300, getafix.segmentIds(), getafix.segmentSizes(),
        getafix.segmentAccesses(), 1.0, List.of(), null, getafix.warmUp(), 0, 0
    );
    final var trace = PhaseAnalysis.runTrace(longRun);
    assertEquals(25, trace.tierByRound().size());
    assertEquals(List.of(0.0, 12.0), trace.roundTimes().subList(0, 2));
    assertTrue(DemoReport.html(results(longRun)).contains("No straggler"));
  }

  @Test
  void expectedTiersFollowTheCapsAtTheMoment()
  {
    assertEquals(
        Map.of("a", "HOT", "b", "WARM", "c", "COLD"),
        PhaseAnalysis.expectedTiers(Map.of("a", 1.0, "b", 0.25, "c", 0.1))
    );
  }

  @Test
  void reportHasEverySectionAndEscapesText(@TempDir Path dir) throws Exception
  {
    final Path report = DemoReport.write(dir, results());
    final String html = Files.readString(report);
    for (String section : List.of(
        "Query latency CDF", "Replicas vs popularity", "Node load over time", "Tiers over time",
        "Loads and drops per round", "Answer quality and coverage", "The straggler: slow answers or partial ones",
        "<b>640 ms</b>", "stock Druid's measured p99"
    )) {
      assertTrue(html.contains(section), section);
    }
    assertTrue(html.contains("<td>stock Druid</td><td>cost</td><td>connectionCount</td>"), html);
    assertTrue(html.contains("HTTP 500 &lt;boom&gt;"));
    assertFalse(html.contains("<boom>"));
    assertTrue(html.contains("data:image/png;base64,"));
    assertFalse(html.contains("src=\"http"), "self-contained");

    final JsonNode json = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
    assertEquals("live-demo", json.path("scenario").asText());
    assertTrue(json.path("offeredUtilisation").isNull());
    assertEquals(4, json.path("strategies").path("stock Druid").path("totalReplicas").asInt());
    assertEquals(3, json.path("strategies").path("druid-getafix").path("totalReplicas").asInt());
    assertEquals(5, json.path("live").path("runs").path("druid-getafix").path("failedQueries").asInt());
    final JsonNode quality = json.path("live").path("answerQuality");
    assertTrue(quality.path("stock Druid").path("budgetMs").isNull());
    assertEquals(2, quality.path("stock Druid").path("afterStraggler").path("queries").asInt());
    final JsonNode getafixQuality = quality.path("druid-getafix");
    assertEquals(640, getafixQuality.path("budgetMs").asLong());
    assertEquals(4, getafixQuality.path("budgetedQueries").asInt());
    assertEquals(0.5, getafixQuality.path("partialFraction").asDouble(), 1e-9);
    assertEquals(2, getafixQuality.path("coverageDistribution").path("1 (whole)").asInt());
    assertEquals(4, getafixQuality.path("matureRuns").asInt());
    assertEquals(0.85, getafixQuality.path("meanQuality").asDouble(), 1e-9);
    assertEquals(0.5, getafixQuality.path("p10Quality").asDouble(), 1e-9);
    assertEquals(2, getafixQuality.path("afterStraggler").path("partialAnswers").asInt());
    assertEquals(2, json.path("live").path("runs").path("druid-getafix").path("partialAnswers").asInt());
    assertEquals(0.85, json.path("live").path("runs").path("druid-getafix").path("meanQuality").asDouble(), 1e-9);
    assertTrue(json.path("live").path("runs").path("stock Druid").path("meanQuality").isNull());
  }

  @Test
  void summaryTextHasOneRowPerRun()
  {
    final String[] lines = DemoReport.summaryText(results()).split("\n");
    assertEquals(3, lines.length);
    assertTrue(lines[1].startsWith("stock Druid"));
    assertTrue(lines[2].startsWith("druid-getafix") && lines[2].trim().endsWith("0.78"), lines[2]);
    assertTrue(lines[2].contains("50.0%") && lines[2].contains("0.850"), lines[2]);
    assertTrue(lines[1].contains("–"), lines[1]);
  }

  @Test
  void theReportSaysHowThePhasesRanAndComparesStockFirstWhateverTheOrder(@TempDir Path dir) throws Exception
  {
    final DemoResults getafixFirst = results(getafix(), stock());
    final String html = Files.readString(DemoReport.write(dir, getafixFirst));
    assertTrue(html.contains("The phases ran in this order: druid-getafix, then stock Druid."), html);
    assertTrue(html.contains("in 10 s windows until no Historical's JIT compilers took more than 10% of its CPU"), html);
    assertTrue(html.contains("<tr><td>1</td><td>druid-getafix</td><td>40</td><td>30</td><td>10 (1)</td>"
                             + "<td>4.0%</td><td>12.0%</td><td>3.0</td><td>6.0</td></tr>"), html);
    assertTrue(html.contains("druid-getafix: the compilers were still busy while measured"), html);
    assertFalse(html.contains("stock Druid: the compilers were still busy"), html);
    assertTrue(html.indexOf("<td>stock Druid</td><td>cost</td>") < html.indexOf("<td>druid-getafix</td><td>getafix-h</td>"),
               "the comparison table reads stock Druid first");
    assertTrue(html.contains("<h2>druid-getafix over stock Druid</h2>"), html);

    final JsonNode live = new ObjectMapper().readTree(dir.resolve("results.json").toFile()).path("live");
    assertEquals("druid-getafix", live.path("order").get(0).asText());
    assertEquals("stock Druid", live.path("order").get(1).asText());
    assertEquals(0.10, live.path("jitWarmUp").path("settledShare").asDouble(), 1e-9);
    assertEquals(120, live.path("jitWarmUp").path("deadlineSeconds").asLong());
    final JsonNode stock = live.path("runs").path("stock Druid");
    assertEquals(2, stock.path("position").asInt());
    assertEquals(60, stock.path("warmUp").path("seconds").asDouble(), 1e-9);
    assertEquals(4, stock.path("warmUp").path("jitWindows").asInt());
    assertEquals(0.08, stock.path("warmUp").path("jitShareAtEnd").asDouble(), 1e-9);
    assertEquals(0.03, stock.path("warmUp").path("jitShareWhileMeasured").asDouble(), 1e-9);
    assertEquals(3, stock.path("stragglerAfterSeconds").asDouble(), 1e-9);
    // The fixture's p99s: 198 ms for stock Druid, 99 ms for druid-getafix.
    final JsonNode p99 = live.path("ratios").path("p99 latency");
    assertEquals(0.5, p99.path("value").asDouble(), 0.01);
    assertTrue(p99.path("low").asDouble() <= p99.path("high").asDouble());
    assertTrue(live.path("ratios").path("throughput").path("low").isNull());

    final String text = DemoReport.comparisonText(getafixFirst);
    assertTrue(text.contains("1. druid-getafix: warmed 40 s (placement 30 s, JIT 10 s in 1 windows); JIT share 4.0%"), text);
    assertTrue(text.contains("druid-getafix / stock Druid: throughput 1.00 p50 latency 0.50 ["), text);
  }

  @Test
  void withoutProcTheJitSharesReadNotMeasured()
  {
    final PhaseRecord p = stock();
    final PhaseRecord unmeasured = new PhaseRecord(
        p.strategy(), p.nodes(), p.samples(), 0, 6, p.straggler(), p.stragglerAt(), true, p.latencyMicros(),
        p.latencyByType(), p.queries(), 0, List.of(), 6, p.segmentIds(), p.segmentSizes(), p.segmentAccesses(), 0,
        p.timeline(), null, new PhaseWarmUp(20, 0, 0, Double.NaN, Double.NaN), 0, 0
    );
    final String html = DemoReport.html(results(unmeasured));
    assertTrue(html.contains("<td>0 (0)</td><td>not measured</td><td>not measured</td>"), html);
    assertFalse(html.contains("still busy"), html);
    assertFalse(html.contains("over stock Druid</h2>"), "no ratios without both runs");
  }
}
