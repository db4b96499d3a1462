package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.lifecycle.Lifecycle;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.HttpClientConfig;
import org.apache.druid.java.util.http.client.HttpClientInit;
import org.getafix.core.routing.NodeFeedback;
import org.getafix.core.wire.HistoricalStatsReport;
import org.joda.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Queue reports from real HTTP endpoints in the stats format of druid-getafix-extension. */
class HistoricalQueueClientTest
{
  private static final String PATH = HistoricalStatsReport.PATH;

  private final ObjectMapper jsonMapper = new DefaultObjectMapper();
  private final NodeFeedback feedback = new NodeFeedback();
  private final Lifecycle lifecycle = new Lifecycle();
  private final AtomicReference<String> statsA = new AtomicReference<>();
  private LocalHttpServer historicalA;
  private LocalHttpServer historicalB;
  private HistoricalQueueClient client;

  @BeforeEach
  void setUp() throws Exception
  {
    historicalA = new LocalHttpServer(PATH, exchange -> new LocalHttpServer.Reply(200, statsA.get(), null));
    historicalB = new LocalHttpServer(PATH, exchange -> new LocalHttpServer.Reply(500, "down", null));
    final HttpClient httpClient = HttpClientInit.createClient(HttpClientConfig.builder().build(), lifecycle);
    lifecycle.start();
    client = new HistoricalQueueClient(
        httpClient,
        new FixedDiscovery(NodeRole.HISTORICAL, historicalA.port(), historicalB.port()),
        jsonMapper,
        feedback,
        PATH,
        Duration.standardSeconds(5),
        System::nanoTime
    );
  }

  @AfterEach
  void tearDown()
  {
    lifecycle.stop();
    historicalA.close();
    historicalB.close();
  }

  @Test
  void derivesTheQueueFromWaitTimeCountersAcrossRounds()
  {
    final String nodeA = "localhost:" + historicalA.port();
    statsA.set(stats("e1", 10_000, 4, 1_000));
    assertEquals(0, client.refresh(), "one report gives no rate yet");
    assertNull(feedback.get(nodeA));

    // 24 s of waiting over 2 s of uptime: 12 scans waited on average, 3 per processing thread.
    statsA.set(stats("e1", 12_000, 4, 25_000));
    assertEquals(1, client.refresh(), "the failing Historical reports nothing");
    assertEquals(3.0, feedback.get(nodeA).queue(), 1e-9);
    assertNull(feedback.get("localhost:" + historicalB.port()));

    // A restart (new epoch) resets the baseline instead of producing a negative rate.
    statsA.set(stats("e2", 500, 4, 0));
    assertEquals(0, client.refresh());
    assertEquals(3.0, feedback.get(nodeA).queue(), 1e-9);
  }

  @Test
  void garbageReportsAreSkipped()
  {
    statsA.set(stats("e1", 10_000, 4, 1_000));
    assertEquals(0, client.refresh());
    statsA.set(stats("e1", 12_000, 0, 25_000));
    assertEquals(0, client.refresh(), "a report with no processing threads is rejected, not divided by");
    statsA.set(stats("e1", 14_000, 4, -1));
    assertEquals(0, client.refresh(), "a negative wait counter is rejected");
    statsA.set("{\"uptimeMillis\": 16000, \"numProcessingThreads\": 4, \"waitTimeMillis\": 30000}");
    assertEquals(0, client.refresh(), "a report without epoch is rejected");
    statsA.set("not json");
    assertEquals(0, client.refresh());
    statsA.set("{\"epoch\": \"e1\", \"uptimeMillis\": \"soon\", \"waitTimeMillis\": 3}");
    assertEquals(0, client.refresh());
    assertTrue(feedback.size() == 0);
  }

  private static String stats(String epoch, long uptimeMillis, int threads, long waitTimeMillis)
  {
    return "{\"epoch\": \"" + epoch + "\", \"uptimeMillis\": " + uptimeMillis + ", \"numProcessingThreads\": " + threads
           + ", \"cpuTimeMicros\": 0, \"queries\": 0, \"segmentTimeMillis\": 0, \"segmentScans\": 0,"
           + " \"waitTimeMillis\": " + waitTimeMillis + ", \"segments\": {}}";
  }
}
