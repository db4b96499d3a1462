package org.getafix.druid.coordinator.stats;

import org.apache.druid.jackson.DefaultObjectMapper;
import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.core.wire.HistoricalStatsReport.SegmentStats;
import org.jboss.netty.channel.ConnectTimeoutException;
import org.jboss.netty.handler.timeout.ReadTimeoutException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeStatsTrackerTest
{
  private static final long DEADLINE_MILLIS = 2000;

  private final NodeStatsTracker tracker = new NodeStatsTracker(DEADLINE_MILLIS);

  @Test
  void firstReportIsABaselineAndTheNextOneADelta()
  {
    final NodeStatsTracker.Outcome first = observe(report("e1", 1000, 500, Map.of(
        "s1", new SegmentStats(10, 2)
    )));
    assertNull(first.delta());
    assertNull(first.problem());

    final NodeStatsTracker.Outcome second = observe(report("e1", 6000, 2500, Map.of(
        "s1", new SegmentStats(40, 5),
        "s2", new SegmentStats(3, 1)
    )));
    final NodeStatsTracker.NodeDelta d = second.delta();
    assertNotNull(d);
    assertEquals(5000, d.wallMillis());
    assertEquals(2000, d.cpuTimeMicros());
    assertEquals(new SegmentStats(30, 3), d.segments().get("s1"));
    assertEquals(new SegmentStats(3, 1), d.segments().get("s2"));
  }

  @Test
  void aRoundWithoutAReportIsCoveredByTheNextDelta()
  {
    observe(report("e1", 1000, 0, Map.of("s1", new SegmentStats(0, 1))));
    // Nothing reaches the tracker for the round ending at 6000: the pull failed, or its report had a problem.
    final NodeStatsTracker.Outcome next = observe(report("e1", 11000, 0, Map.of(
        "s1", new SegmentStats(0, 9)
    )));
    assertNull(next.problem());
    assertEquals(10000, next.delta().wallMillis(), "the delta spans both rounds");
    assertEquals(8, next.delta().segments().get("s1").scans());
  }

  @Test
  void aRestartStartsFromTheNewEpoch()
  {
    observe(report("e1", 100000, 99999, Map.of("s1", new SegmentStats(500, 50))));
    final NodeStatsTracker.NodeDelta d = observe(report("e2", 3000, 10, Map.of(
        "s1", new SegmentStats(7, 1)
    ))).delta();
    assertEquals(3000, d.wallMillis());
    assertEquals(10, d.cpuTimeMicros());
    assertEquals(new SegmentStats(7, 1), d.segments().get("s1"));
  }

  @Test
  void countersGoingBackwardsAreRejectedNamingTheValueAndKeepTheBaseline()
  {
    observe(report("e1", 1000, 100, Map.of()));
    final NodeStatsTracker.Outcome backwards = observe(report("e1", 2000, 50, Map.of()));
    assertTrue(backwards.problem().contains("cpuTimeMicros went backwards [100 -> 50]"), backwards.problem());
    final NodeStatsTracker.Outcome stuck = observe(report("e1", 1000, 200, Map.of()));
    assertTrue(stuck.problem().contains("uptimeMillis did not advance"), stuck.problem());
    // The baseline is still the first report.
    assertEquals(100, observe(report("e1", 5000, 200, Map.of())).delta().cpuTimeMicros());
  }

  @Test
  void anEvictedSegmentCountingAgainIsNotANegativeDelta()
  {
    // Node totals keep growing (the collector never evicts them); only the segment's own counters restart.
    observe(new HistoricalStatsReport("e1", 1000, 2, 0, 1, 100, 10, 0, 0, 0, Map.of(
        "s1", new SegmentStats(100, 10)
    )));
    final NodeStatsTracker.NodeDelta d = observe(new HistoricalStatsReport("e1", 2000, 2, 0, 1, 104, 12,
                                                                                         0, 0, 0, Map.of(
        "s1", new SegmentStats(4, 2)
    ))).delta();
    assertEquals(new SegmentStats(4, 2), d.segments().get("s1"));
  }

  @Test
  void processCpuIsDiffedButNotOverARestartOrFromAnOlderHistorical()
  {
    observe(withProcessCpu(report("e1", 1000, 100, Map.of()), 5_000_000));
    assertEquals(
        300_000,
        observe(withProcessCpu(report("e1", 4000, 200, Map.of()), 5_300_000)).delta().processCpuMicros()
    );
    // Restarted: its process CPU since start is mostly start-up, no query's cost.
    assertEquals(
        0,
        observe(withProcessCpu(report("e2", 3000, 10, Map.of()), 9_000_000)).delta().processCpuMicros()
    );
    // Downgraded to a Historical that does not report it.
    assertEquals(0, observe(report("e2", 6000, 20, Map.of())).delta().processCpuMicros());
    // Upgraded again: the first report with it is a baseline for it, not a delta from 0.
    final NodeStatsTracker.Outcome upgraded =
        observe(withProcessCpu(report("e2", 9000, 30, Map.of()), 7_000_000));
    assertNull(upgraded.problem());
    assertEquals(0, upgraded.delta().processCpuMicros());
  }

  @Test
  void processCpuGoingBackwardsIsRejected()
  {
    observe(withProcessCpu(report("e1", 1000, 100, Map.of()), 5_000_000));
    final NodeStatsTracker.Outcome backwards =
        observe(withProcessCpu(report("e1", 2000, 100, Map.of()), 4_000_000));
    assertTrue(backwards.problem().contains("processCpuMicros went backwards [5000000 -> 4000000]"),
               backwards.problem());
  }

  @Test
  void aReportOfLongMaxValueCountersIsRejectedAndTheNextGenuineOneDiffedAgainstTheLastAccepted()
  {
    assertNull(observe(node("e1", 10_000, 1_000_000, 4_000_000, 0.25)).problem());
    final long max = Long.MAX_VALUE;
    final NodeStatsTracker.Outcome absurd = observe(new HistoricalStatsReport(
        "e1", 15_000, 2, max, max, max, max, max, max, max, Map.of("s1", new SegmentStats(max, max)), 0.25, max, 0
    ));
    assertNull(absurd.delta());
    assertEquals("cpuTimeMicros", absurd.implausibleField());
    assertTrue(absurd.problem().contains("cpuTimeMicros [" + max + "] is above"), absurd.problem());

    // Not "went backwards": the absurd report never became the baseline.
    final NodeStatsTracker.Outcome genuine = observe(node("e1", 20_000, 3_000_000, 6_500_000, 0.25));
    assertNull(genuine.problem());
    assertEquals(10_000, genuine.delta().wallMillis());
    assertEquals(2_000_000, genuine.delta().cpuTimeMicros());
    assertEquals(2_500_000, genuine.delta().processCpuMicros());
  }

  @Test
  void aCpuSpikeIsRejectedEvenOnANodeUpLongEnoughForItsTotalToLookPossible()
  {
    // Up 60 days: 9e15 us of query CPU fits 4096 cores × uptime, but not a 0.25-core node's round.
    final long up = 60L * 24 * 3600 * 1000;
    observe(node("e1", up, 1_000_000, 4_000_000, 0.25));
    final NodeStatsTracker.Outcome spike = observe(node("e1", up + 5000, 1_000_000 + 9_000_000_000_000_000L,
                                                        5_000_000, 0.25));
    assertNull(spike.delta());
    assertEquals("cpuTimeMicros", spike.implausibleField());
    assertTrue(spike.problem().contains("above cores × (round + grace)"), spike.problem());
    final NodeStatsTracker.Outcome processSpike = observe(node("e1", up + 10_000, 2_000_000,
                                                               4_000_000 + 9_000_000_000_000_000L, 0.25));
    assertEquals("processCpuMicros", processSpike.implausibleField());

    final NodeStatsTracker.Outcome genuine = observe(node("e1", up + 15_000, 2_500_000, 7_000_000, 0.25));
    assertNull(genuine.problem());
    assertEquals(15_000, genuine.delta().wallMillis());
    assertEquals(1_500_000, genuine.delta().cpuTimeMicros());
  }

  @Test
  void anUptimeJumpIsRejectedAndTheNextGenuineReportAccepted()
  {
    tracker.observe("h1", node("e1", 10_000, 0, 0, 1), 500_000);
    final NodeStatsTracker.Outcome jump = tracker.observe("h1", node("e1", 10_000 + 1_000_000_000_000L, 100, 0, 1),
                                                          505_000);
    assertEquals("uptimeMillis", jump.implausibleField());
    assertTrue(jump.problem().contains("while [5000] ms passed"), jump.problem());
    // A clock that stood still while the Coordinator's ran on is as wrong.
    final NodeStatsTracker.Outcome stalled = tracker.observe("h1", node("e1", 10_001, 100, 0, 1), 560_000);
    assertEquals("uptimeMillis", stalled.implausibleField());

    final NodeStatsTracker.Outcome genuine = tracker.observe("h1", node("e1", 85_000, 200, 0, 1), 575_000);
    assertNull(genuine.problem());
    assertEquals(75_000, genuine.delta().wallMillis());
  }

  @Test
  void implausibleCpuCoresAreRejectedAndNeverBecomeTheBaseline()
  {
    for (double cores : new double[]{-4, 1e308, 5e-324, Double.NaN, Double.POSITIVE_INFINITY}) {
      final NodeStatsTracker.Outcome first = observe(node("e1", 1000, 0, 0, cores));
      assertEquals("cpuCores", first.implausibleField(), "cpuCores " + cores);
    }
    assertNull(observe(node("e1", 2000, 0, 0, 0.25)).problem(), "the first plausible report is the baseline");
    for (double cores : new double[]{-4, 1e308, 5e-324, Double.NaN, 8}) {
      final NodeStatsTracker.Outcome bad = observe(node("e1", 3000, 100, 200, cores));
      assertNull(bad.delta(), "cpuCores " + cores);
      assertEquals("cpuCores", bad.implausibleField(), "cpuCores " + cores);
      assertTrue(bad.problem().contains("cpuCores"), bad.problem());
    }
    // A quota changed at runtime by less than an order of magnitude may be genuine: not rejected.
    final NodeStatsTracker.Outcome changed = observe(node("e1", 7000, 100, 200, 1));
    assertNull(changed.problem());
    assertEquals(5000, changed.delta().wallMillis());
  }

  @Test
  void aRiseOfCpuCoresWithinOneProcessIsBelievedOnlyAsFarAsTheNodeDeliversIt()
  {
    // A 0.25-core node busy at its quota: 1.25 s of CPU in each 5 s round.
    assertNull(observe(node("e1", 10_000, 0, 2_500_000, 0.25)).problem());
    final NodeStatsTracker.Outcome claimed = observe(node("e1", 15_000, 0, 3_750_000, 2.4));
    assertNull(claimed.problem(), "a rise under 10x may be genuine");
    assertEquals(0.375, claimed.delta().cpuCores(), 1e-9, "1.5x the 0.25 cores it delivered, not the 2.4 claimed");
    assertEquals(0.375, observe(node("e1", 20_000, 0, 5_000_000, 2.4)).delta().cpuCores(), 1e-9,
                 "the claim gains nothing while the node delivers no more");
    // The quota really was raised to 1 core: the node delivers 0.9 of a core, and is believed.
    assertEquals(1, observe(node("e1", 25_000, 0, 9_500_000, 1)).delta().cpuCores(), 1e-9);
    assertEquals(0.25, observe(node("e1", 30_000, 0, 10_750_000, 0.25)).delta().cpuCores(), 1e-9,
                 "a cut is believed at once");
    // A restarted process's claim is its start's: believed at once.
    assertEquals(2.4, observe(node("e2", 5_000, 0, 1_000_000, 2.4)).delta().cpuCores(), 1e-9);
  }

  @Test
  void countersGoingBackwardsWithoutANewEpochBecomeTheBaselineAfterAFewRounds()
  {
    tracker.observe("h1", node("e1", 100_000, 5_000_000, 9_000_000, 1), 100_000);
    // Restarted, but kept its epoch: every counter counts from 0 again.
    for (int i = 1; i < NodeStatsTracker.REBASE_AFTER; i++) {
      final NodeStatsTracker.Outcome o = tracker.observe("h1", node("e1", 5000L * i, 1000L * i, 2000L * i, 1),
                                                         100_000 + 5000L * i);
      assertNull(o.delta());
      assertTrue(o.problem().contains("uptimeMillis did not advance"), o.problem());
      assertTrue(o.problem().contains("diffing the next report against the last accepted one"), o.problem());
    }
    final long last = 5000L * NodeStatsTracker.REBASE_AFTER;
    final NodeStatsTracker.Outcome rebased = tracker.observe("h1", node("e1", last, 1000, 2000, 1), 100_000 + last);
    assertNull(rebased.delta());
    assertTrue(rebased.problem().contains("this one is the new baseline"), rebased.problem());

    final NodeStatsTracker.Outcome next = tracker.observe("h1", node("e1", last + 5000, 4000, 6000, 1),
                                                          100_000 + last + 5000);
    assertNull(next.problem());
    assertEquals(5000, next.delta().wallMillis());
    assertEquals(3000, next.delta().cpuTimeMicros());
    assertEquals(4000, next.delta().processCpuMicros());
  }

  @Test
  void onlyAReadTimeoutIsALateAnswer()
  {
    assertTrue(StatsPuller.isReadTimeout(new ReadTimeoutException()));
    assertTrue(StatsPuller.isReadTimeout(new RuntimeException(new TimeoutException("deadline"))));
    assertFalse(StatsPuller.isReadTimeout(new ConnectException("Connection refused")));
    assertFalse(StatsPuller.isReadTimeout(new ConnectTimeoutException("no SYN-ACK")), "no connection: not up");
  }

  @Test
  void parseRejectsBadAnswersWithAReason()
  {
    final DefaultObjectMapper mapper = new DefaultObjectMapper();
    assertTrue(StatsPuller.parse(500, "{}", mapper).problem().contains("HTTP 500"));
    assertFalse(StatsPuller.parse(500, "{}", mapper).unreachable(), "an answer, even an error, is not a dead node");
    assertTrue(StatsPuller.parse(200, "", mapper).problem().contains("empty"));
    assertTrue(StatsPuller.parse(200, "{not json", mapper).problem().contains("unparseable"));
    assertTrue(StatsPuller.parse(200, "null", mapper).problem().contains("null"));
    assertTrue(StatsPuller.parse(200, "{\"epoch\":\"e\",\"uptimeMillis\":1,\"numProcessingThreads\":0}", mapper)
                          .problem().contains("numProcessingThreads [0]"));
    assertTrue(StatsPuller.parse(200, "{\"epoch\":\"e\",\"uptimeMillis\":\"NaN\",\"numProcessingThreads\":1}",
                                 mapper).problem() != null);
    assertTrue(StatsPuller.parse(200, "{\"epoch\":\"e\",\"uptimeMillis\":1,\"numProcessingThreads\":1,"
                                      + "\"processCpuMicros\":-1}", mapper)
                          .problem().contains("processCpuMicros [-1]"));
    assertTrue(StatsPuller.parse(200, "{\"uptimeMillis\":1,\"numProcessingThreads\":1}", mapper)
                          .problem().contains("epoch"));
    assertTrue(StatsPuller.parse(200, "{\"epoch\":\"e\",\"uptimeMillis\":1,\"numProcessingThreads\":1,"
                                      + "\"segments\":{\"s1\":{\"timeMillis\":-5,\"scans\":1}}}", mapper)
                          .problem().contains("segment [s1]"));
    final StatsPuller.Pulled good = StatsPuller.parse(
        200,
        "{\"epoch\":\"e\",\"uptimeMillis\":5,\"numProcessingThreads\":2,\"cpuTimeMicros\":7,\"queries\":1,"
        + "\"segmentTimeMillis\":3,\"segmentScans\":2,\"waitTimeMillis\":0,"
        + "\"segments\":{\"s1\":{\"timeMillis\":3,\"scans\":2}}}",
        mapper
    );
    assertNull(good.problem());
    assertEquals(new SegmentStats(3, 2), good.report().segments().get("s1"));
  }

  /**
   * Observes a report as the reader receives it: on a clock that runs with the node's uptime, the second epoch
   * starting long after the first one's reports.
   */
  private NodeStatsTracker.Outcome observe(HistoricalStatsReport report)
  {
    return tracker.observe("h1", report, report.uptimeMillis() + ("e1".equals(report.epoch()) ? 0 : 200_000));
  }

  private static HistoricalStatsReport withProcessCpu(HistoricalStatsReport r, long processCpuMicros)
  {
    return new HistoricalStatsReport(r.epoch(), r.uptimeMillis(), r.numProcessingThreads(), r.cpuTimeMicros(),
                                     r.queries(), r.segmentTimeMillis(), r.segmentScans(), r.waitTimeMillis(),
                                     r.queryTimeMillis(), r.queryTimes(), r.segments(), r.cpuCores(),
                                     processCpuMicros, r.stalledMillis());
  }

  /** A report of a node with 2 processing threads and these counters, one query and no segments. */
  private static HistoricalStatsReport node(String epoch, long uptime, long cpu, long processCpu, double cores)
  {
    return new HistoricalStatsReport(epoch, uptime, 2, cpu, 1, 0, 0, 0, 0, 0, Map.of(), cores, processCpu, 0);
  }

  static HistoricalStatsReport report(String epoch, long uptime, long cpu, Map<String, SegmentStats> segments)
  {
    final long time = segments.values().stream().mapToLong(SegmentStats::timeMillis).sum();
    final long scans = segments.values().stream().mapToLong(SegmentStats::scans).sum();
    return new HistoricalStatsReport(epoch, uptime, 2, cpu, 1, Math.max(0, time), scans, 0, 0, 0, segments);
  }
}
