package org.getafix.localcluster.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A native Druid query as the JSON tree the Broker takes: a query type over a datasource and intervals, plus the fields
 * that were set. Fields never set are left out of {@link #toMap()}, so Druid applies its own defaults to them.
 */
public final class NativeQuery
{
  private final Map<String, Object> fields = new LinkedHashMap<>();
  private final List<Map<String, Object>> aggregations = new ArrayList<>();
  private final Map<String, Object> context = new LinkedHashMap<>();

  private NativeQuery(String queryType, String dataSource, List<String> intervals)
  {
    fields.put("queryType", queryType);
    fields.put("dataSource", dataSource);
    fields.put("intervals", intervals);
  }

  public static NativeQuery timeseries(String dataSource, List<String> intervals)
  {
    return new NativeQuery("timeseries", dataSource, intervals);
  }

  public static NativeQuery topN(String dataSource, List<String> intervals)
  {
    return new NativeQuery("topN", dataSource, intervals);
  }

  public static NativeQuery groupBy(String dataSource, List<String> intervals)
  {
    return new NativeQuery("groupBy", dataSource, intervals);
  }

  public static NativeQuery scan(String dataSource, List<String> intervals)
  {
    return new NativeQuery("scan", dataSource, intervals);
  }

  public NativeQuery granularity(String granularity)
  {
    return set("granularity", granularity);
  }

  public NativeQuery count(String name)
  {
    return aggregation(Map.of("type", "count", "name", name));
  }

  public NativeQuery longSum(String name, String fieldName)
  {
    return aggregation(Map.of("type", "longSum", "name", name, "fieldName", fieldName));
  }

  public NativeQuery doubleSum(String name, String fieldName)
  {
    return aggregation(Map.of("type", "doubleSum", "name", name, "fieldName", fieldName));
  }

  /** The mean of {@code fieldName} over the rows read (Druid's {@code doubleMean}), finalized to a number. */
  public NativeQuery doubleMean(String name, String fieldName)
  {
    return aggregation(Map.of("type", "doubleMean", "name", name, "fieldName", fieldName));
  }

  /** A cardinality aggregator; by row, it hashes each row's values of {@code fields} together. */
  public NativeQuery cardinality(String name, List<String> fields, boolean byRow)
  {
    return aggregation(Map.of("type", "cardinality", "name", name, "fields", fields, "byRow", byRow));
  }

  /** The topN's dimension. */
  public NativeQuery dimension(String dimension)
  {
    return set("dimension", dimension);
  }

  /** The groupBy's dimensions. */
  public NativeQuery dimensions(String... dimensions)
  {
    return set("dimensions", List.of(dimensions));
  }

  /** The topN's ranking metric. */
  public NativeQuery metric(String metric)
  {
    return set("metric", metric);
  }

  public NativeQuery threshold(int threshold)
  {
    return set("threshold", threshold);
  }

  /** Keeps the rows whose {@code dimension} equals {@code value}. */
  public NativeQuery selectorFilter(String dimension, String value)
  {
    return set("filter", Map.of("type", "selector", "dimension", dimension, "value", value));
  }

  /** Keeps the rows for which the Druid expression is true. */
  public NativeQuery expressionFilter(String expression)
  {
    return set("filter", Map.of("type", "expression", "expression", expression));
  }

  /** The groupBy's first {@code limit} rows by {@code column}, descending in numeric order. */
  public NativeQuery limitDescendingNumeric(int limit, String column)
  {
    return set("limitSpec", Map.of(
        "type", "default",
        "limit", limit,
        "columns", List.of(Map.of("dimension", column, "direction", "descending", "dimensionOrder", "numeric"))
    ));
  }

  /** The scan's columns. */
  public NativeQuery columns(String... columns)
  {
    return set("columns", List.of(columns));
  }

  public NativeQuery resultFormat(String resultFormat)
  {
    return set("resultFormat", resultFormat);
  }

  public NativeQuery context(String key, Object value)
  {
    context.put(key, value);
    return this;
  }

  /** The JSON tree, a fresh mutable map each call: callers may add or replace fields before they send it. */
  public Map<String, Object> toMap()
  {
    final Map<String, Object> map = new LinkedHashMap<>(fields);
    if (!aggregations.isEmpty()) {
      map.put("aggregations", List.copyOf(aggregations));
    }
    if (!context.isEmpty()) {
      map.put("context", new LinkedHashMap<>(context));
    }
    return map;
  }

  /** {@code query} with {@code context} as its whole context, as a fresh mutable map; {@code query} is left as it is. */
  public static Map<String, Object> withContext(Map<String, Object> query, Map<String, Object> context)
  {
    final Map<String, Object> withContext = new LinkedHashMap<>(query);
    withContext.put("context", context);
    return withContext;
  }

  private NativeQuery aggregation(Map<String, Object> aggregation)
  {
    aggregations.add(aggregation);
    return this;
  }

  private NativeQuery set(String field, Object value)
  {
    fields.put(field, value);
    return this;
  }
}
