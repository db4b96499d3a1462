package org.getafix.core.placement.capacity;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MeasuredRoundTest
{
  /**
   * One 3 s round of the live test cluster: 2 processing threads each, cgroup quotas of 1.0 / 0.5 / 0.25 cores,
   * one replica per segment, sub-millisecond scans (0.4 ms of CPU each) that Druid mostly reports as 0 ms, the
   * hottest segments and most queries on the 1.0-core node. The old conversion (work = Σ scans × the segment's mean
   * corrected scan time, which with one holder is the holder's own; busy = max(thread time, Σ query/time) capped at
   * the round) gave 110 / 120 / 100: the 0.5-core node first, as on the live cluster (207 / 176 / 97).
   */
  private static final Map<String, MeasuredRound.NodeCounters> LIVE_ROUND = Map.of(
      "h100", node(1.0, 300_000, Map.of("hot1", new MeasuredRound.ScanCounters(20, 400),
                                        "hot2", new MeasuredRound.ScanCounters(10, 200))),
      "h050", node(0.5, 150_000, Map.of("warm", new MeasuredRound.ScanCounters(210, 300))),
      "h025", node(0.25, 50_000, Map.of("cold", new MeasuredRound.ScanCounters(250, 100)))
  );

  @Test
  void ranksTheLiveClusterByItsQuotas()
  {
    final Map<String, NodeRoundStats> stats = MeasuredRound.of(LIVE_ROUND).nodeStats();
    stats.values().forEach(s -> assertNull(s.problem()));
    final double h100 = rate(stats.get("h100"));
    final double h050 = rate(stats.get("h050"));
    final double h025 = rate(stats.get("h025"));
    assertEquals(1.0, h100, 1e-9, "0.3 s of CPU in 0.3 s of a 1-core allowance");
    assertEquals(0.5, h050, 1e-9);
    assertEquals(0.25, h025, 1e-9);
  }

  @Test
  void withoutACoreCountTheProcessingThreadsStandInAndStillRankRight()
  {
    final Map<String, MeasuredRound.NodeCounters> old = new java.util.HashMap<>();
    LIVE_ROUND.forEach((id, n) -> old.put(
        id,
        new MeasuredRound.NodeCounters(n.wallMillis(), n.processingThreads(), 0, n.cpuTimeMicros(), n.segments())
    ));
    final Map<String, NodeRoundStats> stats = MeasuredRound.of(old).nodeStats();
    // Throttled scans hold their threads longer for the same CPU: 2.0 / 1.43 / 0.4.
    assertTrue(rate(stats.get("h100")) > rate(stats.get("h050")));
    assertTrue(rate(stats.get("h050")) > rate(stats.get("h025")));
  }

  @Test
  void aStragglerWhoseThreadsWaitForCpuIsRatedDown()
  {
    // Same CPU, same quota; the straggler's scans take 4× longer on its threads (contention it cannot see).
    final Map<String, NodeRoundStats> stats = MeasuredRound.of(Map.of(
        "ok", node(2.0, 1_000_000, Map.of("s1", new MeasuredRound.ScanCounters(1000, 500))),
        "straggler", node(2.0, 1_000_000, Map.of("s2", new MeasuredRound.ScanCounters(4000, 500)))
    )).nodeStats();
    assertEquals(2.0, rate(stats.get("ok")), 1e-9);
    assertEquals(0.5, rate(stats.get("straggler")), 1e-9, "4 s of thread time over 2 threads for 1 s of CPU");
  }

  @Test
  void accessTimeCorrectsTruncatedMillisAndSumsOverNodes()
  {
    final MeasuredRound round = MeasuredRound.of(Map.of(
        "a", node(1.0, 1000, Map.of("s1", new MeasuredRound.ScanCounters(0, 10))),
        "b", node(1.0, 1000, Map.of("s1", new MeasuredRound.ScanCounters(20, 10),
                                    "s2", new MeasuredRound.ScanCounters(0, 2)))
    ));
    assertEquals(30.0, round.accessTimeMillis().get("s1"), 1e-9);
    assertEquals(1.0, round.accessTimeMillis().get("s2"), 1e-9);
  }

  @Test
  void processCpuBeyondTheScansIsSharedOverTheScans()
  {
    // 2 ms of query CPU, 6 ms of process CPU: 4 ms of per query work over 8 scans, 0.5 ms each.
    final MeasuredRound round = MeasuredRound.of(Map.of(
        "a", new MeasuredRound.NodeCounters(3000, 2, 1.0, 2000, 6000, Map.of(
            "s1", new MeasuredRound.ScanCounters(0, 6),
            "s2", new MeasuredRound.ScanCounters(0, 2)
        ))
    ));
    assertEquals(6 * 0.5 + 6 * 0.5, round.accessTimeMillis().get("s1"), 1e-9);
    assertEquals(2 * 0.5 + 2 * 0.5, round.accessTimeMillis().get("s2"), 1e-9);
    assertEquals(0.006, round.nodeStats().get("a").cpuTimeSeconds(), 1e-12, "the node's CPU is its process CPU");
  }

  @Test
  void backgroundCpuOfAQuietRoundDoesNotMakeItsFewScansHot()
  {
    // A segment load burnt 200 ms while 2 scans of 1 ms of CPU ran: the share is capped at 3 × 1 ms per scan.
    final MeasuredRound round = MeasuredRound.of(Map.of(
        "a", new MeasuredRound.NodeCounters(3000, 2, 1.0, 2000, 202_000, Map.of(
            "s1", new MeasuredRound.ScanCounters(2, 2)
        ))
    ));
    assertEquals(2 + 2 * 0.5 + 2 * 3.0, round.accessTimeMillis().get("s1"), 1e-9);
  }

  @Test
  void processCpuBelowQueryCpuAddsNothing()
  {
    // Counters read at slightly different moments: the process CPU may trail the query CPU.
    final MeasuredRound round = MeasuredRound.of(Map.of(
        "a", new MeasuredRound.NodeCounters(3000, 2, 1.0, 5000, 4000, Map.of(
            "s1", new MeasuredRound.ScanCounters(4, 4)
        ))
    ));
    assertEquals(6.0, round.accessTimeMillis().get("s1"), 1e-9);
    assertEquals(0.005, round.nodeStats().get("a").cpuTimeSeconds(), 1e-12);
  }

  @Test
  void busyTimeNeverExceedsTheRoundAndBadCoreCountsFallBack()
  {
    final Map<String, NodeRoundStats> stats = MeasuredRound.of(Map.of(
        "over", node(0.5, 9_000_000, Map.of()),
        "nan", new MeasuredRound.NodeCounters(3000, 2, Double.NaN, 600_000, Map.of())
    )).nodeStats();
    assertEquals(3.0, stats.get("over").busyTimeSeconds(), 1e-9);
    assertEquals(0.3, stats.get("nan").busyTimeSeconds(), 1e-9, "NaN cores: 2 processing threads stand in");
  }

  @Test
  void stalledTimeIsPassedOnInSecondsCappedAtTheRound()
  {
    final Map<String, NodeRoundStats> stats = MeasuredRound.of(Map.of(
        "stalled", new MeasuredRound.NodeCounters(3000, 2, 1.0, 600_000, 0, 1_500, Map.of()),
        "late", new MeasuredRound.NodeCounters(3000, 2, 1.0, 600_000, 0, 3_200, Map.of()),
        "older", node(1.0, 600_000, Map.of())
    )).nodeStats();
    assertEquals(1.5, stats.get("stalled").stalledSeconds(), 1e-9);
    assertEquals(3.0, stats.get("late").stalledSeconds(), 1e-9, "a stall read on both sides of a round boundary");
    assertEquals(0.0, stats.get("older").stalledSeconds(), 0.0);
  }

  private static MeasuredRound.NodeCounters node(
      double cores,
      long cpuMicros,
      Map<String, MeasuredRound.ScanCounters> segments
  )
  {
    return new MeasuredRound.NodeCounters(3000, 2, cores, cpuMicros, segments);
  }

  private static double rate(NodeRoundStats s)
  {
    return s.workUnits() / s.busyTimeSeconds();
  }
}
