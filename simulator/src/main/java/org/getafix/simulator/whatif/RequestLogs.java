package org.getafix.simulator.whatif;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The native queries in Druid's request logs ({@code druid.request.logging.type=file}): one line per query a node
 * ran, tab-separated timestamp, remote address, the query's statistics and the query (Druid 33; older releases put
 * the query before the statistics, and both orders are read). A Broker's log has each query once, with its
 * intervals; a Historical's has its share of each query, with the exact segments. Lines of the same query, on one or
 * several nodes, are one {@link LoggedQuery}: they share the query's {@code queryResourceId} (else its
 * {@code queryId}). SQL lines, unreadable lines and queries of a datasource that is not a table are skipped and
 * counted.
 */
public final class RequestLogs
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RequestLogs()
  {
  }

  /**
   * A span of time a query read: a whole interval (from a Broker's log) or one segment, named by its interval and
   * partition (from a Historical's log).
   *
   * @param partition the segment's partition number, or -1 for every segment of the interval
   */
  public record Span(long startMillis, long endMillis, int partition)
  {
  }

  /**
   * One query as the logs show it.
   *
   * @param arrivalMillis when its first line was logged
   * @param timeMillis    the sum of {@code query/time} over its lines: on Historicals, the time its shares took
   * @param bySegment     whether its spans name segments (Historical logs) rather than intervals
   */
  public record LoggedQuery(String dataSource, String queryType, long arrivalMillis, List<Span> spans,
                            long timeMillis, boolean bySegment)
  {
  }

  /** The queries of a log, and how many lines were not native table queries. */
  public record Parsed(List<LoggedQuery> queries, int skippedLines)
  {
  }

  /** The queries in the given files, or in the {@code .log} files of the given directories. */
  public static Parsed read(List<Path> paths) throws IOException
  {
    final List<String> lines = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        try (Stream<Path> files = Files.list(path)) {
          for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList()) {
            lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
          }
        }
      } else if (Files.isRegularFile(path)) {
        lines.addAll(Files.readAllLines(path, StandardCharsets.UTF_8));
      } else {
        throw new NoSuchFileException(path.toString(), null, "no request log there");
      }
    }
    return parse(lines);
  }

  /** The queries the lines hold. */
  public static Parsed parse(List<String> lines)
  {
    final Map<String, List<LoggedQuery>> byKey = new LinkedHashMap<>();
    int skipped = 0;
    int lineNumber = 0;
    for (String line : lines) {
      lineNumber++;
      final String[] fields = line.split("\t", -1);
      final JsonNode query = fields.length >= 4 ? queryOf(fields[2], fields[3]) : null;
      final LoggedQuery logged = query == null ? null : logged(fields[0], query, statsOf(fields[2], fields[3]));
      if (logged == null) {
        skipped++;
        continue;
      }
      final JsonNode context = query.path("context");
      final String key = context.path("queryResourceId").asText(context.path("queryId").asText("line " + lineNumber));
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(logged);
    }
    final List<LoggedQuery> queries = new ArrayList<>();
    for (List<LoggedQuery> parts : byKey.values()) {
      final LoggedQuery first = parts.get(0);
      final List<Span> spans = new ArrayList<>();
      long arrival = Long.MAX_VALUE;
      long time = 0;
      for (LoggedQuery part : parts) {
        spans.addAll(part.spans());
        arrival = Math.min(arrival, part.arrivalMillis());
        time += part.timeMillis();
      }
      queries.add(new LoggedQuery(first.dataSource(), first.queryType(), arrival, List.copyOf(spans), time,
                                  first.bySegment()));
    }
    return new Parsed(List.copyOf(queries), skipped);
  }

  /** Whichever of the two JSON fields is the native query (it has a {@code queryType}); null for neither. */
  private static JsonNode queryOf(String a, String b)
  {
    for (String field : List.of(a, b)) {
      final JsonNode node = json(field);
      if (node != null && node.hasNonNull("queryType")) {
        return node;
      }
    }
    return null;
  }

  private static JsonNode statsOf(String a, String b)
  {
    for (String field : List.of(a, b)) {
      final JsonNode node = json(field);
      if (node != null && node.has("query/time")) {
        return node;
      }
    }
    return MAPPER.createObjectNode();
  }

  private static JsonNode json(String field)
  {
    if (field.isEmpty() || field.charAt(0) != '{') {
      return null;
    }
    try {
      return MAPPER.readTree(field);
    }
    catch (JsonProcessingException e) {
      return null;
    }
  }

  /**
   * An interval a query names. Druid writes "eternity" (a query without a time filter) with years beyond what
   * {@link Instant} parses: such a query reads every segment.
   */
  private static Span wholeInterval(String text)
  {
    try {
      final long[] interval = ClusterInventory.interval(text);
      return new Span(interval[0], interval[1], -1);
    }
    catch (RuntimeException e) {
      if (text.indexOf('/') < 0) {
        throw e;
      }
      return new Span(Long.MIN_VALUE, Long.MAX_VALUE, -1);
    }
  }

  /** The query of one line, or null when it reads no table or names no interval. */
  private static LoggedQuery logged(String timestamp, JsonNode query, JsonNode stats)
  {
    final JsonNode source = query.path("dataSource");
    final String dataSource = source.isTextual()
                              ? source.asText()
                              : "table".equals(source.path("type").asText()) ? source.path("name").asText() : null;
    final long arrival;
    try {
      arrival = Instant.parse(timestamp).toEpochMilli();
    }
    catch (RuntimeException e) {
      return null;
    }
    if (dataSource == null) {
      return null;
    }
    final JsonNode intervals = query.path("intervals");
    final List<Span> spans = new ArrayList<>();
    final boolean bySegment = "segments".equals(intervals.path("type").asText());
    try {
      if (bySegment) {
        for (JsonNode segment : intervals.path("segments")) {
          final long[] interval = ClusterInventory.interval(segment.path("itvl").asText());
          spans.add(new Span(interval[0], interval[1], segment.path("part").asInt(0)));
        }
      } else {
        final JsonNode list = intervals.isArray() ? intervals : intervals.path("intervals");
        for (JsonNode text : list) {
          spans.add(wholeInterval(text.asText()));
        }
      }
    }
    catch (RuntimeException e) {
      return null;
    }
    if (spans.isEmpty()) {
      return null;
    }
    return new LoggedQuery(dataSource, query.path("queryType").asText(), arrival, List.copyOf(spans),
                           stats.path("query/time").asLong(0), bySegment);
  }
}
