package org.getafix.localcluster.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

/**
 * Receives the metrics a Druid node sends with Druid's own {@code http} emitter (batches of JSON events POSTed to
 * {@code druid.emitter.http.recipientBaseUrl}), the way an operator's metrics collector would, so that tests read
 * a node's metrics as emitted rather than through a back door. Point a node at it with {@link #emitterProperties}.
 */
public final class MetricsReceiver implements AutoCloseable
{
  private final ObjectMapper mapper = new ObjectMapper();
  private final ConcurrentLinkedQueue<JsonNode> events = new ConcurrentLinkedQueue<>();
  private final HttpServer server;

  private MetricsReceiver(HttpServer server)
  {
    this.server = server;
  }

  /** Starts a receiver on a free loopback port. */
  public static MetricsReceiver start() throws IOException
  {
    final HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    final MetricsReceiver receiver = new MetricsReceiver(server);
    server.createContext("/", exchange -> {
      try (InputStream body = exchange.getRequestBody()) {
        receiver.accept(receiver.mapper.readTree(body));
        exchange.sendResponseHeaders(200, -1);
      }
      catch (IOException e) {
        exchange.sendResponseHeaders(400, -1);
      }
      finally {
        exchange.close();
      }
    });
    server.setExecutor(Executors.newSingleThreadExecutor(r -> {
      final Thread t = new Thread(r, "getafix-metrics-receiver");
      t.setDaemon(true);
      return t;
    }));
    server.start();
    return receiver;
  }

  private void accept(JsonNode batch)
  {
    if (batch == null) {
      return;
    }
    if (batch.isArray()) {
      batch.forEach(this::acceptEvent);
    } else {
      acceptEvent(batch);
    }
  }

  private void acceptEvent(JsonNode event)
  {
    if ("metrics".equals(event.path("feed").asText())) {
      events.add(event);
    }
  }

  /**
   * Runtime properties that make a node send its metrics here, besides the emitters in {@code otherEmitters}
   * (e.g. Getafix's own), through {@code druid.emitter=composing}; events are flushed every half second.
   */
  public Map<String, String> emitterProperties(List<String> otherEmitters) throws JsonProcessingException
  {
    final List<String> emitters = new ArrayList<>(otherEmitters);
    emitters.add("http");
    return Map.of(
        "druid.emitter", "composing",
        "druid.emitter.composing.emitters", mapper.writeValueAsString(emitters),
        "druid.emitter.http.recipientBaseUrl", "http://" + server.getAddress().getHostString() + ":"
                                               + server.getAddress().getPort() + "/",
        "druid.emitter.http.flushMillis", "500"
    );
  }

  /** The metric events received so far that are named {@code metric}, were created in [from, to) and match {@code filter}. */
  public List<JsonNode> events(String metric, Instant from, Instant to, Predicate<JsonNode> filter)
  {
    return events.stream()
                 .filter(e -> metric.equals(e.path("metric").asText()))
                 .filter(e -> {
                   final Instant created = Instant.parse(e.path("timestamp").asText());
                   return !created.isBefore(from) && created.isBefore(to);
                 })
                 .filter(filter)
                 .toList();
  }

  /** Number of {@code metric} events created in [from, to), per value of {@code dimension}. */
  public Map<String, Long> countBy(String metric, String dimension, Instant from, Instant to)
  {
    final Map<String, Long> counts = new TreeMap<>();
    for (JsonNode event : events(metric, from, to, e -> true)) {
      counts.merge(event.path(dimension).asText(), 1L, Long::sum);
    }
    return counts;
  }

  /** Sum of the values of {@code metric} events created in [from, to), per value of {@code dimension}. */
  public Map<String, Double> sumBy(String metric, String dimension, Instant from, Instant to)
  {
    final Map<String, Double> sums = new TreeMap<>();
    for (JsonNode event : events(metric, from, to, e -> true)) {
      sums.merge(event.path(dimension).asText(), event.path("value").asDouble(), Double::sum);
    }
    return sums;
  }

  @Override
  public void close()
  {
    server.stop(0);
  }
}
