package org.getafix.druid.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.util.concurrent.ListenableFuture;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.StringFullResponseHandler;
import org.apache.druid.java.util.http.client.response.StringFullResponseHolder;
import org.getafix.druid.historical.HistoricalStatsReport;
import org.jboss.netty.handler.codec.http.HttpMethod;
import org.joda.time.Duration;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Pulls {@code /druid/historical/v1/getafix/stats} from every Historical at once with the Coordinator's escalated
 * HTTP client (so it passes the Historicals' authorization as the internal system identity), and waits for all of
 * them within one deadline: a slow node costs one timeout per round, not one per node.
 */
public class StatsPuller
{
  static final String STATS_PATH = "/druid/historical/v1/getafix/stats";

  private final HttpClient httpClient;
  private final ObjectMapper jsonMapper;

  public StatsPuller(HttpClient httpClient, ObjectMapper jsonMapper)
  {
    this.httpClient = httpClient;
    this.jsonMapper = jsonMapper;
  }

  /** One node's result: a report, or why there is none. */
  public record Pulled(HistoricalStatsReport report, String problem)
  {
  }

  /**
   * @param baseUrls node name (host:port) → scheme://host:port
   * @return node name → its report or the problem, for every node asked
   */
  public Map<String, Pulled> pull(Map<String, String> baseUrls, long timeoutMillis)
  {
    final Map<String, ListenableFuture<StringFullResponseHolder>> futures = new HashMap<>();
    final Map<String, Pulled> results = new HashMap<>();
    baseUrls.forEach((node, base) -> {
      try {
        futures.put(node, httpClient.go(
            new Request(HttpMethod.GET, new URL(base + STATS_PATH)),
            new StringFullResponseHandler(StandardCharsets.UTF_8),
            Duration.millis(timeoutMillis)
        ));
      }
      catch (Exception e) {
        results.put(node, new Pulled(null, "request failed: " + e));
      }
    });
    final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    futures.forEach((node, future) -> {
      try {
        final long left = Math.max(0, deadline - System.nanoTime());
        final StringFullResponseHolder response = future.get(left, TimeUnit.NANOSECONDS);
        results.put(node, parse(response.getStatus().getCode(), response.getContent(), jsonMapper));
      }
      catch (TimeoutException e) {
        future.cancel(true);
        results.put(node, new Pulled(null, "no answer within " + timeoutMillis + " ms"));
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        future.cancel(true);
        results.put(node, new Pulled(null, "interrupted"));
      }
      catch (ExecutionException e) {
        results.put(node, new Pulled(null, "request failed: " + e.getCause()));
      }
    });
    return results;
  }

  /** Parses one answer; anything but a 200 with a well-formed report is a problem naming what was wrong. */
  static Pulled parse(int status, String body, ObjectMapper jsonMapper)
  {
    if (status != 200) {
      return new Pulled(null, "HTTP " + status + " from the stats endpoint");
    }
    if (body == null || body.isBlank()) {
      return new Pulled(null, "empty stats body");
    }
    try {
      final HistoricalStatsReport report = jsonMapper.readValue(body, HistoricalStatsReport.class);
      if (report == null) {
        return new Pulled(null, "stats body is JSON null");
      }
      final String problem = NodeStatsTracker.problemOf(report);
      return problem == null ? new Pulled(report, null) : new Pulled(null, problem);
    }
    catch (Exception e) {
      return new Pulled(null, "unparseable stats: " + e.getMessage());
    }
  }
}
