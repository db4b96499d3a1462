package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.localcluster.cluster.Waits;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * The Broker's quality-monitor API as a client sees it: queries whose answer is read with its status and response
 * context (for the coverage of budgeted queries), and the quality endpoint
 * {@code GET /druid/broker/v1/getafix/quality}.
 */
public final class QualityClient
{
  public static final String RESPONSE_CONTEXT_HEADER = "X-Druid-Response-Context";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder()
                                                   .version(HttpClient.Version.HTTP_1_1)
                                                   .connectTimeout(Duration.ofSeconds(5))
                                                   .build();

  private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  private final URI broker;

  public QualityClient(URI broker)
  {
    this.broker = broker;
  }

  /**
   * POSTs {@code body} (serialised with Jackson) to {@code path} on the Broker, waiting up to 2 minutes for the
   * response; any HTTP status is returned.
   */
  public BrokerAnswer post(String path, Object body) throws IOException, InterruptedException
  {
    return post(path, body, DEFAULT_TIMEOUT);
  }

  /** {@link #post(String, Object)}, waiting up to {@code timeout}: for a query whose own timeout is longer. */
  public BrokerAnswer post(String path, Object body, Duration timeout) throws IOException, InterruptedException
  {
    final HttpRequest request = HttpRequest.newBuilder(broker.resolve(path))
                                           .timeout(timeout)
                                           .header("Content-Type", "application/json")
                                           .POST(HttpRequest.BodyPublishers.ofString(MAPPER.writeValueAsString(body)))
                                           .build();
    final long t0 = System.nanoTime();
    final HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    final long millis = Duration.ofNanos(System.nanoTime() - t0).toMillis();
    final String context = response.headers().firstValue(RESPONSE_CONTEXT_HEADER).orElse("{}");
    final String text = response.body();
    return new BrokerAnswer(
        response.statusCode(),
        text == null || text.isBlank() ? MAPPER.nullNode() : readOrText(text),
        MAPPER.readTree(context),
        millis
    );
  }

  /** A native query ({@code POST /druid/v2/}). */
  public BrokerAnswer nativeQuery(Object query) throws IOException, InterruptedException
  {
    return post("/druid/v2/", query);
  }

  /** The quality endpoint's state: configuration, counters, budget controllers and the recent mature runs. */
  public JsonNode qualityState()
  {
    final HttpRequest request = HttpRequest.newBuilder(broker.resolve("/druid/broker/v1/getafix/quality"))
                                           .timeout(Duration.ofSeconds(30))
                                           .GET()
                                           .build();
    try {
      final HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("GET " + request.uri() + ": HTTP " + response.statusCode() + ": " + response.body());
      }
      return MAPPER.readTree(response.body());
    }
    catch (IOException e) {
      throw new UncheckedIOException("GET " + request.uri() + " failed: " + e.getMessage(), e);
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during GET " + request.uri(), e);
    }
  }

  /**
   * The mature run of query {@code queryId} as the quality endpoint lists it, once it has ended (measured or not), or a
   * timeout after {@code within}.
   */
  public MatureRunReport awaitMatureRun(String queryId, Duration within) throws TimeoutException
  {
    final MatureRunReport[] found = new MatureRunReport[1];
    Waits.await("the mature run of " + queryId, within, Duration.ofMillis(500), () -> {
      found[0] = BrokerFormats.recentMatureRuns(qualityState())
                              .stream()
                              .filter(run -> run.queryId().equals(queryId))
                              .findFirst()
                              .orElse(null);
      return found[0] != null;
    }, () -> "not in the quality endpoint's recent mature runs yet");
    return found[0];
  }

  /** Druid's error answers are JSON, but a proxy or Jetty error page may not be: keep those as a text node. */
  private static JsonNode readOrText(String text)
  {
    try {
      return MAPPER.readTree(text);
    }
    catch (IOException e) {
      return MAPPER.getNodeFactory().textNode(text);
    }
  }
}
