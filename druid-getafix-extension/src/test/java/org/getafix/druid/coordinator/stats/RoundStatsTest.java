package org.getafix.druid.coordinator.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.placement.capacity.NodeRoundStats;
import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.core.wire.HistoricalStatsReport.SegmentStats;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundStatsTest
{
  @Test
  void accessTimeCorrectsTruncatedMillisAndSumsOverNodes()
  {
    final RoundStats stats = RoundStats.of(Map.of(
        "fast", delta(5000, 1, 1.0, 1000, Map.of("s1", new SegmentStats(0, 10))),
        "slow", delta(5000, 1, 1.0, 1000, Map.of("s1", new SegmentStats(20, 10), "s2", new SegmentStats(0, 2)))
    ), 0);
    // s1: (0 + 0.5·10) + (20 + 0.5·10) = 30 ms; s2: 0.5·2 = 1 ms.
    assertEquals(30.0, stats.accessTime().get("s1"), 1e-9);
    assertEquals(1.0, stats.accessTime().get("s2"), 1e-9);
  }

  /**
   * Report deltas of one 3 s round on the live test cluster (2 processing threads, quotas 1.0 / 0.5 / 0.25,
   * one replica per segment, sub-millisecond scans mostly reported as 0 ms, queries in flight on every node all the
   * time). The conversion before the fix rated them 110 / 120 / 100 (see getafix-core's MeasuredRoundTest).
   */
  @Test
  void theLiveClusterRanksByItsQuotas()
  {
    final RoundStats stats = RoundStats.of(Map.of(
        "h100", delta(3000, 2, 1.0, 300_000, Map.of("hot1", new SegmentStats(20, 400), "hot2", new SegmentStats(10, 200))),
        "h050", delta(3000, 2, 0.5, 150_000, Map.of("warm", new SegmentStats(210, 300))),
        "h025", delta(3000, 2, 0.25, 50_000, Map.of("cold", new SegmentStats(250, 100)))
    ), 0);
    final double h100 = rate(stats.nodeStats().get("h100"));
    final double h050 = rate(stats.nodeStats().get("h050"));
    final double h025 = rate(stats.nodeStats().get("h025"));
    assertEquals(1.0, h100, 1e-9);
    assertTrue(h100 > h050 && h050 > h025, h100 + " / " + h050 + " / " + h025);
  }

  @Test
  void theSlowerNodeOnTheSameCpuTimeIsRatedDown()
  {
    final RoundStats stats = RoundStats.of(Map.of(
        "fast", delta(5000, 2, 2.0, 1000, Map.of("s1", new SegmentStats(100, 100))),
        "slow", delta(5000, 2, 2.0, 1000, Map.of("s1", new SegmentStats(400, 100)))
    ), 0);
    final NodeRoundStats fast = stats.nodeStats().get("fast");
    final NodeRoundStats slow = stats.nodeStats().get("slow");
    assertNull(fast.problem());
    assertNull(slow.problem());
    assertEquals(5.0, fast.wallTimeSeconds(), 1e-9);
    // Busy = thread time / threads: 100 ms / 2, more than 1 ms of CPU / 2 cores.
    assertEquals(0.05, fast.busyTimeSeconds(), 1e-9);
    assertEquals(4.0, rate(fast) / rate(slow), 1e-9);
  }

  @Test
  void aReportWithoutCpuCoresReadsAsZeroAndTheThreadsStandIn() throws Exception
  {
    final HistoricalStatsReport report = new ObjectMapper().readValue(
        "{\"epoch\":\"e\",\"uptimeMillis\":1,\"numProcessingThreads\":2,\"cpuTimeMicros\":600000,\"segments\":{}}",
        HistoricalStatsReport.class
    );
    assertEquals(0.0, report.cpuCores());
    final RoundStats stats = RoundStats.of(Map.of("old", delta(3000, 2, report.cpuCores(), 600_000, Map.of())), 0);
    assertEquals(0.3, stats.nodeStats().get("old").busyTimeSeconds(), 1e-9);
  }

  @Test
  void busyTimeNeverExceedsTheRound()
  {
    final RoundStats stats = RoundStats.of(Map.of(
        "h", delta(1000, 1, 1.0, 1000, Map.of("s1", new SegmentStats(5000, 1)))
    ), 0);
    assertEquals(1.0, stats.nodeStats().get("h").busyTimeSeconds(), 1e-9);
    assertNull(stats.nodeStats().get("h").problem());
  }

  @Test
  void aDeltaThatCoversRoundsItsNodeMissedCountsTheSegmentsAccessAsOneRound()
  {
    // Rounds of 5 s: "late" missed one and its delta covers two; "ontime" drew the same per round.
    final RoundStats stats = RoundStats.of(Map.of(
        "ontime", delta(5000, 1, 1.0, 1000, Map.of("a", new SegmentStats(95, 10))),
        "late", delta(10_000, 1, 1.0, 2000, Map.of("b", new SegmentStats(190, 20)))
    ), 5000);
    assertEquals(100.0, stats.accessTime().get("a"), 1e-9);
    assertEquals(100.0, stats.accessTime().get("b"), 1e-9);
    // Its capacity is a rate, the same over any length.
    assertEquals(10.0, stats.nodeStats().get("late").wallTimeSeconds(), 1e-9);
    // Within the round's jitter, and with the round unknown, nothing is scaled.
    final Map<String, SegmentStats> b = Map.of("b", new SegmentStats(190, 20));
    assertEquals(200.0, RoundStats.of(Map.of("b", delta(7000, 1, 1.0, 1000, b)), 5000).accessTime().get("b"), 1e-9);
    assertEquals(200.0, RoundStats.of(Map.of("b", delta(10_000, 1, 1.0, 1000, b)), 0).accessTime().get("b"), 1e-9);
  }

  private static double rate(NodeRoundStats s)
  {
    return s.workUnits() / s.busyTimeSeconds();
  }

  private static NodeStatsTracker.NodeDelta delta(
      long wallMillis,
      int threads,
      double cpuCores,
      long cpuMicros,
      Map<String, SegmentStats> segments
  )
  {
    final long time = segments.values().stream().mapToLong(SegmentStats::timeMillis).sum();
    final long scans = segments.values().stream().mapToLong(SegmentStats::scans).sum();
    return new NodeStatsTracker.NodeDelta(wallMillis, threads, cpuMicros, time, scans, segments, cpuCores, 0, 0);
  }
}
