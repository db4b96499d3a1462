package org.getafix.simulator.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a running Druid cluster holds, as its Coordinator's {@code GET /druid/coordinator/v1/servers?full} shows
 * it: the Historicals (name, tier, {@code maxSize}) and every segment they serve, with its size and how many of them
 * serve it.
 *
 * @param historicals the Historicals, by name
 * @param segments    every served segment, newest interval first (then by partition)
 */
public record ClusterInventory(List<Historical> historicals, List<ServedSegment> segments)
{
  /** A Historical: {@code host:port}, tier, and the bytes of segments it may hold. */
  public record Historical(String name, String tier, long maxSizeBytes)
  {
  }

  /** A served segment of a datasource: its interval, partition, size and replica count. */
  public record ServedSegment(String dataSource, long startMillis, long endMillis, int partition, long sizeBytes,
                              int replicas)
  {
    /** Whether the segment's interval overlaps [startMillis, endMillis). */
    boolean overlaps(long start, long end)
    {
      return startMillis < end && start < endMillis;
    }
  }

  /**
   * The inventory of the Historicals in {@code servers} (the array the Coordinator returns); other server types
   * (Peons, Indexers) hold no data to plan. Only the segments of {@code dataSource} are kept, or all when it is null.
   */
  public static ClusterInventory of(JsonNode servers, String dataSource)
  {
    if (!servers.isArray()) {
      throw new IllegalArgumentException("the Coordinator's servers?full answer is not a JSON array");
    }
    final List<Historical> historicals = new ArrayList<>();
    final Map<String, ServedSegment> segments = new HashMap<>();
    for (JsonNode server : servers) {
      if (!"historical".equals(server.path("type").asText())) {
        continue;
      }
      historicals.add(new Historical(
          server.path("host").asText(),
          server.path("tier").asText("_default_tier"),
          server.path("maxSize").asLong()
      ));
      server.path("segments").fields().forEachRemaining(entry -> {
        final JsonNode segment = entry.getValue();
        final String source = segment.path("dataSource").asText();
        if (dataSource != null && !dataSource.equals(source)) {
          return;
        }
        final long[] interval = interval(segment.path("interval").asText());
        segments.merge(
            entry.getKey(),
            new ServedSegment(source, interval[0], interval[1],
                              segment.path("shardSpec").path("partitionNum").asInt(0),
                              segment.path("size").asLong(), 1),
            (a, b) -> new ServedSegment(a.dataSource(), a.startMillis(), a.endMillis(), a.partition(),
                                        a.sizeBytes(), a.replicas() + b.replicas())
        );
      });
    }
    if (historicals.isEmpty()) {
      throw new IllegalArgumentException("the Coordinator sees no Historical");
    }
    if (segments.isEmpty()) {
      throw new IllegalArgumentException(
          dataSource == null ? "the Historicals serve no segment" : "no Historical serves a segment of [" + dataSource + "]"
      );
    }
    historicals.sort(Comparator.comparing(Historical::name));
    final List<ServedSegment> newestFirst = new ArrayList<>(segments.values());
    newestFirst.sort(Comparator.comparingLong(ServedSegment::endMillis).reversed()
                               .thenComparing(Comparator.comparingLong(ServedSegment::startMillis).reversed())
                               .thenComparing(ServedSegment::dataSource)
                               .thenComparingInt(ServedSegment::partition));
    return new ClusterInventory(List.copyOf(historicals), List.copyOf(newestFirst));
  }

  /** Start and end millis of a segment's interval as Druid writes it: two ISO-8601 instants joined by '/'. */
  static long[] interval(String text)
  {
    final int slash = text.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("not an interval: [" + text + "]");
    }
    return new long[]{
        Instant.parse(text.substring(0, slash)).toEpochMilli(),
        Instant.parse(text.substring(slash + 1)).toEpochMilli()
    };
  }

  /** The mean number of Historicals serving a segment. */
  public double meanReplicas()
  {
    return segments.stream().mapToInt(ServedSegment::replicas).average().orElse(0);
  }

  /** The mean segment size in bytes. */
  public double meanSizeBytes()
  {
    return segments.stream().mapToLong(ServedSegment::sizeBytes).average().orElse(0);
  }
}
