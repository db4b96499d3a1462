package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Minimal JSON-over-HTTP client for talking to Druid nodes. Non-2xx answers become {@link DruidHttpException}s that
 * carry the status and the body (Druid puts its error message there).
 */
public final class DruidHttp
{
  private static final DruidHttp SHARED = new DruidHttp(Duration.ofMinutes(2));

  private final HttpClient client;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Duration requestTimeout;

  public DruidHttp(Duration requestTimeout)
  {
    this.requestTimeout = requestTimeout;
    this.client = HttpClient.newBuilder()
                            .connectTimeout(Duration.ofSeconds(5))
                            .version(HttpClient.Version.HTTP_1_1)
                            .build();
  }

  public static DruidHttp shared()
  {
    return SHARED;
  }

  public ObjectMapper mapper()
  {
    return mapper;
  }

  /**
   * Whether {@code GET /status/health} answers {@code true}.
   */
  public boolean isHealthy(URI node)
  {
    try {
      final HttpResponse<String> response = send(
          HttpRequest.newBuilder(node.resolve("/status/health")).timeout(Duration.ofSeconds(5)).GET().build()
      );
      return response.statusCode() == 200 && "true".equals(response.body().trim());
    }
    catch (IOException e) {
      return false;
    }
  }

  public JsonNode get(URI uri)
  {
    return parse(uri, checked(uri, sendUnchecked(HttpRequest.newBuilder(uri).timeout(requestTimeout).GET().build())));
  }

  /**
   * POSTs {@code body} (a JSON tree, a Map/List, or a pre-serialised JSON String) and parses the JSON answer; an
   * empty answer is returned as a JSON null node.
   */
  public JsonNode postJson(URI uri, Object body)
  {
    return postJson(uri, body, requestTimeout);
  }

  public JsonNode postJson(URI uri, Object body, Duration timeout)
  {
    final String json;
    try {
      json = body instanceof String s ? s : mapper.writeValueAsString(body);
    }
    catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    final HttpRequest request = HttpRequest.newBuilder(uri)
                                           .timeout(timeout)
                                           .header("Content-Type", "application/json")
                                           .POST(HttpRequest.BodyPublishers.ofString(json))
                                           .build();
    return parse(uri, checked(uri, sendUnchecked(request)));
  }

  public JsonNode delete(URI uri)
  {
    return parse(uri, checked(uri, sendUnchecked(HttpRequest.newBuilder(uri).timeout(requestTimeout).DELETE().build())));
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException
  {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted during " + request.method() + " " + request.uri(), e);
    }
  }

  private HttpResponse<String> sendUnchecked(HttpRequest request)
  {
    try {
      return send(request);
    }
    catch (IOException e) {
      throw new UncheckedIOException(request.method() + " " + request.uri() + " failed: " + e.getMessage(), e);
    }
  }

  private static String checked(URI uri, HttpResponse<String> response)
  {
    if (response.statusCode() / 100 != 2) {
      throw new DruidHttpException(uri, response.statusCode(), response.body());
    }
    return response.body();
  }

  private JsonNode parse(URI uri, String body)
  {
    if (body == null || body.isBlank()) {
      return mapper.nullNode();
    }
    try {
      return mapper.readTree(body);
    }
    catch (IOException e) {
      throw new IllegalStateException("Non-JSON answer from " + uri + ": " + body, e);
    }
  }

  /**
   * A non-2xx answer from a Druid node.
   */
  public static final class DruidHttpException extends RuntimeException
  {
    private final int status;
    private final String body;

    public DruidHttpException(URI uri, int status, String body)
    {
      super("HTTP " + status + " from " + uri + ": " + body);
      this.status = status;
      this.body = body;
    }

    public int status()
    {
      return status;
    }

    public String body()
    {
      return body;
    }
  }
}
