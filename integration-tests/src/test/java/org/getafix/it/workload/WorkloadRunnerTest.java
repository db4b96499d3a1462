package org.getafix.it.workload;

import com.sun.net.httpserver.HttpServer;
import org.getafix.it.cluster.BrokerClient;
import org.getafix.it.cluster.DruidHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runner's bookkeeping against a stub Broker that fails every third query. A topN answer counts the rows of its
 * first result, other kinds count result elements.
 */
class WorkloadRunnerTest
{
  private HttpServer server;
  private final AtomicInteger requests = new AtomicInteger();

  @BeforeEach
  void startStubBroker() throws Exception
  {
    server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    server.createContext("/druid/v2/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      final boolean fail = requests.incrementAndGet() % 3 == 0;
      final byte[] body = (fail ? "{\"error\":\"boom\"}" : "[{\"result\":[{\"a\":1},{\"a\":2},{\"a\":3}]},{\"result\":{}}]")
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(fail ? 500 : 200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stopStubBroker()
  {
    server.stop(0);
  }

  @Test
  void recordsEveryOutcomeAndLatency() throws Exception
  {
    final BrokerClient broker = new BrokerClient(
        URI.create("http://localhost:" + server.getAddress().getPort()),
        new DruidHttp(Duration.ofSeconds(10))
    );
    final WorkloadResult result = WorkloadRunner.run(
        broker,
        QueryMix.defaultMix(SyntheticDataset.hourly("ds", 48, 10)),
        new WorkloadRunner.Options(3, Duration.ofSeconds(30), 30, 5L)
    );

    assertEquals(30, result.outcomes().size(), "stops at maxQueries");
    assertEquals(30, requests.get());
    assertEquals(10, result.failures().size(), "every third request failed");
    assertEquals(20, result.successCount());
    assertEquals(30, result.latencyMicros().getTotalCount());
    for (QueryOutcome outcome : result.outcomes()) {
      assertTrue(outcome.latencyNanos() > 0);
      if (outcome.success()) {
        assertNull(outcome.error());
        assertEquals(outcome.kind() == QueryKind.TOPN ? 3 : 2, outcome.resultRows(), outcome.toString());
      } else {
        assertTrue(outcome.error().contains("500"), outcome.error());
        assertEquals(-1, outcome.resultRows());
      }
    }
    assertFalse(result.summary().isEmpty());
  }
}
