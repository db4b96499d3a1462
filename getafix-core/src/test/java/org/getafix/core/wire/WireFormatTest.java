package org.getafix.core.wire;

import org.getafix.core.routing.RoutingTable;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WireFormatTest
{
  @Test
  void aWellFormedStatsReportHasNoProblem()
  {
    assertNull(report(1000, 2, 5, Map.of("s1", new HistoricalStatsReport.SegmentStats(3, 1))).problem());
    assertEquals(Map.of(), new HistoricalStatsReport("e", 1, 1, 0, 0, 0, 0, 0, 0, 0, null).segments());
  }

  @Test
  void statsReportProblemsNameTheBadValue()
  {
    assertTrue(new HistoricalStatsReport(" ", 1, 1, 0, 0, 0, 0, 0, 0, 0, null).problem().contains("epoch"));
    assertTrue(report(-1, 2, 0, Map.of()).problem().contains("uptimeMillis [-1]"));
    assertTrue(report(1, 0, 0, Map.of()).problem().contains("numProcessingThreads [0]"));
    assertTrue(report(1, 2, -3, Map.of()).problem().contains("waitTimeMillis [-3]"));
    final Map<String, HistoricalStatsReport.SegmentStats> nullCounters = new HashMap<>();
    nullCounters.put("s1", null);
    assertTrue(report(1, 2, 0, nullCounters).problem().contains("segment [s1] has no counters"));
    assertTrue(report(1, 2, 0, Map.of("s1", new HistoricalStatsReport.SegmentStats(-1, 1))).problem()
                                                                                                 .contains("negative"));
  }

  @Test
  void routingTableMessageKeepsGoodEntriesAndDropsGarbage()
  {
    final Map<String, Object> segments = new LinkedHashMap<>();
    segments.put("s1", Map.of("a", 0.25, "b", 0.75));
    segments.put("s2", Map.of("a", "NaN", "b", 1));
    segments.put("s3", 5);
    final RoutingTable table = new RoutingTableMessage(7L, "2024-01-02T03:04:05.000Z", segments).toTable();
    assertEquals(7, table.version());
    assertEquals(1704164645000L, table.generatedAtMillis());
    assertEquals(0.75, table.row("s1").share("b"), 1e-12);
    assertEquals(1.0, table.row("s2").share("b"), 1e-12);
    assertNull(table.row("s3"));
    assertEquals(2, table.droppedEntries(), "the NaN share and the segment that is not an object");
  }

  @Test
  void routingTableMessageWithoutVersionOrTimestampStillRoutes()
  {
    final RoutingTable table =
        new RoutingTableMessage(null, "yesterday", Map.of("s1", Map.of("a", 1.0))).toTable();
    assertEquals(-1, table.version());
    assertEquals(0, table.generatedAtMillis());
    assertEquals(1.0, table.row("s1").share("a"), 1e-12);
    assertEquals(0, new RoutingTableMessage(1L, null, null).toTable().size());
  }

  private static HistoricalStatsReport report(
      long uptime,
      int threads,
      long waited,
      Map<String, HistoricalStatsReport.SegmentStats> segments
  )
  {
    return new HistoricalStatsReport("e", uptime, threads, 10, 1, 3, 1, waited, 4, 1, segments);
  }
}
