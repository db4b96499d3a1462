package org.getafix.druid.historical;

import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.druid.WireFormatModule;
import com.google.common.collect.ImmutableMap;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.emitter.service.AlertBuilder;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryStatsEmitterTest
{
  private static final ImmutableMap<String, String> SERVICE = ImmutableMap.of("service", "historical",
                                                                              "host", "h1:8083");
  private final QueryStatsCollector collector = new QueryStatsCollector(3_600_000);
  private final QueryStatsEmitter emitter = new QueryStatsEmitter(collector);

  @Test
  void countsDruidsQueryMetricsAndIgnoresTheRest()
  {
    emitter.emit(metric("query/segmentAndCache/time", 12).setDimension("segment", "s1").build(SERVICE));
    emitter.emit(metric("query/segmentAndCache/time", 0).setDimension("segment", "s1").build(SERVICE));
    emitter.emit(metric("query/segmentAndCache/time", 3).setDimension("segment", "s2").build(SERVICE));
    emitter.emit(metric("query/segmentAndCache/time", 3).build(SERVICE)); // no segment dimension
    emitter.emit(metric("query/cpu/time", 2500).build(SERVICE));
    emitter.emit(metric("query/wait/time", 4).build(SERVICE));
    emitter.emit(metric("query/time", 99).build(SERVICE));
    emitter.emit(metric("query/bytes", 12345).build(SERVICE));
    // Timed inside the segment cache: not emitted for a cached scan, so it is not what counts.
    emitter.emit(metric("query/segment/time", 11).setDimension("segment", "s1").build(SERVICE));
    emitter.emit(metric("query/segmentAndCache/time", -1).setDimension("segment", "s1").build(SERVICE));
    emitter.emit(AlertBuilder.create("alert").build(SERVICE));

    final HistoricalStatsReport report = collector.report(4, 1.0, 0, 0);
    assertEquals(4, report.numProcessingThreads());
    assertEquals(new HistoricalStatsReport.SegmentStats(12, 2), report.segments().get("s1"));
    assertEquals(new HistoricalStatsReport.SegmentStats(3, 1), report.segments().get("s2"));
    assertEquals(15, report.segmentTimeMillis());
    assertEquals(3, report.segmentScans());
    assertEquals(2500, report.cpuTimeMicros());
    assertEquals(1, report.queries());
    assertEquals(4, report.waitTimeMillis());
    assertEquals(99, report.queryTimeMillis());
    assertEquals(1, report.queryTimes());
  }

  @Test
  void countersAreMonotonicAcrossReportsAndExactUnderConcurrency() throws Exception
  {
    final ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      final List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 10_000; i++) {
            emitter.emit(metric("query/segmentAndCache/time", 1).setDimension("segment", "s" + (i % 7)).build(SERVICE));
          }
        }));
      }
      final HistoricalStatsReport during = collector.report(1, 1.0, 0, 0);
      for (Future<?> f : futures) {
        f.get();
      }
      final HistoricalStatsReport after = collector.report(1, 1.0, 0, 0);
      assertTrue(after.segmentScans() >= during.segmentScans());
      assertEquals(40_000, after.segmentScans());
      assertEquals(40_000, after.segments().values().stream().mapToLong(HistoricalStatsReport.SegmentStats::scans)
                                 .sum());
      assertTrue(after.uptimeMillis() >= during.uptimeMillis());
      assertEquals(during.epoch(), after.epoch());
    }
    finally {
      pool.shutdownNow();
    }
  }

  @Test
  void idleSegmentsAreForgottenAndEachProcessHasItsOwnEpoch() throws Exception
  {
    final QueryStatsCollector shortMemory = new QueryStatsCollector(1);
    shortMemory.recordSegmentTime("s1", 5);
    assertTrue(shortMemory.report(1, 1.0, 0, 0).segments().containsKey("s1"));
    Thread.sleep(5); // the eviction period is 1 ms; this only has to exceed it
    assertFalse(
        shortMemory.report(1, 1.0, 0, 0).segments().containsKey("s1"),
        "idle for longer than the eviction period"
    );
    assertNotEquals(shortMemory.epoch(), collector.epoch());
    assertThrows(IllegalArgumentException.class, () -> new QueryStatsCollector(0));
  }

  @Test
  void reportSerialisesToTheWireFormatTheCoordinatorParses() throws Exception
  {
    collector.recordSegmentTime("s1", 7);
    final ObjectMapper mapper = new DefaultObjectMapper().registerModule(new WireFormatModule());
    final String json = mapper.writeValueAsString(collector.report(2, 1.0, 0, 1234));
    assertTrue(json.contains("\"segments\":{\"s1\":{\"timeMillis\":7,\"scans\":1}}"), json);
    final HistoricalStatsReport parsed = mapper.readValue(json, HistoricalStatsReport.class);
    assertEquals(collector.epoch(), parsed.epoch());
    assertEquals(1234, parsed.stalledMillis());
    // A Historical of an earlier version does not send it: no stalls known.
    final String older = json.replace(",\"stalledMillis\":1234", "");
    assertFalse(older.contains("stalledMillis"), older);
    assertEquals(0, mapper.readValue(older, HistoricalStatsReport.class).stalledMillis());
  }

  private static ServiceMetricEvent.Builder metric(String name, long value)
  {
    return ServiceMetricEvent.builder().setMetric(name, value);
  }
}
