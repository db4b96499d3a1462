package org.getafix.simulator.settings;

import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.routing.RoutingPolicies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScenarioParserTest
{
  private static final String MINIMAL = "{\"name\": \"tiny\", \"nodes\": [{\"cores\": 4, \"count\": 2}], "
                                        + "\"clients\": {\"count\": 1}}";

  @Test
  void everyBuiltInScenarioParses()
  {
    for (String name : BuiltInScenarios.names()) {
      final ScenarioSettings s = ScenarioParser.load(name);
      assertEquals(name, s.name());
      assertTrue(s.durationSeconds() > s.warmupSeconds());
      assertTrue(!s.runs().isEmpty());
    }
  }

  @Test
  void builtInClustersAreTheThesisClusters()
  {
    final ScenarioSettings t15 = ScenarioParser.load("tiered-15");
    assertEquals(15, t15.totalNodes());
    assertEquals(5, t15.clients().count());
    assertEquals(48 + 48 + 24, t15.nodes().stream().mapToInt(g -> g.count() * g.cores()).sum());
    assertTrue(t15.hasHardwareTiers());
    final ScenarioSettings t25 = ScenarioParser.load("tiered-25");
    assertEquals(64 + 48 + 40, t25.nodes().stream().mapToInt(g -> g.count() * g.cores()).sum());
    final ScenarioSettings s20 = ScenarioParser.load("stragglers-20");
    assertEquals(20, s20.totalNodes());
    assertEquals(2, s20.stragglers().size());
    assertEquals(15, s20.clients().count());
    assertEquals(6, ScenarioParser.load("gamma-sweep").runs().size());
    assertTrue(ScenarioParser.load("routing-15").runs().stream().anyMatch(r -> RoutingPolicies.ABR.equals(r.routing())));
    final ScenarioSettings r15s = ScenarioParser.load("routing-15-stragglers");
    assertEquals(15, r15s.totalNodes());
    assertEquals(2, r15s.stragglers().size());
    for (String routing : ScenarioSettings.ROUTINGS) {
      assertTrue(r15s.runs().stream().anyMatch(r -> routing.equals(r.routing())), routing);
    }
  }

  @Test
  void defaultsFillAMinimalScenario()
  {
    final ScenarioSettings s = ScenarioParser.parse(MINIMAL);
    assertEquals(2, s.totalNodes());
    assertEquals("hn-0", s.nodes().get(0).name() + "-0");
    assertEquals(5, s.roundSeconds());
    assertEquals(PlacementStrategies.REGISTRY.names().size(), s.runs().size());
    assertEquals(50, s.clients().minQueriesPerSecond());
    assertEquals(150, s.clients().maxQueriesPerSecond());
    assertNull(s.nodes().get(0).tier());
    assertFalse(s.planning().popularityBiasCorrection(), "the extension's default popularity.biasCorrection");
    assertTrue(ScenarioParser.parse(MINIMAL.replace(
        "\"clients\"", "\"planning\": {\"popularityBiasCorrection\": true}, \"clients\""
    )).planning().popularityBiasCorrection());
    assertEquals("throughput", s.planning().capacityEstimator(), "the extension's default capacity.estimator");
    assertEquals(50, s.planning().maxLoadsPerRound(), "the extension's default maxLoadsPerRound");
    assertEquals(7, ScenarioParser.parse(MINIMAL.replace(
        "\"clients\"", "\"planning\": {\"maxLoadsPerRound\": 7}, \"clients\""
    )).planning().maxLoadsPerRound());
    assertEquals(Integer.MAX_VALUE, s.planning().maxDropsPerRound(), "drops are not limited unless set");
    assertEquals(LoadBeforeDrop.PLANNED_COUNT_SERVING, s.planning().loadBeforeDrop());
    final ScenarioSettings strict = ScenarioParser.parse(MINIMAL.replace(
        "\"clients\"",
        "\"planning\": {\"maxDropsPerRound\": 3, \"loadBeforeDrop\": \"allPlannedLoaded\"}, \"clients\""
    ));
    assertEquals(3, strict.planning().maxDropsPerRound());
    assertEquals(LoadBeforeDrop.ALL_PLANNED_LOADED, strict.planning().loadBeforeDrop());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}, {\"cores\": -2}], \"clients\": {\"count\": 1}}|nodes[1].cores",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": \"many\"}], \"clients\": {\"count\": 1}}|nodes[0].cores",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4, \"tier\": \"LUKEWARM\"}], \"clients\": {\"count\": 1}}|nodes[0].tier",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 0}}|clients.count",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}]}|clients",
      "{\"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}}|name",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"durationSeconds\": -5}|durationSeconds",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"colour\": 1}|colour",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1, \"minQueriesPerSecond\": 10, \"maxQueriesPerSecond\": 5}}|clients.maxQueriesPerSecond",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"stragglers\": [{\"node\": \"hn-7\", \"speed\": 0.5}]}|stragglers[0].node",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"runs\": [{\"strategy\": \"magic\"}]}|runs[0].strategy",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"planning\": {\"gamma\": 1.5}}|planning.gamma",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"planning\": {\"popularityBiasCorrection\": \"yes\"}}|planning.popularityBiasCorrection",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"planning\": {\"popularityDecay\": 1}}|planning.popularityDecay",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"planning\": {\"maxLoadsPerRound\": -1}}|planning.maxLoadsPerRound",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"planning\": {\"maxDropsPerRound\": -1}}|planning.maxDropsPerRound",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"planning\": {\"loadBeforeDrop\": \"never\"}}|planning.loadBeforeDrop",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"runs\": [{\"strategy\": \"getafix-b\", \"routing\": \"psychic\"}]}|runs[0].routing",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"workload\": {\"queryTypes\": [{\"name\": \"t\", \"weight\": 1}]}}|workload.queryTypes[0].meanTaskMillis",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"redundancy\": {\"sloMillis\": 50}, \"runs\": [{\"strategy\": \"getafix-b\", \"redundancy\": \"triple\"}]}|runs[0].redundancy",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"redundancy\": {\"periodSeconds\": 5}}|redundancy.sloMillis",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"interference\": [{\"nodes\": [\"hn-9\"]}]}|interference[0].nodes[0]",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"interference\": [{\"nodes\": [\"hn-0\"], \"everySeconds\": 1, \"stallSeconds\": 2}]}|interference[0].stallSeconds",
      "{\"name\": \"x\", \"nodes\": [{\"cores\": 4}], \"clients\": {\"count\": 1}, \"diurnal\": {\"minFactor\": 0.5}}|diurnal.periodSeconds",
  })
  void badFieldsAreNamedInTheError(String json, String field)
  {
    final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(json));
    assertTrue(e.getMessage().contains("'" + field + "'"), "message should name " + field + ": " + e.getMessage());
  }

  @Test
  void malformedJsonSaysWhere()
  {
    final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse("{\"name\": "));
    assertTrue(e.getMessage().contains("not valid JSON"), e.getMessage());
  }

  @Test
  void unknownScenarioListsTheBuiltIns()
  {
    final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.load("no-such-scenario"));
    assertTrue(e.getMessage().contains("tiered-15"), e.getMessage());
  }
}
