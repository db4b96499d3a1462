package org.getafix.simulator.cluster;

import org.getafix.core.placement.capacity.MeasuredRound;
import org.getafix.core.placement.capacity.NodeRoundStats;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.workload.QueryType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HistoricalMeterTest
{
  private static final QueryType TYPE = new QueryType("q", 1, 1, 0);

  @Test
  void reportsWholeMillisecondsTheReportedThreadsAndTheQuota()
  {
    final EventLoop loop = new EventLoop();
    // A 0.25-core quota: one core at speed 0.25, 2 processing threads as Druid would report them.
    final Historical node = new Historical(loop, 0, "h025", 1, 0.25, null, (t, s) -> {
    });
    node.setProcessingThreads(2);
    final Segment segment = new Segment(0, "s", 1);
    // 0.3 ms of CPU each: 1.2 ms on this node, reported as 1 ms.
    for (int i = 0; i < 10; i++) {
      final double at = i * 0.01;
      loop.schedule(at, () -> node.submit(new Task(new Query(0, TYPE, at), segment, 0, 0.0003, 0, at)));
    }
    loop.runUntil(3.0);
    final MeasuredRound.NodeCounters counters = node.takeRoundStats(3.0).measured();
    assertEquals(3000, counters.wallMillis());
    assertEquals(2, counters.processingThreads());
    assertEquals(0.25, counters.cpuCores(), 1e-12);
    assertEquals(3000, counters.cpuTimeMicros());
    assertEquals(Map.of("s", new MeasuredRound.ScanCounters(10, 10)), counters.segments());

    final NodeRoundStats stats = MeasuredRound.of(Map.of("h025", counters)).nodeStats().get("h025");
    assertEquals(0.25, stats.workUnits() / stats.busyTimeSeconds(), 1e-9, "3 ms of CPU over 12 ms of a 0.25 core");
    assertEquals(Map.of(), node.takeRoundStats(3.0).measured().segments(), "a new round starts empty");
  }
}
