package org.getafix.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.simulator.report.ResultsJsonReporter;
import org.getafix.simulator.report.RunOutcome;
import org.getafix.simulator.report.RunResult;
import org.getafix.simulator.report.SimulationResults;
import org.getafix.simulator.settings.ScenarioParser;
import org.getafix.simulator.settings.ScenarioSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** End to end on a tiny cluster: every strategy runs, results are deterministic and plausible. */
class SimulationRunTest
{
  static final String TINY = """
      {
        "name": "tiny",
        "seed": 11,
        "durationSeconds": 40,
        "warmupSeconds": 10,
        "nodes": [
          {"name": "big", "count": 1, "cores": 8, "tier": "HOT"},
          {"name": "mid", "count": 2, "cores": 4, "tier": "WARM"},
          {"name": "small", "count": 2, "cores": 2, "tier": "COLD"}
        ],
        "stragglers": [{"node": "mid-1", "fromSeconds": 20, "speed": 0.5}],
        "clients": {"count": 2, "minQueriesPerSecond": 20, "maxQueriesPerSecond": 40},
        "segments": {"initial": 60, "arrivalEverySeconds": 10, "sizeBytes": 1000000, "loadBytesPerSecond": 10000000},
        "workload": {"queryTypes": [
          {"name": "timeseries", "weight": 1, "meanTaskMillis": 20, "cv": 0.2},
          {"name": "groupBy", "weight": 1, "meanTaskMillis": 60, "cv": 1.0}
        ]}
      }
      """;

  @Test
  void everyStrategyRunsAndReportsThesisMetrics()
  {
    final ScenarioSettings s = ScenarioParser.parse(TINY);
    final List<RunOutcome> outcomes = Simulate.simulate(s).runs();
    assertEquals(PlacementStrategies.REGISTRY.names().size(), outcomes.size());
    for (RunOutcome o : outcomes) {
      final RunResult r = o.result();
      assertTrue(r.queries() > 500, o.label() + " measured " + r.queries() + " queries");
      assertTrue(r.latencyMs().p50() > 0 && r.latencyMs().p50() <= r.latencyMs().p99(), o.label());
      assertTrue(r.latencyMs().mean() >= 20, "a query costs at least one 20 ms task: " + r.latencyMs().mean());
      assertEquals(List.of("groupBy", "timeseries"), List.copyOf(r.latencyMsByType().keySet()));
      assertTrue(
          r.latencyMsByType().get("groupBy").mean() > r.latencyMsByType().get("timeseries").mean(),
          "groupBy tasks cost three times a timeseries task"
      );
      assertTrue(r.effectiveReplicationFactor() >= 1, o.label());
      assertTrue(r.maxNodeMemoryBytes() > 0 && r.maxNodeMemoryBytes() <= r.totalMemoryBytes() * 1.5, o.label());
      assertNotNull(r.tieringAccuracy(), "the tiny cluster has hardware tiers");
      assertTrue(r.tieringAccuracy() >= 0 && r.tieringAccuracy() <= 1);
      assertTrue(r.makespanMs() >= s.durationSeconds() * 1000 * 0.9);
      assertTrue(r.meanUtilisation() > 0 && r.meanUtilisation() < 1);
    }
    final RunResult druid = outcomes.get(PlacementStrategies.REGISTRY.names().indexOf("druid-default")).result();
    assertEquals(2.0, druid.effectiveReplicationFactor(), 0.25, "druid-default keeps two replicas of everything");
  }

  @Test
  void sameSeedSameResultsOtherSeedOtherResults()
  {
    final ScenarioSettings s = ScenarioParser.parse(TINY);
    final JsonNode first = toJson(s, runOne(s, "getafix-h"));
    final JsonNode second = toJson(s, runOne(s, "getafix-h"));
    final JsonNode meanPlanA = ((com.fasterxml.jackson.databind.node.ObjectNode) first.get("strategies").get("getafix-h"))
        .remove("meanPlanMillis");
    ((com.fasterxml.jackson.databind.node.ObjectNode) second.get("strategies").get("getafix-h")).remove("meanPlanMillis");
    assertNotNull(meanPlanA);
    assertEquals(first, second, "wall-clock planning time aside, a run is a function of its seed");
    final ScenarioSettings other = ScenarioParser.parse(TINY.replace("\"seed\": 11", "\"seed\": 12"));
    assertNotEquals(
        runOne(s, "getafix-h").get(0).result().latencyMs(),
        runOne(other, "getafix-h").get(0).result().latencyMs()
    );
  }

