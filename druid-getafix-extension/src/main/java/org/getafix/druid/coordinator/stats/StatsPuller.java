package org.getafix.druid.coordinator.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.inject.Inject;
import org.apache.druid.guice.annotations.EscalatedGlobal;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.StringFullResponseHandler;
import org.apache.druid.java.util.http.client.response.StringFullResponseHolder;
import org.getafix.core.wire.HistoricalStatsReport;
import org.jboss.netty.handler.codec.http.HttpMethod;
import org.jboss.netty.handler.timeout.ReadTimeoutException;
import org.joda.time.Duration;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Pulls {@value HistoricalStatsReport#PATH} from every Historical at once with the Coordinator's escalated
 * HTTP client (so it passes the Historicals' authorization as the internal system identity), and waits for all of
 * them within one deadline: a slow node costs one timeout per round, not one per node.
 */
public class StatsPuller implements StatsSource
{
  private final HttpClient httpClient;
  private final ObjectMapper jsonMapper;

  @Inject
  public StatsPuller(@EscalatedGlobal HttpClient httpClient, @Json ObjectMapper jsonMapper)
  {
    this.httpClient = httpClient;
    this.jsonMapper = jsonMapper;
  }

  /**
   * One node's result: a report, or why there is none.
   *
   * @param unreachable true when the request failed (connection refused or reset, no route), as opposed to an
   *                    answer that was an error or garbage, or a late one
   * @param late        true when no answer came within the deadline: a busy node may answer stats slowly and still
   *                    serve queries, so this says nothing about its capacity or whether it is up
   */
  public record Pulled(HistoricalStatsReport report, String problem, boolean unreachable, boolean late)
  {
    public Pulled(HistoricalStatsReport report, String problem, boolean unreachable)
    {
      this(report, problem, unreachable, false);
    }

    static Pulled unreachable(String problem)
    {
      return new Pulled(null, problem, true, false);
    }

    static Pulled bad(String problem)
    {
      return new Pulled(null, problem, false, false);
    }

    static Pulled late(String problem)
    {
      return new Pulled(null, problem, false, true);
    }
  }

  @Override
  public Map<String, Pulled> pull(Map<String, String> baseUrls, long timeoutMillis)
  {
    final Map<String, ListenableFuture<StringFullResponseHolder>> futures = new HashMap<>();
    final Map<String, Pulled> results = new HashMap<>();
    baseUrls.forEach((node, base) -> {
      try {
        futures.put(node, httpClient.go(
            new Request(HttpMethod.GET, new URL(base + HistoricalStatsReport.PATH)),
            new StringFullResponseHandler(StandardCharsets.UTF_8),
            Duration.millis(timeoutMillis)
        ));
      }
      catch (Exception e) {
        results.put(node, Pulled.unreachable("request failed: " + e));
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
        results.put(node, Pulled.late("no answer within " + timeoutMillis + " ms"));
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        future.cancel(true);
        results.put(node, Pulled.bad("interrupted"));
      }
      catch (ExecutionException e) {
        results.put(node, isReadTimeout(e.getCause())
                          ? Pulled.late("no answer within " + timeoutMillis + " ms: " + e.getCause())
                          : Pulled.unreachable("request failed: " + e.getCause()));
      }
    });
    return results;
  }

  /**
   * Whether a failed request was only slow: the HTTP client's own read deadline, which races ours. A connect
   * timeout is not: no connection means no Historical answering there.
   */
  static boolean isReadTimeout(Throwable failure)
  {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ReadTimeoutException || t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** Parses one answer; anything but a 200 with a well-formed report is a problem naming what was wrong. */
  static Pulled parse(int status, String body, ObjectMapper jsonMapper)
  {
    if (status != 200) {
      return Pulled.bad("HTTP " + status + " from the stats endpoint");
    }
    if (body == null || body.isBlank()) {
      return Pulled.bad("empty stats body");
    }
    try {
      final HistoricalStatsReport report = jsonMapper.readValue(body, HistoricalStatsReport.class);
      if (report == null) {
        return Pulled.bad("stats body is JSON null");
      }
      final String problem = report.problem();
      return problem == null ? new Pulled(report, null, false) : Pulled.bad(problem);
    }
    catch (Exception e) {
      return Pulled.bad("unparseable stats: " + e.getMessage());
    }
  }
}
