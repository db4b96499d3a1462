package org.getafix.druid.coordinator;

import org.getafix.core.placement.NodeRoundStats;
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
        "fast", delta(5000, 1, Map.of("s1", new SegmentStats(0, 10))),
        "slow", delta(5000, 1, Map.of("s1", new SegmentStats(20, 10), "s2", new SegmentStats(0, 2)))
    ));
    // s1: (0 + 0.5·10) + (20 + 0.5·10) = 30 ms; s2: 0.5·2 = 1 ms.
    assertEquals(30.0, stats.accessTime().get("s1"), 1e-9);
    assertEquals(1.0, stats.accessTime().get("s2"), 1e-9);
  }

  @Test
  void theSlowerNodeOnTheSameSegmentsDoesLessWorkPerBusySecond()
  {
    final RoundStats stats = RoundStats.of(Map.of(
        "fast", delta(5000, 2, Map.of("s1", new SegmentStats(100, 100))),
        "slow", delta(5000, 2, Map.of("s1", new SegmentStats(400, 100)))
    ));
    final NodeRoundStats fast = stats.nodeStats().get("fast");
    final NodeRoundStats slow = stats.nodeStats().get("slow");
    assertNull(fast.problem());
    assertNull(slow.problem());
    assertEquals(5.0, fast.wallTimeSeconds(), 1e-9);
    // Busy = thread-busy / threads: (100 + 50) ms / 2.
    assertEquals(0.075, fast.busyTimeSeconds(), 1e-9);
    assertEquals(fast.workUnits(), slow.workUnits(), 1e-9, "same scans of the same segment: same work");
    assertTrue(fast.workUnits() / fast.busyTimeSeconds() > 2.5 * slow.workUnits() / slow.busyTimeSeconds());
  }

  @Test
  void queryWallTimeRevealsTheSlowNodeWhenEveryScanReportsZeroMillis()
  {
    // Same 100 scans of s1 on both nodes, all reported as 0 ms; the slow node's queries take 4× longer.
    final RoundStats stats = RoundStats.of(Map.of(
        "fast", new NodeStatsTracker.NodeDelta(5000, 2, 1000, 0, 100, 250, 50, Map.of("s1", new SegmentStats(0, 100))),
        "slow", new NodeStatsTracker.NodeDelta(5000, 2, 1000, 0, 100, 1000, 50, Map.of("s1", new SegmentStats(0, 100)))
    ));
    final NodeRoundStats fast = stats.nodeStats().get("fast");
    final NodeRoundStats slow = stats.nodeStats().get("slow");
    assertEquals(0.275, fast.busyTimeSeconds(), 1e-9, "(250 + 0.5·50) ms of queries in flight");
    assertEquals(fast.workUnits(), slow.workUnits(), 1e-9);
    assertTrue(fast.workUnits() / fast.busyTimeSeconds() > 3 * slow.workUnits() / slow.busyTimeSeconds());
  }

  @Test
  void busyTimeNeverExceedsTheRound()
  {
    final RoundStats stats = RoundStats.of(Map.of(
        "h", delta(1000, 1, Map.of("s1", new SegmentStats(5000, 1)))
    ));
    assertEquals(1.0, stats.nodeStats().get("h").busyTimeSeconds(), 1e-9);
    assertNull(stats.nodeStats().get("h").problem());
  }

  private static NodeStatsTracker.NodeDelta delta(long wallMillis, int threads, Map<String, SegmentStats> segments)
  {
    final long time = segments.values().stream().mapToLong(SegmentStats::timeMillis).sum();
    final long scans = segments.values().stream().mapToLong(SegmentStats::scans).sum();
    return new NodeStatsTracker.NodeDelta(wallMillis, threads, 1000, time, scans, 0, 0, segments);
  }
}
