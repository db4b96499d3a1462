package org.getafix.druid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.core.wire.RoutingTableMessage;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Druid's mapper, with the Getafix Jackson modules every role loads, writes the wire records in full. */
class WireFormatModuleTest
{
  @Test
  void druidsJsonMapperWritesTheWireRecordsWithEveryComponent() throws Exception
  {
    // Druid registers every DruidModule's Jackson modules on its mappers, the @Json one Jersey writes with included.
    final ObjectMapper mapper = new DefaultObjectMapper();
    new GetafixDruidModule().getJacksonModules().forEach(mapper::registerModule);

    final HistoricalStatsReport report = new HistoricalStatsReport(
        "e1", 5, 2, 7, 1, 3, 1, 4, 9, 1, Map.of("s1", new HistoricalStatsReport.SegmentStats(3, 1)), 0.25,
        11, 13
    );
    final JsonNode written = mapper.readTree(mapper.writeValueAsBytes(report));
    assertEquals(14, written.size(), written.toString());
    assertEquals(0.25, written.path("cpuCores").asDouble());
    assertEquals(11, written.path("processCpuMicros").asLong());
    assertEquals(13, written.path("stalledMillis").asLong());
    assertEquals(3, written.path("segments").path("s1").path("timeMillis").asLong());
    assertEquals(report, mapper.readValue(mapper.writeValueAsBytes(report), HistoricalStatsReport.class));

    final RoutingTableMessage table = new RoutingTableMessage(3L, "2026-01-01T00:00:00.000Z", Map.of("s1", Map.of("h:1", 1.0)));
    assertEquals(
        "{\"version\":3,\"generatedAt\":\"2026-01-01T00:00:00.000Z\",\"segments\":{\"s1\":{\"h:1\":1.0}}}",
        mapper.writeValueAsString(table)
    );
  }
}
