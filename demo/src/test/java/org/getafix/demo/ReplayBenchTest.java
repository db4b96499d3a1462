package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.localcluster.experiment.BudgetLoad;
import org.getafix.localcluster.experiment.QualityEstimateCheck;
import org.getafix.localcluster.experiment.ReplayRun;
import org.getafix.localcluster.experiment.ReplaySetup;
import org.getafix.localcluster.experiment.SampleCounters;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.BUSY;
import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.QUIET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayBenchTest
{
  /**
   * Per repetition: replays off answer in 1,000 and 2,000 ms with 10 s of Historical CPU in the busy phase and 2 in
   * the quiet one, the estimate 0.8 ± 0.1 against a truth of 0.5; replays on answer in {@code onMillis} and twice that
   * with 12 s busy and 8 s quiet, 0.55 ± 0.1.
   */
  private static final List<AbbaComparison.Repetition<ReplayBench.Figures>> RUNS = List.of(
      repetition(List.of(ReplaySetup.REPLAY_OFF, ReplaySetup.REPLAY_ON), 1100),
      repetition(List.of(ReplaySetup.REPLAY_ON, ReplaySetup.REPLAY_OFF), 1500),
      repetition(List.of(ReplaySetup.REPLAY_OFF, ReplaySetup.REPLAY_ON), 1000)
  );

  private static BudgetLoad.Outcome answer(long millis, double coverage)
  {
    return new BudgetLoad.Outcome(1, true, 200, millis, coverage, millis, Double.NaN);
  }

  private static ReplayRun run(ReplaySetup setup, long firstMillis, double busyCpu, double quietCpu, double estimate)
  {
    final int replayed = setup == ReplaySetup.REPLAY_ON ? 1 : 0;
    final SampleCounters busy = new SampleCounters(1, 4, 3 * replayed, replayed, replayed, replayed, 0, 0, 0);
    final SampleCounters quiet = new SampleCounters(0, 0, 0, 0, 2 * replayed, 2 * replayed, 0, 0, 0);
    return new ReplayRun(
        setup,
        List.of(
            new ReplayRun.Phase(BUSY, 15_000, busyCpu, 1, busy, List.of(
                answer(firstMillis, 1.0),
                answer(2 * firstMillis, 0.0)
            )),
            new ReplayRun.Phase(QUIET, 15_000, quietCpu, 0.5, quiet, List.of())
        ),
        new QualityEstimateCheck(estimate, 0.1, 1 + 3 * replayed, 1 + 2.5 * replayed, 0.5),
        0
    );
  }

  private static AbbaComparison.Repetition<ReplayBench.Figures> repetition(List<ReplaySetup> order, long onMillis)
  {
    final Map<String, ReplayBench.Figures> runs = List.of(
        new ReplayBench.Figures(run(ReplaySetup.REPLAY_OFF, 1000, 10, 2, 0.8)),
        new ReplayBench.Figures(run(ReplaySetup.REPLAY_ON, onMillis, 12, 8, 0.55))
    ).stream().collect(Collectors.toMap(ReplayBench.Figures::setup, Function.identity()));
    return new AbbaComparison.Repetition<>(order.stream().map(s -> runs.get(s.name())).toList());
  }

  private static Map<String, RepetitionsReport.Measure> byName(List<RepetitionsReport.Measure> measures)
  {
    return measures.stream().collect(Collectors.toMap(RepetitionsReport.Measure::name, Function.identity()));
  }

  @Test
  void theSetupsAlternateOrderAndReplaysOnIsTheNumerator()
  {
    assertEquals(List.of(ReplayBench.OFF, ReplayBench.ON), ReplayBench.COMPARISON.schedule(2, false).get(0));
    assertEquals(List.of(ReplayBench.ON, ReplayBench.OFF), ReplayBench.COMPARISON.schedule(2, false).get(1));
    final Map<String, RepetitionsReport.Measure> ratios = byName(ReplayBench.COMPARISON.ratios(RUNS));
    assertEquals(List.of(1.1, 1.5, 1.0), ratios.get("busy phases: mean response time").values());
    assertEquals(List.of(1.1, 1.5, 1.0), ratios.get("busy phases: p99 response time").values());
    assertEquals(1.2, ratios.get("busy phases: Historical CPU").median(), 1e-12);
    assertEquals(20.0 / 12, ratios.get("whole run: Historical CPU").median(), 1e-12, "busy and quiet together");
  }

  @Test
  void eachSetupGivesItsSamplesItsReplaysAndItsEstimateAgainstTheTruth()
  {
    final Map<String, RepetitionsReport.Measure> figures = byName(ReplayBench.COMPARISON.figures(RUNS));
    assertEquals(5, figures.get(ReplayBench.ON + ": samples").median());
    assertEquals(1, figures.get(ReplayBench.ON + ": replays started in busy phases").median());
    assertEquals(2, figures.get(ReplayBench.ON + ": replays started in quiet phases").median());
    assertEquals(0, figures.get(ReplayBench.OFF + ": replays started in quiet phases").median());
    assertEquals(0.3, figures.get(ReplayBench.OFF + ": estimate - truth").median(), 1e-12);
    assertEquals(0, figures.get(ReplayBench.OFF + ": " + ReplayBench.TRUTH_WITHIN).median(), "0.8 ± 0.1 misses 0.5");
    assertEquals(1, figures.get(ReplayBench.ON + ": " + ReplayBench.TRUTH_WITHIN).median(), "0.55 ± 0.1 holds it");
    assertEquals(0.5, figures.get(ReplayBench.ON + ": busy phases: mean coverage").median(), 1e-12);
    assertEquals(6_000, figures.get(ReplayBench.OFF + ": Historical CPU per answered query (ms)").median(), 1e-9,
                 "(10 + 2) s over 2 answers");
  }

  @Test
  void theResultsGiveEveryRunPhaseByPhase()
  {
    final JsonNode json = ReplayBench.json("setup", RUNS);
    assertEquals("live-bench-replay", json.path("experiment").asText());
    assertTrue(json.path("ratios").path("busy phases: mean response time").has("medianReplayOffFirst"));
    assertTrue(json.path("ratios").path("busy phases: mean response time").has("medianReplayOnFirst"));
    final JsonNode runs = json.path("runs");
    assertEquals(6, runs.size(), "two setups in each of three repetitions");
    assertEquals(2, runs.get(2).path("repetition").asInt());
    assertEquals(ReplayBench.ON, runs.get(2).path("setup").asText(), "repetition 2 ran replays on first");
    final JsonNode quiet = runs.get(2).path("phases").get(1);
    assertEquals("QUIET", quiet.path("kind").asText());
    assertEquals(2, quiet.path("replaysStarted").asInt());
    assertTrue(quiet.path("meanMs").isNull(), "no query in a quiet phase");
    assertEquals(2250, runs.get(2).path("phases").get(0).path("meanMs").asDouble(), 1e-9);
  }

  @Test
  void theReportSaysWhatEachRunDoes()
  {
    final String html = ReplayBench.html("3 Historicals at 1.0/0.5/0.25 cores", RUNS);
    assertTrue(html.contains("3 Historicals at 1.0/0.5/0.25 cores"));
    assertTrue(html.contains("sampled at 0.5 and 1 mature run at a time"), html);
    assertTrue(html.contains("queued (64 at most)"), html);
    assertTrue(html.contains(ReplayBench.ON + " first"), "the medians by order");
  }
}
