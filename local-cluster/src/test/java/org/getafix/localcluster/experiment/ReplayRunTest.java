package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.BUSY;
import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.QUIET;
import static org.getafix.localcluster.experiment.OnlineFiguresTest.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayRunTest
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * Two cycles: busy phases of two answers each (coverage 1 and 0.5, then 0.5 and 0 plus a failure), quiet phases
   * without queries, in which the replays ran and the Historicals used their CPU on them.
   */
  static List<ReplayRun.Phase> phases()
  {
    return List.of(
        new ReplayRun.Phase(BUSY, 15_000, 10, 1.0, new SampleCounters(1, 4, 3, 1, 0, 0, 0, 0, 0), List.of(
            outcome(200, 1000, 1.0),
            outcome(200, 2000, 0.5)
        )),
        new ReplayRun.Phase(QUIET, 15_000, 3, 0.5, new SampleCounters(0, 0, 0, 0, 3, 3, 0, 0, 0), List.of()),
        new ReplayRun.Phase(BUSY, 16_000, 12, 1.0, new SampleCounters(1, 5, 4, 0, 1, 1, 0, 0, 0), List.of(
            outcome(200, 1500, 0.5),
            outcome(200, 3000, 0.0),
            outcome(500, 10, Double.NaN)
        )),
        new ReplayRun.Phase(QUIET, 15_000, 2, 0.5, new SampleCounters(0, 0, 0, 0, 2, 2, 0, 0, 1), List.of())
    );
  }

  static ReplayRun run(ReplaySetup setup, double estimate, double confidence95) throws Exception
  {
    return ReplayRun.of(setup, phases(), MAPPER.readTree(String.format(
        "{\"sampledQuality\": {\"meanQuality\": %s, \"confidence95\": %s, \"measuredRuns\": 8, \"effectiveRuns\": 6.0},"
        + " \"replayQueue\": 1, \"replaysInFlight\": 1}",
        estimate, confidence95
    )));
  }

  @Test
  void theFiguresAreSplitByPhaseKind() throws Exception
  {
    final ReplayRun run = run(ReplaySetup.REPLAY_ON, 0.6, 0.1);
    final OnlineFigures busy = run.online(BUSY);
    assertEquals(5, busy.queries());
    assertEquals(4, busy.answered());
    assertEquals(1875, busy.meanMillis(), 1e-9);
    assertEquals(3000, busy.p99Millis(), 1e-9);
    assertEquals(0.5, busy.meanCoverage(), 1e-12);
    assertEquals(0, run.online(QUIET).queries());
    assertEquals(22, run.historicalCpuSeconds(BUSY), 1e-12);
    assertEquals(5, run.historicalCpuSeconds(QUIET), 1e-12);
    assertEquals(27, run.historicalCpuSeconds(), 1e-12);
    assertEquals(27_000.0 / 4, run.historicalCpuMillisPerAnswer(), 1e-9, "the run's CPU over its answers");
    assertEquals(3, run.brokerCpuSeconds(), 1e-12);
  }

  @Test
  void theCountersAddUpPerKindAndOverTheRun() throws Exception
  {
    final ReplayRun run = run(ReplaySetup.REPLAY_ON, 0.6, 0.1);
    assertEquals(1, run.counters(BUSY).replaysStarted(), "one replay was due under load");
    assertEquals(5, run.counters(QUIET).replaysStarted());
    assertEquals(new SampleCounters(2, 9, 7, 1, 6, 6, 0, 0, 1), run.counters());
    assertEquals(11, run.counters().sampled());
    assertEquals(2, run.unfinishedAtEnd(), "one queued and one in flight");
  }

  @Test
  void theTruthIsTheMeanCoverageOfEveryAnswerOfTheRun() throws Exception
  {
    final ReplayRun close = run(ReplaySetup.REPLAY_ON, 0.6, 0.1);
    assertEquals(0.5, close.estimate().truth(), 1e-12, "(1 + 0.5 + 0.5 + 0) / 4; the failure is no answer");
    assertEquals(0.1, close.estimate().error(), 1e-12);
    assertTrue(close.estimate().truthWithinInterval());
    final ReplayRun high = run(ReplaySetup.REPLAY_OFF, 0.75, 0.1);
    assertEquals(0.25, high.estimate().error(), 1e-12);
    assertFalse(high.estimate().truthWithinInterval(), "an estimate that reads high misses the truth");
  }
}
