package org.getafix.core.wire;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsPlausibilityTest
{
  private static final long DEADLINE = 2000;

  @Test
  void aLiveQuarterCoreHistoricalPasses()
  {
    // The 0.25-core node of the live test cluster, busy for a 5 s round: its quota spent, scans on both threads.
    final HistoricalStatsReport before = report(81_234, 1_203_311, 2_950_114, 905, 2360, 0.25, Map.of(
        "s1", new HistoricalStatsReport.SegmentStats(12, 40)
    ));
    final HistoricalStatsReport after = report(86_234, 1_700_000, 4_200_000, 5905, 4360, 0.25, Map.of(
        "s1", new HistoricalStatsReport.SegmentStats(5012, 2040)
    ));
    assertNull(StatsPlausibility.problemOf(before));
    assertNull(StatsPlausibility.problemOf(after));
    assertNull(StatsPlausibility.problemOf(before, after, 5000, DEADLINE));
    // Pulled up to a deadline apart from when they were written.
    assertNull(StatsPlausibility.problemOf(before, after, 3100, DEADLINE));
    assertNull(StatsPlausibility.problemOf(before, after, 6900, DEADLINE));
  }

  @Test
  void aLongQueryCompletingInARoundPassesButImpossibleCpuDoesNot()
  {
    final HistoricalStatsReport before = report(100_000, 1_000_000, 0, 0, 0, 0.25, Map.of());
    // A 30 s query on the whole quarter core, reported when it completes.
    assertNull(StatsPlausibility.problemOf(before, report(105_000, 8_500_000, 0, 0, 0, 0.25, Map.of()), 5000,
                                           DEADLINE));
    // A minute of a full core in one 5 s round is not what a quarter core does.
    final StatsPlausibility.Problem tooMuch = StatsPlausibility.problemOf(
        before, report(105_000, 61_000_000, 0, 0, 0, 0.25, Map.of()), 5000, DEADLINE
    );
    assertEquals("cpuTimeMicros", tooMuch.field());
    assertTrue(tooMuch.message().contains("in a round of [5000] ms"), tooMuch.message());
    // Process CPU is measured, not reported at completion: no grace beyond the deadline.
    final StatsPlausibility.Problem process = StatsPlausibility.problemOf(
        report(100_000, 0, 1_000_000, 0, 0, 0.25, Map.of()),
        report(105_000, 0, 5_000_000, 0, 0, 0.25, Map.of()),
        5000,
        DEADLINE
    );
    assertEquals("processCpuMicros", process.field());
  }

  @Test
  void segmentTimeIsBoundedByTheProcessingThreads()
  {
    final HistoricalStatsReport before = report(100_000, 0, 0, 0, 0, 1, Map.of());
    final StatsPlausibility.Problem nodeTotal = StatsPlausibility.problemOf(
        before, report(105_000, 0, 0, 1_000_000, 10, 1, Map.of()), 5000, DEADLINE
    );
    assertEquals("segmentTimeMillis", nodeTotal.field());
    final StatsPlausibility.Problem perSegment = StatsPlausibility.problemOf(
        before,
        report(105_000, 0, 0, 10, 10, 1, Map.of("s1", new HistoricalStatsReport.SegmentStats(1_000_000, 10))),
        5000,
        DEADLINE
    );
    assertEquals("segments", perSegment.field());
  }

  @Test
  void cpuCoresMustBeFinitePositiveAndSane()
  {
    for (double cores : new double[]{-4, 1e308, 5e-324, Double.NaN, Double.NEGATIVE_INFINITY, 5000}) {
      final StatsPlausibility.Problem p = StatsPlausibility.problemOf(report(1000, 0, 0, 0, 0, cores, Map.of()));
      assertEquals("cpuCores", p.field(), "cpuCores " + cores);
      assertTrue(p.message().contains("cpuCores [" + cores + "]"), p.message());
    }
    assertNull(StatsPlausibility.problemOf(report(1000, 0, 0, 0, 0, 0, Map.of())), "0: not reported");
    assertNull(StatsPlausibility.problemOf(report(1000, 0, 0, 0, 0, 0.001, Map.of())));
    final StatsPlausibility.Problem jump = StatsPlausibility.problemOf(
        report(1000, 0, 0, 0, 0, 0.25, Map.of()), report(6000, 0, 0, 0, 0, 12, Map.of()), 5000, DEADLINE
    );
    assertEquals("cpuCores", jump.field());
    assertNull(StatsPlausibility.problemOf(
        report(1000, 0, 0, 0, 0, 0.25, Map.of()), report(6000, 0, 0, 0, 0, 2, Map.of()), 5000, DEADLINE
    ), "8x, e.g. a quota raised at runtime");
    assertNull(StatsPlausibility.problemOf(
        report(1000, 0, 0, 0, 0, 1, Map.of()), report(6000, 0, 0, 0, 0, 0.05, Map.of()), 5000, DEADLINE
    ), "a cut to a twentieth, e.g. a noisy neighbour's node throttled");
    final StatsPlausibility.Problem unreported = StatsPlausibility.problemOf(
        report(1000, 0, 0, 0, 0, 0.25, Map.of()), report(6000, 0, 0, 0, 0, 0, Map.of()), 5000, DEADLINE
    );
    assertEquals("cpuCores", unreported.field(), "within one epoch, 0 would fall back to the threads");
  }

  @Test
  void theProcessingThreadsDoNotChangeWithinOneProcess()
  {
    final HistoricalStatsReport before = report(1000, 0, 0, 0, 0, 0, Map.of());
    final HistoricalStatsReport more = new HistoricalStatsReport("e", 6000, 64, 0, 1, 0, 0, 0, 0, 0, Map.of(), 0, 0, 0);
    assertEquals("numProcessingThreads", StatsPlausibility.problemOf(before, more, 5000, DEADLINE).field());
    assertNull(StatsPlausibility.problemOf(null, more, 5000, DEADLINE), "a restart may resize the pool");
  }

  @Test
  void theFirstReportOfANewEpochMustFitTheTimeSinceTheLastOne()
  {
    assertNull(StatsPlausibility.problemOf(null, report(20_000, 100, 0, 0, 0, 1, Map.of()), 30_000, DEADLINE));
    assertEquals(
        "uptimeMillis",
        StatsPlausibility.problemOf(null, report(200_000, 100, 0, 0, 0, 1, Map.of()), 30_000, DEADLINE).field()
    );
  }

  @Test
  void sumsOfDurationsCannotExceedTheirCountTimesTheUptime()
  {
    final HistoricalStatsReport waits = new HistoricalStatsReport(
        "e", 10_000, 2, 0, 0, 0, 3, 1_000_000, 0, 0, Map.of(), 1, 0, 0
    );
    assertEquals("waitTimeMillis", StatsPlausibility.problemOf(waits).field());
    final HistoricalStatsReport scans = new HistoricalStatsReport(
        "e", 10_000, 2, 0, 0, 0, Long.MAX_VALUE, 0, 0, 0, Map.of(), 1, 0, 0
    );
    assertEquals("segmentScans", StatsPlausibility.problemOf(scans).field());
  }

  @Test
  void stallsFitTheRoundAndNeverGoBack()
  {
    final HistoricalStatsReport before = stalled(100_000, 1_000);
    // Stalled through the whole 5 s round, its report late by the deadline: plausible.
    assertNull(StatsPlausibility.problemOf(before, stalled(105_000, 6_000), 5000, DEADLINE));
    assertEquals(
        "stalledMillis",
        StatsPlausibility.problemOf(before, stalled(105_000, 20_000), 5000, DEADLINE).field()
    );
    assertEquals("stalledMillis", StatsPlausibility.problemOf(before, stalled(105_000, 900), 5000, DEADLINE).field());
    assertEquals("stalledMillis", StatsPlausibility.problemOf(stalled(10_000, 100_000)).field(), "beyond the uptime");
    assertTrue(stalled(10_000, -1).problem().contains("stalledMillis"));
  }

  private static HistoricalStatsReport stalled(long uptime, long stalledMillis)
  {
    return new HistoricalStatsReport("e", uptime, 2, 0, 0, 0, 0, 0, 0, 0, Map.of(), 1, 0, stalledMillis);
  }

  private static HistoricalStatsReport report(
      long uptime,
      long cpu,
      long processCpu,
      long segmentTime,
      long scans,
      double cores,
      Map<String, HistoricalStatsReport.SegmentStats> segments
  )
  {
    return new HistoricalStatsReport("e", uptime, 2, cpu, 1, segmentTime, scans, 0, 0, 0, segments, cores,
                                     processCpu, 0);
  }

  @Test
  void aClaimedRiseOfCoresIsBelievedOnlyAsFarAsTheNodeDeliveredItButACutOrAFirstClaimAtOnce()
  {
    assertEquals(0.375, StatsPlausibility.believedCores(0.25, 2.4, 0.25), 1e-9);
    assertEquals(0.25, StatsPlausibility.believedCores(0.25, 2.4, 0.1), 1e-9, "never below what was believed");
    assertEquals(1.0, StatsPlausibility.believedCores(0.25, 1.0, 0.9), 1e-9, "never above the claim");
    assertEquals(0.1, StatsPlausibility.believedCores(0.25, 0.1, 0), 1e-9, "a cut");
    assertEquals(2.4, StatsPlausibility.believedCores(0, 2.4, 0), 1e-9, "a first claim");
    assertEquals(0, StatsPlausibility.believedCores(0.25, 0, 0.2), 1e-9, "no claim");
  }
}
