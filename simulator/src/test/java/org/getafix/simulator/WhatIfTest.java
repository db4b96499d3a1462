package org.getafix.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The what-if end to end: a Coordinator (a JDK HTTP server answering {@code servers?full}) with 3 Historicals holding
 * 60 hourly segments twice each, and a Broker's request log whose queries favour the newest hours.
 */
class WhatIfTest
{
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int HOURS = 60;

  @TempDir
  Path dir;

  @Test
  void fitsTheClusterAndItsLogsAndComparesStockWithGetafixH() throws Exception
  {
    final byte[] servers = MAPPER.writeValueAsBytes(servers());
    final HttpServer coordinator = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    coordinator.createContext("/druid/coordinator/v1/servers", exchange -> {
      exchange.sendResponseHeaders(200, servers.length);
      exchange.getResponseBody().write(servers);
      exchange.close();
    });
    coordinator.start();
    try {
      final Path log = Files.writeString(dir.resolve("broker.log"), String.join("\n", brokerLog()) + "\n");
      final Path out = dir.resolve("out");
      final int status = WhatIf.run(new String[]{
          "--coordinator", "http://127.0.0.1:" + coordinator.getAddress().getPort(),
          "--request-logs", log.toString(), "--datasource", "wiki", "--duration", "60", "--out", out.toString()
      });
      assertEquals(0, status);
      for (String file : List.of("scenario.json", "whatif.json", "results.json", "report.html")) {
        assertTrue(Files.isRegularFile(out.resolve(file)), file);
      }
      final JsonNode scenario = MAPPER.readTree(out.resolve("scenario.json").toFile());
      assertEquals(3, scenario.path("nodes").size());
      assertEquals(HOURS, scenario.path("segments").path("initial").asInt());
      assertEquals(2, scenario.path("planning").path("druidDefaultReplicas").asInt(), "the cluster's replication");
      final JsonNode whatIf = MAPPER.readTree(out.resolve("whatif.json").toFile());
      assertEquals(600, whatIf.path("fit").path("queries").asInt());
      assertTrue(whatIf.path("fit").path("recencyExponent").asDouble() > 0.5, whatIf.toString());
      final double replicas = whatIf.path("comparison").path("replicas").asDouble();
      assertTrue(replicas > 0 && replicas < 0.9, "Getafix-H holds fewer replicas than 2 of each: " + whatIf);
    }
    finally {
      coordinator.stop(0);
    }
  }

  @Test
  void badOptionsAreUsageErrors()
  {
    assertEquals(2, WhatIf.run(new String[]{"--request-logs", "x"}), "no --coordinator");
    assertEquals(2, WhatIf.run(new String[]{"--coordinator", "http://c:8081", "--request-logs", "x", "--cores", "-1"}));
    assertEquals(2, WhatIf.run(new String[]{"--coordinator", "http://c:8081", "--bogus", "1"}));
    assertEquals(1, WhatIf.run(new String[]{"--coordinator", "http://127.0.0.1:1", "--request-logs", "x"}),
                 "an unreachable Coordinator is an error, not a crash");
  }

  private static ArrayNode servers()
  {
    final ArrayNode servers = MAPPER.createArrayNode();
    for (int h = 0; h < 3; h++) {
      final ObjectNode server = servers.addObject();
      server.put("host", "h" + h + ":8083").put("type", "historical").put("tier", "_default_tier")
            .put("maxSize", 10_000_000_000L);
      final ObjectNode segments = server.putObject("segments");
      for (int hour = 0; hour < HOURS; hour++) {
        if (hour % 3 != h) {
          final ObjectNode segment = segments.putObject("wiki_" + hour);
          segment.put("dataSource", "wiki").put("interval", interval(hour, 1)).put("size", 50_000_000L);
        }
      }
    }
    return servers;
  }

  /** 600 queries over 60 s, 10 per second; the newest hour is read by half of them. */
  private static List<String> brokerLog()
  {
    final List<String> lines = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      final int age = i % 2 == 0 ? 0 : i % 30;
      final String type = i % 3 == 0 ? "groupBy" : "timeseries";
      lines.add(Instant.ofEpochMilli(1_700_000_000_000L + i * 100L) + "\t10.0.0.1\t{\"query/time\":20}\t"
                + "{\"queryType\":\"" + type + "\",\"dataSource\":\"wiki\",\"intervals\":[\""
                + interval(HOURS - 1 - age - 1, 2) + "\"],\"context\":{\"queryId\":\"q" + i + "\"}}");
    }
    return lines;
  }

  private static String interval(int hour, int hours)
  {
    final Instant start = Instant.parse("2025-01-01T00:00:00Z").plusSeconds(3600L * Math.max(0, hour));
    return start + "/" + start.plusSeconds(3600L * hours);
  }
}
