package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.discovery.DruidLeaderClient;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.lifecycle.Lifecycle;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.HttpClientConfig;
import org.apache.druid.java.util.http.client.HttpClientInit;
import org.getafix.core.routing.RoutingTableHolder;
import org.getafix.core.wire.RoutingTableMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table client against a real HTTP endpoint, through Druid's real HttpClient and leader client. */
class RoutingTableClientTest
{
  private static final String TABLE_V1 =
      "{\"version\": 1, \"generatedAt\": \"2026-11-22T00:00:00Z\", \"segments\": {\"s1\": {\"h1:8083\": 0.75, \"h2:8083\": 0.25}}}";
  private static final String TABLE_V2 =
      "{\"version\": 2, \"generatedAt\": \"2026-11-22T00:00:05Z\", \"segments\": {\"s1\": {\"h2:8083\": 1.0}}}";

  private final ObjectMapper jsonMapper = new DefaultObjectMapper();
  private final RoutingTableHolder tables = new RoutingTableHolder();
  private final AtomicLong clock = new AtomicLong(1_000);
  private final Lifecycle lifecycle = new Lifecycle();
  private LocalHttpServer coordinatorHttp;
  private DruidLeaderClient leaderClient;
  private RoutingTableClient client;

  @BeforeEach
  void setUp() throws Exception
  {
    coordinatorHttp = new LocalHttpServer(
        RoutingTableMessage.PATH,
        exchange -> "\"v1\"".equals(exchange.getRequestHeaders().getFirst("If-None-Match"))
                    ? new LocalHttpServer.Reply(304, null, "\"v1\"")
                    : new LocalHttpServer.Reply(200, TABLE_V1, "\"v1\"")
    );
    final HttpClient httpClient = HttpClientInit.createClient(HttpClientConfig.builder().build(), lifecycle);
    lifecycle.start();
    leaderClient = new DruidLeaderClient(
        httpClient,
        new FixedDiscovery(NodeRole.COORDINATOR, coordinatorHttp.port()),
        NodeRole.COORDINATOR,
        "/druid/coordinator/v1/leader"
    );
    leaderClient.start();
    client = new RoutingTableClient(leaderClient, jsonMapper, tables, clock::get);
  }

  @AfterEach
  void tearDown()
  {
    leaderClient.stop();
    lifecycle.stop();
    coordinatorHttp.close();
  }

  @Test
  void installsTheTableThenConfirmsItWithAConditionalGet()
  {
    assertEquals(RoutingTableClient.Outcome.UPDATED, client.refresh());
    RoutingTableHolder.Snapshot snapshot = tables.snapshot();
    assertTrue(snapshot.installed());
    assertEquals(1, snapshot.table().version());
    assertEquals(0.75, snapshot.table().row("s1").share("h1:8083"), 1e-9);
    assertEquals(
        org.apache.druid.java.util.common.DateTimes.of("2026-11-22T00:00:00Z").getMillis(),
        snapshot.table().generatedAtMillis()
    );

    clock.addAndGet(5_000);
    assertEquals(RoutingTableClient.Outcome.NOT_MODIFIED, client.refresh());
    snapshot = tables.snapshot();
    assertEquals(1, snapshot.table().version());
    assertEquals(0, snapshot.ageNanos(clock.get()), "a 304 vouches for the table again");
    assertEquals(java.util.List.of("null", "\"v1\""), coordinatorHttp.ifNoneMatchHeaders());

    coordinatorHttp.answer(exchange -> new LocalHttpServer.Reply(200, TABLE_V2, "\"v2\""));
    assertEquals(RoutingTableClient.Outcome.UPDATED, client.refresh());
    assertEquals(2, tables.snapshot().table().version());
  }

  @Test
  void keepsTheLastGoodTableOnErrorsAndGarbage()
  {
    assertEquals(RoutingTableClient.Outcome.UPDATED, client.refresh());
    final long installedAt = clock.get();

    for (LocalHttpServer.Reply bad : new LocalHttpServer.Reply[]{
        new LocalHttpServer.Reply(500, "boom", null),
        new LocalHttpServer.Reply(404, null, null),
        new LocalHttpServer.Reply(200, "{not json", null),
        new LocalHttpServer.Reply(200, "[1, 2]", null)
    }) {
      coordinatorHttp.answer(exchange -> bad);
      clock.addAndGet(5_000);
      assertEquals(RoutingTableClient.Outcome.FAILED, client.refresh(), "reply " + bad);
      final RoutingTableHolder.Snapshot snapshot = tables.snapshot();
      assertEquals(1, snapshot.table().version(), "reply " + bad);
      // The kept table is not confirmed, so it ages and ABR will stop trusting it.
      assertEquals(clock.get() - installedAt, snapshot.ageNanos(clock.get()), "reply " + bad);
    }
  }

  @Test
  void anUnreachableCoordinatorFailsTheRefreshOnly()
  {
    coordinatorHttp.close();
    assertEquals(RoutingTableClient.Outcome.FAILED, client.refresh());
    assertFalse(tables.snapshot().installed());
  }

  @Test
  void garbageSharesAreDroppedNotFatal()
  {
    coordinatorHttp.answer(exchange -> new LocalHttpServer.Reply(
        200,
        "{\"version\": 3, \"generatedAt\": \"yesterday\", \"segments\": {"
        + "\"s1\": {\"h1:8083\": \"NaN\", \"h2:8083\": -1, \"h3:8083\": 2, \"h4:8083\": null, \"h5:8083\": {}},"
        + "\"s2\": {\"h1:8083\": 0},"
        + "\"s3\": 7}}",
        null
    ));
    assertEquals(RoutingTableClient.Outcome.UPDATED, client.refresh());
    final var table = tables.snapshot().table();
    assertEquals(3, table.version());
    assertEquals(0, table.generatedAtMillis(), "an unparseable timestamp reads as 0");
    assertEquals(1.0, table.row("s1").share("h3:8083"), 1e-9);
    assertEquals(1, table.size(), "s2 has no positive share and s3 is not an object");
    assertEquals(5, table.droppedEntries(), "four bad shares of s1, and s3");
  }
}
