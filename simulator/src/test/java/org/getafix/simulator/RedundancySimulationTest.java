package org.getafix.simulator;

import org.getafix.simulator.report.RedundancyResult;
import org.getafix.simulator.report.RunOutcome;
import org.getafix.simulator.report.RunResult;
import org.getafix.simulator.settings.ScenarioException;
import org.getafix.simulator.settings.ScenarioParser;
import org.getafix.simulator.settings.ScenarioSettings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every redundancy mode end to end on a tiny cluster whose segments all have two holders, two of them stalling. */
class RedundancySimulationTest
{
  private static final String TINY = """
      {
        "name": "tiny-redundancy",
        "seed": 7,
        "durationSeconds": 60,
        "warmupSeconds": 20,
        "nodes": [{"name": "hn", "count": 4, "cores": 4}],
        "interference": [{"nodes": ["hn-0", "hn-2"], "everySeconds": 10, "stallSeconds": 2, "speedFactor": 0.1}],
        "clients": {"count": 2, "minQueriesPerSecond": 10, "maxQueriesPerSecond": 20},
        "segments": {"initial": 40, "arrivalEverySeconds": 0, "sizeBytes": 1000000, "loadBytesPerSecond": 100000000},
        "workload": {"queryTypes": [{"name": "timeseries", "weight": 1, "meanTaskMillis": 20, "cv": 0.2}]},
        "planning": {"druidDefaultReplicas": 2},
        "redundancy": {"sloMillis": 60, "periodSeconds": 5},
        "runs": [
          {"label": "none", "strategy": "druid-default", "redundancy": "none"},
          {"label": "hedge", "strategy": "druid-default", "redundancy": "hedge"},
          {"label": "spare", "strategy": "druid-default", "redundancy": "spare"},
          {"label": "zoolander", "strategy": "druid-default", "redundancy": "zoolander"},
          {"label": "duplicate", "strategy": "druid-default", "redundancy": "duplicate"}
        ]
      }
      """;

  private static Map<String, RunResult> run(String json)
  {
    return Simulate.simulate(ScenarioParser.parse(json))
                   .runs()
                   .stream()
                   .collect(Collectors.toMap(RunOutcome::label, RunOutcome::result));
  }

  @Test
  void everyModeReportsItsCopiesAndServiceLevel()
  {
    final Map<String, RunResult> runs = run(TINY);
    for (RunResult r : runs.values()) {
      final RedundancyResult redundancy = r.redundancy();
      assertNotNull(redundancy);
      assertTrue(redundancy.subQueries() > 1000, redundancy.mode() + ": " + redundancy.subQueries());
      assertTrue(redundancy.subQueriesWithinSlo() > 0 && redundancy.subQueriesWithinSlo() <= 1, redundancy.mode());
      assertTrue(redundancy.queriesOverSlo() >= 0 && redundancy.queriesOverSlo() < 1, redundancy.mode());
      assertEquals(12, redundancy.periods().size(), "a period every 5 s up to the end of injection");
      assertEquals(redundancy.mode().equals("zoolander"), redundancy.predictedWithinSlo() != null);
      assertEquals(redundancy.mode().equals("spare"), redundancy.meanReplicationFactor() != null);
    }
    assertEquals(0, runs.get("none").redundancy().extraSubQueries());
    // Two holders per segment once the plan has loaded them: nearly every share twice.
    assertTrue(runs.get("duplicate").redundancy().extraShare() > 0.9, "" + runs.get("duplicate").redundancy());
    // The hedge budget bounds the hedges that lose at 5% (plus its initial burst); those that win behind a stalled
    // node are free, so hedging sends more than 5% here, but far fewer copies than duplicating everything.
    final double hedges = runs.get("hedge").redundancy().extraShare();
    assertTrue(hedges > 0.05 && hedges < 0.25, "hedges beyond the losing ones' 5%, well below duplication: " + hedges);
    assertTrue(runs.get("spare").redundancy().meanReplicationFactor() >= 1);
    assertTrue(runs.get("zoolander").redundancy().extraShare() > 0, "light load: the model duplicates");
    // Masking the stalls: copies cut the tail.
    assertTrue(runs.get("duplicate").latencyMs().p99() < runs.get("none").latencyMs().p99());
  }

  @Test
  void withoutRedundancyTheSettingsOnlyMeasure()
  {
    final String none = TINY.replaceAll(
        "\"runs\": \\[[^\\]]*\\]",
        "\"runs\": [{\"label\": \"none\", \"strategy\": \"druid-default\"}]"
    );
    final RunResult measured = run(none).get("none");
    final RunResult plain = run(none.replaceAll("\"redundancy\": \\{[^}]*},", "")).get("none");
    assertNull(plain.redundancy(), "no redundancy settings, no redundancy figures");
    assertEquals(plain.latencyMs(), measured.latencyMs());
    assertEquals(plain.tasks(), measured.tasks());
    assertEquals(plain.queries(), measured.queries());
    assertTrue(measured.redundancy().subQueries() > 0);
  }

  @Test
  void aRunAskingForRedundancyNeedsItsSettings()
  {
    final String json = TINY.replaceAll("\"redundancy\": \\{[^}]*},", "");
    final ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(json));
    assertTrue(e.getMessage().contains("'redundancy'"), e.getMessage());
  }

  @Test
  void settingsAreParsed()
  {
    final ScenarioSettings s = ScenarioParser.parse(TINY.replace(
        "\"redundancy\": {\"sloMillis\": 60, \"periodSeconds\": 5}",
        "\"redundancy\": {\"sloMillis\": 60, \"hedgeRatio\": 0.1, \"maxFactor\": 1.5, \"serviceLevelTarget\": 0.99,"
        + " \"duplicates\": 3}, \"diurnal\": {\"periodSeconds\": 100, \"minFactor\": 0.4}"
    ));
    assertEquals(new ScenarioSettings.Redundancy(60, 5, 0.1, 1.5, 0.99, 3), s.redundancy());
    assertEquals(
        List.of(new ScenarioSettings.Interference(List.of("hn-0", "hn-2"), 10, 2, 0.1)),
        s.interference()
    );
    assertEquals(0.4, s.diurnal().factorAt(0), 1e-12);
    assertEquals(1.0, s.diurnal().factorAt(50), 1e-12);
    assertEquals(
        List.of("none", "hedge", "spare", "zoolander", "duplicate"),
        s.runs().stream().map(ScenarioSettings.Run::redundancy).toList()
    );
    final ScenarioSettings defaults = ScenarioParser.parse(TINY);
    assertTrue(Double.isNaN(defaults.redundancy().serviceLevelTarget()), "maximise the service level unless set");
    assertEquals(0.05, defaults.redundancy().hedgeRatio());
    assertEquals(2, defaults.redundancy().duplicates());
  }
}
