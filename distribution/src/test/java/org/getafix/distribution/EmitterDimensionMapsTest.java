package org.getafix.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The dimension maps the release ships for Druid's prometheus-emitter and statsd-emitter
 * ({@code druid.emitter.prometheus.dimensionMapPath}, {@code druid.emitter.statsd.dimensionMapPath}). Both emitters
 * drop a metric their map lacks, so every {@link GetafixMetric} must be in both, with the same dimensions, each one
 * of {@link MetricDimension}; and each entry holds only the fields its emitter reads (the prometheus-emitter reads its
 * map with a plain ObjectMapper, which fails on an unknown field).
 */
class EmitterDimensionMapsTest
{
  static final Path DIRECTORY = ProjectLayout.root().resolve("distribution/src/metrics");
  private static final String PROMETHEUS = "prometheus-emitter.json";
  private static final String STATSD = "statsd-emitter.json";
  /** File in {@link #DIRECTORY} → its path in the release tarball. */
  static final Map<String, String> FILES = Map.of(PROMETHEUS, "metrics/" + PROMETHEUS, STATSD, "metrics/" + STATSD);

  private static final Set<String> PROMETHEUS_FIELDS = Set.of("dimensions", "type", "help", "conversionFactor");
  private static final Set<String> PROMETHEUS_TYPES = Set.of("count", "gauge", "timer");
  private static final Set<String> STATSD_FIELDS = Set.of("dimensions", "type", "convertRange");
  private static final Set<String> STATSD_TYPES = Set.of("count", "gauge", "timer");

  @Test
  void everyMetricIsInBothMapsAndNothingElse() throws IOException
  {
    final Set<String> metrics = Arrays.stream(GetafixMetric.values())
                                      .map(GetafixMetric::metricName)
                                      .collect(Collectors.toCollection(TreeSet::new));
    for (String file : FILES.keySet()) {
      assertEquals(metrics, names(read(file)), file + ": metric names");
    }
  }

  @Test
  void bothMapsGiveEachMetricTheSameKnownDimensions() throws IOException
  {
    final Map<String, List<String>> prometheus = dimensions(read(PROMETHEUS));
    assertEquals(prometheus, dimensions(read(STATSD)), "dimensions per metric, prometheus vs statsd");
    final Map<String, List<String>> unknown = new TreeMap<>();
    prometheus.forEach((metric, dimensions) -> {
      final List<String> notOurs = new ArrayList<>(dimensions);
      notOurs.removeAll(MetricDimension.ALL);
      if (!notOurs.isEmpty() || dimensions.isEmpty()) {
        unknown.put(metric, notOurs);
      }
    });
    assertEquals(Map.of(), unknown, "metrics without dimensions, or with dimensions MetricDimension lacks");
  }

  @Test
  void eachEntryIsOneItsEmitterReads() throws IOException
  {
    final List<String> problems = new ArrayList<>();
    read(PROMETHEUS).fields().forEachRemaining(entry -> {
      final JsonNode metric = entry.getValue();
      problems.addAll(fieldProblems(PROMETHEUS, entry.getKey(), metric, PROMETHEUS_FIELDS, PROMETHEUS_TYPES));
      if (!metric.path("help").isTextual() || metric.path("help").asText().isBlank()) {
        problems.add(PROMETHEUS + " " + entry.getKey() + ": no help text, which Prometheus requires");
      }
      // A histogram observes value / conversionFactor; unset, that is a division by zero.
      if ("timer".equals(metric.path("type").asText()) && !(metric.path("conversionFactor").asDouble() > 0)) {
        problems.add(PROMETHEUS + " " + entry.getKey() + ": a timer needs a positive conversionFactor");
      }
    });
    read(STATSD).fields().forEachRemaining(entry -> {
      problems.addAll(fieldProblems(STATSD, entry.getKey(), entry.getValue(), STATSD_FIELDS, STATSD_TYPES));
      final JsonNode convertRange = entry.getValue().path("convertRange");
      if (!convertRange.isMissingNode() && !convertRange.isBoolean()) {
        problems.add(STATSD + " " + entry.getKey() + ": convertRange must be true or false");
      }
    });
    assertEquals(List.of(), problems);
  }

  private static List<String> fieldProblems(
      String file,
      String metric,
      JsonNode entry,
      Set<String> fields,
      Set<String> types
  )
  {
    final List<String> problems = new ArrayList<>();
    for (Iterator<String> names = entry.fieldNames(); names.hasNext(); ) {
      final String name = names.next();
      if (!fields.contains(name)) {
        problems.add(file + " " + metric + ": field " + name + " is not one of " + fields);
      }
    }
    if (!types.contains(entry.path("type").asText())) {
      problems.add(file + " " + metric + ": type " + entry.path("type") + " is not one of " + types);
    }
    if (!entry.path("dimensions").isArray()) {
      problems.add(file + " " + metric + ": dimensions must be a list");
    }
    return problems;
  }

  private static JsonNode read(String file) throws IOException
  {
    return new ObjectMapper().readTree(DIRECTORY.resolve(file).toFile());
  }

  private static Set<String> names(JsonNode map)
  {
    final Set<String> names = new TreeSet<>();
    map.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static Map<String, List<String>> dimensions(JsonNode map)
  {
    final Map<String, List<String>> dimensions = new TreeMap<>();
    map.fields().forEachRemaining(entry -> {
      final List<String> names = new ArrayList<>();
      entry.getValue().path("dimensions").forEach(dimension -> names.add(dimension.asText()));
      dimensions.put(entry.getKey(), names);
    });
    return dimensions;
  }
}
