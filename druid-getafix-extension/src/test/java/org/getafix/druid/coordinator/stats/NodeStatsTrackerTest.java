package org.getafix.druid.coordinator.stats;

import org.apache.druid.jackson.DefaultObjectMapper;
import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.core.wire.HistoricalStatsReport.SegmentStats;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeStatsTrackerTest
{
  private final NodeStatsTracker tracker = new NodeStatsTracker();

  @Test
  void firstReportIsABaselineAndTheNextOneADelta()
  {
    final NodeStatsTracker.Outcome first = tracker.observe("h1", report("e1", 1000, 500, Map.of(
        "s1", new SegmentStats(10, 2)
    )));
    assertNull(first.delta());
    assertNull(first.problem());

    final NodeStatsTracker.Outcome second = tracker.observe("h1", report("e1", 6000, 2500, Map.of(
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
    tracker.observe("h1", report("e1", 1000, 0, Map.of("s1", new SegmentStats(0, 1))));
    // Nothing reaches the tracker for the round ending at 6000: the pull failed, or its report had a problem.
    final NodeStatsTracker.Outcome next = tracker.observe("h1", report("e1", 11000, 0, Map.of(
        "s1", new SegmentStats(0, 9)
    )));
    assertNull(next.problem());
    assertEquals(10000, next.delta().wallMillis(), "the delta spans both rounds");
    assertEquals(8, next.delta().segments().get("s1").scans());
  }

  @Test
  void aRestartStartsFromTheNewEpoch()
  {
    tracker.observe("h1", report("e1", 100000, 99999, Map.of("s1", new SegmentStats(500, 50))));
    final NodeStatsTracker.NodeDelta d = tracker.observe("h1", report("e2", 3000, 10, Map.of(
        "s1", new SegmentStats(7, 1)
    ))).delta();
    assertEquals(3000, d.wallMillis());
    assertEquals(10, d.cpuTimeMicros());
    assertEquals(new SegmentStats(7, 1), d.segments().get("s1"));
  }

  @Test
  void countersGoingBackwardsAreRejectedNamingTheValueAndKeepTheBaseline()
  {
    tracker.observe("h1", report("e1", 1000, 100, Map.of()));
    final NodeStatsTracker.Outcome backwards = tracker.observe("h1", report("e1", 2000, 50, Map.of()));
    assertTrue(backwards.problem().contains("cpuTimeMicros went backwards [100 -> 50]"), backwards.problem());
    final NodeStatsTracker.Outcome stuck = tracker.observe("h1", report("e1", 1000, 200, Map.of()));
    assertTrue(stuck.problem().contains("uptimeMillis did not advance"), stuck.problem());
    // The baseline is still the first report.
    assertEquals(100, tracker.observe("h1", report("e1", 5000, 200, Map.of())).delta().cpuTimeMicros());
  }

  @Test
  void anEvictedSegmentCountingAgainIsNotANegativeDelta()
  {
    // Node totals keep growing (the collector never evicts them); only the segment's own counters restart.
    tracker.observe("h1", new HistoricalStatsReport("e1", 1000, 2, 0, 1, 100, 10, 0, 0, 0, Map.of(
        "s1", new SegmentStats(100, 10)
    )));
    final NodeStatsTracker.NodeDelta d = tracker.observe("h1", new HistoricalStatsReport("e1", 2000, 2, 0, 1, 104, 12,
                                                                                         0, 0, 0, Map.of(
        "s1", new SegmentStats(4, 2)
    ))).delta();
    assertEquals(new SegmentStats(4, 2), d.segments().get("s1"));
  }

  @Test
  void processCpuIsDiffedButNotOverARestartOrFromAnOlderHistorical()
  {
    tracker.observe("h1", withProcessCpu(report("e1", 1000, 100, Map.of()), 5_000_000));
    assertEquals(
        300_000,
        tracker.observe("h1", withProcessCpu(report("e1", 4000, 200, Map.of()), 5_300_000)).delta().processCpuMicros()
    );
    // Restarted: its process CPU since start is mostly start-up, no query's cost.
    assertEquals(
        0,
        tracker.observe("h1", withProcessCpu(report("e2", 3000, 10, Map.of()), 9_000_000)).delta().processCpuMicros()
    );
    // Downgraded to a Historical that does not report it.
    assertEquals(0, tracker.observe("h1", report("e2", 6000, 20, Map.of())).delta().processCpuMicros());
    // Upgraded again: the first report with it is a baseline for it, not a delta from 0.
    final NodeStatsTracker.Outcome upgraded =
        tracker.observe("h1", withProcessCpu(report("e2", 9000, 30, Map.of()), 7_000_000));
    assertNull(upgraded.problem());
    assertEquals(0, upgraded.delta().processCpuMicros());
  }

  @Test
  void processCpuGoingBackwardsIsRejected()
  {
    tracker.observe("h1", withProcessCpu(report("e1", 1000, 100, Map.of()), 5_000_000));
    final NodeStatsTracker.Outcome backwards =
        tracker.observe("h1", withProcessCpu(report("e1", 2000, 100, Map.of()), 4_000_000));
    assertTrue(backwards.problem().contains("processCpuMicros went backwards [5000000 -> 4000000]"),
               backwards.problem());
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

  private static HistoricalStatsReport withProcessCpu(HistoricalStatsReport r, long processCpuMicros)
  {
    return new HistoricalStatsReport(r.epoch(), r.uptimeMillis(), r.numProcessingThreads(), r.cpuTimeMicros(),
                                     r.queries(), r.segmentTimeMillis(), r.segmentScans(), r.waitTimeMillis(),
                                     r.queryTimeMillis(), r.queryTimes(), r.segments(), r.cpuCores(),
                                     processCpuMicros);
  }

  static HistoricalStatsReport report(String epoch, long uptime, long cpu, Map<String, SegmentStats> segments)
  {
    final long time = segments.values().stream().mapToLong(SegmentStats::timeMillis).sum();
    final long scans = segments.values().stream().mapToLong(SegmentStats::scans).sum();
    return new HistoricalStatsReport(epoch, uptime, 2, cpu, 1, Math.max(0, time), scans, 0, 0, 0, segments);
  }
}
