package org.getafix.localcluster.workload;

import com.sun.net.httpserver.HttpServer;
import org.getafix.core.wire.Coverage;
import org.getafix.localcluster.client.BrokerClient;
import org.getafix.localcluster.client.DruidHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
  /** Requests that carried the budget and kept the mix's query id. */
  private final AtomicInteger budgeted = new AtomicInteger();

  @BeforeEach
  void startStubBroker() throws Exception
  {
    server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    server.createContext("/druid/v2/", exchange -> {
      final String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      if (request.contains("\"getafixBudgetMs\":500") && request.contains("\"queryId\":\"getafix-workload-")) {
        budgeted.incrementAndGet();
        exchange.getResponseHeaders().add(
            "X-Druid-Response-Context",
            "{\"getafixCoverage\":{\"answered\":5,\"total\":6,\"late\":1,\"missingIntervals\":[\"a/b\"],\"timedOut\":true}}"
        );
      }
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

  private BrokerClient stubBroker()
  {
    return new BrokerClient(URI.create("http://localhost:" + server.getAddress().getPort()), new DruidHttp(Duration.ofSeconds(10)));
  }

  @Test
  void recordsEveryOutcomeAndLatency() throws Exception
  {
    final WorkloadResult result = WorkloadRunner.run(
        stubBroker(),
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
      assertNull(outcome.coverage(), "no budget, no coverage");
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

  @Test
  void contextEntriesReachEveryQueryAndTheCoverageIsRecorded() throws Exception
  {
    final WorkloadResult result = WorkloadRunner.run(
        stubBroker(),
        QueryMix.defaultMix(SyntheticDataset.hourly("ds", 48, 10)),
        new WorkloadRunner.Options(2, Duration.ofSeconds(30), 12, 5L, Map.of("getafixBudgetMs", 500))
    );

    assertEquals(12, budgeted.get(), "every request carried the budget next to the mix's own context");
    assertEquals(4, result.failures().size());
    for (QueryOutcome outcome : result.outcomes()) {
      if (outcome.success()) {
        assertEquals(new Coverage(5, 1, List.of("a/b"), false), outcome.coverage());
        assertEquals(outcome.kind() == QueryKind.TOPN ? 3 : 2, outcome.resultRows(), outcome.toString());
      } else {
        assertNull(outcome.coverage());
        assertTrue(outcome.error().startsWith("HTTP 500"), outcome.error());
      }
    }
  }
}
