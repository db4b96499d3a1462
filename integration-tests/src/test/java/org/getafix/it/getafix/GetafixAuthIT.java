package org.getafix.it.getafix;

import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.cluster.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Authorization of the Getafix endpoints in the shared cluster ({@link GetafixItCluster}), secured by the test-only
 * {@code getafix-test-harness} extension (druid-basic-security does not resolve here): the user is named by a header,
 * {@code reader} may only READ, {@code nobody} nothing, and Druid's internal calls (the Coordinator pulling Historical
 * stats, the Broker fetching the routing table) are escalated. Requests without the header are {@code admin}, so that
 * the launcher's own tooling keeps working.
 */
@ExtendWith(DruidClusterExtension.class)
class GetafixAuthIT
{
  private static final String USER_HEADER = "X-Getafix-Test-User";
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @Test
  void stateNeedsReadConfigNeedsWriteAndInternalPullsAreEscalated() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(GetafixItCluster.config());
    final URI getafix = cluster.coordinator().uri().resolve("/druid/coordinator/v1/getafix/");
    final LocalNode historical = cluster.historical(0);
    final URI stats = historical.uri().resolve("/druid/historical/v1/getafix/stats");

    for (String path : new String[]{"status", "plan", "tiers", "popularity", "capacities", "routing", "config"}) {
      assertEquals(200, get(getafix.resolve(path), "reader"), "reader reads " + path);
      assertEquals(403, get(getafix.resolve(path), "nobody"), "nobody reads " + path);
    }
    assertEquals(200, get(stats, "reader"));
    assertEquals(403, get(stats, "nobody"));

    assertEquals(403, post(getafix.resolve("config"), "reader", "{\"dryRun\": true}"), "reader may not write");
    assertEquals(403, post(getafix.resolve("config"), "nobody", "{\"dryRun\": true}"));
    assertEquals(400, post(getafix.resolve("config"), "admin", "{\"gamma\": -1}"), "authorised but invalid");
    final GetafixClient client = new GetafixClient(cluster);
    final boolean dryRunBefore = client.config().path("dryRun").asBoolean();
    try {
      assertEquals(200, post(getafix.resolve("config"), "admin", "{\"dryRun\": " + !dryRunBefore + "}"));
      assertEquals(!dryRunBefore, client.config().path("dryRun").asBoolean(), "admin's change is stored");
    }
    finally {
      client.setConfig(Map.of("dryRun", dryRunBefore));
    }

    // The Coordinator pulls the Historicals' stats as the escalated internal user: once a full round of stats has
    // arrived Getafix leaves warm-up (to whichever mode the rest of the configuration gives).
    Waits.await("stats pulled through authorization", Duration.ofMinutes(2), () -> {
      final String mode = client.mode();
      return !mode.isEmpty() && !"WARMING_UP".equals(mode);
    });
  }

  private int get(URI uri, String user) throws Exception
  {
    final HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                                           .header(USER_HEADER, user).GET().build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private int post(URI uri, String user, String json) throws Exception
  {
    final HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                                           .header(USER_HEADER, user)
                                           .header("Content-Type", "application/json")
                                           .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
