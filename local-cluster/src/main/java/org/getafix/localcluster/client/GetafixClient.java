package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The HTTP surface of druid-getafix-extension, as an operator (or a Broker) sees it. */
public final class GetafixClient
{
  private final DruidHttp http = DruidHttp.shared();
  private final URI coordinator;

  public GetafixClient(LocalDruidCluster cluster)
  {
    this.coordinator = cluster.coordinator().uri();
  }

  public JsonNode status()
  {
    return http.get(coordinator.resolve("/druid/coordinator/v1/getafix/status"));
  }

  public String mode()
  {
    return status().path("mode").asText();
  }

  public JsonNode config()
  {
    return http.get(coordinator.resolve("/druid/coordinator/v1/getafix/config"));
  }

  public JsonNode setConfig(Object changes)
  {
    return http.postJson(coordinator.resolve("/druid/coordinator/v1/getafix/config"), changes);
  }

  public JsonNode routing()
  {
    return http.get(coordinator.resolve("/druid/coordinator/v1/getafix/routing"));
  }

  /** Segment id → planned Historicals. */
  public Map<String, Set<String>> plannedHolders()
  {
    final Map<String, Set<String>> planned = new TreeMap<>();
    http.get(coordinator.resolve("/druid/coordinator/v1/getafix/plan")).path("segments").fields().forEachRemaining(
        e -> {
          final Set<String> nodes = new TreeSet<>();
          e.getValue().fieldNames().forEachRemaining(nodes::add);
          planned.put(e.getKey(), nodes);
        }
    );
    return planned;
  }

  /** The current Getafix round number on the leading Coordinator. */
  public long round()
  {
    return status().path("round").asLong();
  }

  /** Segment id → planned Historical → share of the segment's queries. */
  public Map<String, Map<String, Double>> plannedShares()
  {
    final Map<String, Map<String, Double>> shares = new TreeMap<>();
    http.get(coordinator.resolve("/druid/coordinator/v1/getafix/plan")).path("segments").fields().forEachRemaining(
        e -> {
          final Map<String, Double> nodes = new TreeMap<>();
          e.getValue().fields().forEachRemaining(n -> nodes.put(n.getKey(), n.getValue().asDouble()));
          shares.put(e.getKey(), nodes);
        }
    );
    return shares;
  }

  /** Historical → measured tier (HOT, WARM or COLD). */
  public Map<String, String> tiers()
  {
    final Map<String, String> tiers = new TreeMap<>();
    http.get(coordinator.resolve("/druid/coordinator/v1/getafix/tiers")).fields().forEachRemaining(
        e -> tiers.put(e.getKey(), e.getValue().asText())
    );
    return tiers;
  }

  public Map<String, Double> capacities()
  {
    final Map<String, Double> capacities = new TreeMap<>();
    http.get(coordinator.resolve("/druid/coordinator/v1/getafix/capacities")).fields().forEachRemaining(
        e -> capacities.put(e.getKey(), e.getValue().asDouble())
    );
    return capacities;
  }

  public JsonNode historicalStats(LocalNode historical)
  {
    return http.get(historical.uri().resolve("/druid/historical/v1/getafix/stats"));
  }

  /** Segment id → Historicals serving it now, from the per-server view. */
  public static Map<String, Set<String>> holdersBySegment(Map<String, Set<String>> segmentsPerServer)
  {
    final Map<String, Set<String>> holders = new HashMap<>();
    segmentsPerServer.forEach((server, ids) -> ids.forEach(
        id -> holders.computeIfAbsent(id, k -> new TreeSet<>()).add(server)
    ));
    return holders;
  }
}
