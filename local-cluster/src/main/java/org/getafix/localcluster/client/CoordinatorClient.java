package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.localcluster.cluster.Waits;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;

/**
 * The Coordinator's (and, since it runs as Overlord, the Overlord's) HTTP API as the tests need it.
 */
public final class CoordinatorClient
{
  private final URI base;
  private final DruidHttp http;

  public CoordinatorClient(URI base, DruidHttp http)
  {
    this.base = base;
    this.http = http;
  }

  public URI uri()
  {
    return base;
  }

  /**
   * {@code GET /druid/coordinator/v1/loadstatus}: per datasource, the percentage of used segments loaded at least once.
   */
  public Map<String, Double> loadStatus()
  {
    final Map<String, Double> status = new TreeMap<>();
    http.get(base.resolve("/druid/coordinator/v1/loadstatus")).fields()
        .forEachRemaining(e -> status.put(e.getKey(), e.getValue().asDouble()));
    return status;
  }

  /**
   * {@code GET /druid/coordinator/v1/loadstatus?full}: per tier and datasource, the replicas still to load to satisfy the
   * load rules.
   */
  public Map<String, Map<String, Long>> replicasLeftToLoad()
  {
    final Map<String, Map<String, Long>> left = new TreeMap<>();
    http.get(base.resolve("/druid/coordinator/v1/loadstatus?full")).fields().forEachRemaining(tier -> {
      final Map<String, Long> perDataSource = new TreeMap<>();
      tier.getValue().fields().forEachRemaining(ds -> perDataSource.put(ds.getKey(), ds.getValue().asLong()));
      left.put(tier.getKey(), perDataSource);
    });
    return left;
  }

  /**
   * Segment ids of {@code dataSource} that the Coordinator sees on each server ({@code host:port}), for servers of
   * type historical. Servers holding none of them are present with an empty set.
   */
  public Map<String, Set<String>> segmentsPerServer(String dataSource)
  {
    final Map<String, Set<String>> perServer = new TreeMap<>();
    for (JsonNode server : http.get(base.resolve("/druid/coordinator/v1/servers?full"))) {
      if (!"historical".equals(server.path("type").asText())) {
        continue;
      }
      final Set<String> ids = new TreeSet<>();
      final JsonNode segments = server.path("segments");
      segments.fields().forEachRemaining(e -> {
        if (dataSource.equals(e.getValue().path("dataSource").asText())) {
          ids.add(e.getKey());
        }
      });
      perServer.put(server.path("host").asText(), ids);
    }
    return perServer;
  }

  /**
   * Size in bytes of each segment of {@code dataSource} that some Historical serves.
   */
  public Map<String, Long> segmentSizes(String dataSource)
  {
    final Map<String, Long> sizes = new TreeMap<>();
    for (JsonNode server : http.get(base.resolve("/druid/coordinator/v1/servers?full"))) {
      server.path("segments").fields().forEachRemaining(e -> {
        if (dataSource.equals(e.getValue().path("dataSource").asText())) {
          sizes.put(e.getKey(), e.getValue().path("size").asLong());
        }
      });
    }
    return sizes;
  }

  /**
   * Number of segments of {@code dataSource} per Historical ({@code host:port}).
   */
  public Map<String, Integer> segmentCountsPerServer(String dataSource)
  {
    final Map<String, Integer> counts = new TreeMap<>();
    segmentsPerServer(dataSource).forEach((server, ids) -> counts.put(server, ids.size()));
    return counts;
  }

  /**
   * Historicals ({@code host:port}) the Coordinator currently sees.
   */
  public Set<String> historicalServers()
  {
    final Set<String> servers = new TreeSet<>();
    for (JsonNode server : http.get(base.resolve("/druid/coordinator/v1/servers?simple"))) {
      if ("historical".equals(server.path("type").asText())) {
        servers.add(server.path("host").asText());
      }
    }
    return servers;
  }

  /**
   * Used segment ids of a datasource, from the metadata store.
   */
  public Set<String> usedSegments(String dataSource)
  {
    final Set<String> ids = new TreeSet<>();
    final URI uri = base.resolve("/druid/coordinator/v1/metadata/datasources/" + encode(dataSource) + "/segments");
    for (JsonNode id : http.get(uri)) {
      ids.add(id.asText());
    }
    return ids;
  }

  /**
   * Replaces the load/drop rules of a datasource ({@code POST /druid/coordinator/v1/rules/{dataSource}}).
   */
  public void setRules(String dataSource, List<Map<String, Object>> rules)
  {
    http.postJson(base.resolve("/druid/coordinator/v1/rules/" + encode(dataSource)), rules);
  }

  /** The load/drop rules of a datasource, without the cluster's default rules. */
  public JsonNode rules(String dataSource)
  {
    return http.get(base.resolve("/druid/coordinator/v1/rules/" + encode(dataSource)));
  }

  public JsonNode dynamicConfig()
  {
    return http.get(base.resolve("/druid/coordinator/v1/config"));
  }

  /**
   * Updates the Coordinator dynamic config; fields not given keep their current values.
   */
  public void updateDynamicConfig(Map<String, Object> changes)
  {
    http.postJson(base.resolve("/druid/coordinator/v1/config"), changes);
  }

  /**
   * Submits an ingestion task to the Overlord and returns its id.
   */
  public String submitTask(Object taskSpec)
  {
    return http.postJson(base.resolve("/druid/indexer/v1/task"), taskSpec).path("task").asText();
  }

  /**
   * The task's status code: RUNNING, SUCCESS or FAILED (or empty while the Overlord does not know it yet).
   */
  public JsonNode taskStatus(String taskId)
  {
    return http.get(base.resolve("/druid/indexer/v1/task/" + encode(taskId) + "/status")).path("status");
  }

  /**
   * Waits for a task to finish and returns its final status; throws if it failed.
   */
  public JsonNode awaitTaskSuccess(String taskId, Duration timeout) throws TimeoutException
  {
    final JsonNode[] last = new JsonNode[1];
    Waits.await(
        "task " + taskId + " to finish",
        timeout,
        Duration.ofSeconds(1),
        () -> {
          last[0] = taskStatus(taskId);
          final String code = last[0].path("statusCode").asText(last[0].path("status").asText());
          if ("FAILED".equals(code)) {
            throw new Waits.AbortWait("Task " + taskId + " failed: " + last[0]);
          }
          return "SUCCESS".equals(code);
        },
        () -> "; last status: " + last[0]
    );
    return last[0];
  }

  /**
   * Waits until every used segment of {@code dataSource} is loaded on as many Historicals as its rules ask.
   */
  public void awaitFullyLoaded(String dataSource, Duration timeout) throws TimeoutException
  {
    final Object[] last = new Object[2];
    Waits.await(
        "all segments of " + dataSource + " to be loaded",
        timeout,
        Duration.ofSeconds(1),
        () -> {
          final Map<String, Double> status = loadStatus();
          last[0] = status;
          if (status.getOrDefault(dataSource, 0.0) < 100.0) {
            return false;
          }
          final Map<String, Map<String, Long>> left = replicasLeftToLoad();
          last[1] = left;
          return left.values().stream().allMatch(perDs -> perDs.getOrDefault(dataSource, 0L) == 0L);
        },
        () -> "; loadstatus: " + last[0] + ", replicas left: " + last[1]
    );
  }

  static String encode(String s)
  {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static Map<String, Object> map(Object... keyValues)
  {
    final Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put((String) keyValues[i], keyValues[i + 1]);
    }
    return map;
  }
}