  @Test
  void everyRoutingPolicyRunsEndToEnd()
  {
    final ScenarioSettings s = ScenarioParser.parse(TINY);
    for (String routing : ScenarioSettings.ROUTINGS) {
      final ScenarioSettings.Run run = new ScenarioSettings.Run(routing, "getafix-b", routing, null, null);
      final RunResult r = new SimulationRun(s, run, line -> {
      }).execute().result();
      assertEquals(routing, r.routing());
      assertTrue(r.queries() > 500, routing + " measured " + r.queries() + " queries");
      assertTrue(r.latencyMs().p50() > 0 && r.latencyMs().p50() <= r.latencyMs().p99(), routing);
    }
  }

  @Test
  void popularityBiasCorrectionReachesThePlanner()
  {
    // Every round's plan adopted, so that the ratings' difference shows in the loads; no inheritance, which rates a
    // young segment by its predecessor and leaves little to correct.
    final ScenarioSettings corrected = ScenarioParser.parse(TINY.replace(
        "\"clients\":",
        "\"planning\": {\"popularityBiasCorrection\": true, \"popularityInheritance\": false, \"minPlanGain\": 0}, "
        + "\"clients\":"
    ));
    final ScenarioSettings thesis = ScenarioParser.parse(TINY.replace(
        "\"clients\":", "\"planning\": {\"popularityInheritance\": false, \"minPlanGain\": 0}, \"clients\":"
    ));
    assertFalse(thesis.planning().popularityBiasCorrection());
    assertNotEquals(
        runOne(corrected, "getafix-h").get(0).result().replicaLoads(),
        runOne(thesis, "getafix-h").get(0).result().replicaLoads(),
        "young segments rated higher get replicas sooner"
    );
  }

  @Test
  void noHardwareTiersMeansNoTieringAccuracy()
  {
    final ScenarioSettings s = ScenarioParser.parse(TINY.replace(", \"tier\": \"HOT\"", "")
                                                        .replace(", \"tier\": \"WARM\"", "")
                                                        .replace(", \"tier\": \"COLD\"", ""));
    assertNull(runOne(s, "getafix-b").get(0).result().tieringAccuracy());
  }

  @Test
  void cliWritesResultsAndReport(@TempDir Path dir) throws Exception
  {
    final Path scenario = dir.resolve("tiny.json");
    Files.writeString(scenario, TINY.replace("\"durationSeconds\": 40", "\"durationSeconds\": 20")
                                    .replace("\"warmupSeconds\": 10", "\"warmupSeconds\": 5"));
    final Path out = dir.resolve("out");
    assertEquals(0, Simulate.run(new String[]{scenario.toString(), "--out", out.toString()}));
    final JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertEquals("tiny", results.get("scenario").asText());
    for (String strategy : PlacementStrategies.REGISTRY.names()) {
      final JsonNode r = results.get("strategies").get(strategy);
      assertNotNull(r, strategy);
      for (String field : List.of("totalReplicas", "effectiveReplicationFactor", "totalMemoryBytes",
                                  "maxNodeMemoryBytes", "latencyMs", "makespanMs", "tieringAccuracy")) {
        assertTrue(r.has(field), strategy + " lacks " + field);
      }
      assertTrue(r.get("latencyMs").has("p99"));
    }
    final String html = Files.readString(out.resolve("report.html"));
    assertTrue(html.contains("data:image/png;base64,"), "charts are embedded");
    assertTrue(html.split("data:image/png;base64,").length > 4, "CDF, improvement, replicas and heat maps");
  }

  @Test
  void cliRejectsABadScenarioNamingTheField(@TempDir Path dir) throws Exception
  {
    final Path scenario = dir.resolve("bad.json");
    Files.writeString(scenario, TINY.replace("\"cores\": 8", "\"cores\": 0"));
    assertEquals(2, Simulate.run(new String[]{scenario.toString(), "--out", dir.resolve("o").toString()}));
    assertTrue(!Files.exists(dir.resolve("o")));
  }

  private static JsonNode toJson(ScenarioSettings s, List<RunOutcome> outcomes)
  {
    return ResultsJsonReporter.toJson(new SimulationResults(s, outcomes));
  }

  private static List<RunOutcome> runOne(ScenarioSettings s, String strategy)
  {
    final ScenarioSettings.Run run = new ScenarioSettings.Run(strategy, strategy, null, null, null);
    return List.of(new SimulationRun(s, run, line -> {
    }).execute());
  }
}
