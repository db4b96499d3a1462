package org.getafix.quality;

import org.apache.druid.data.input.MapBasedRow;
import org.apache.druid.java.util.common.granularity.Granularities;
import org.apache.druid.query.Query;
import org.apache.druid.query.Result;
import org.apache.druid.query.dimension.DimensionSpec;
import org.apache.druid.query.groupby.GroupByQuery;
import org.apache.druid.query.groupby.ResultRow;
import org.apache.druid.query.scan.ScanResultValue;
import org.apache.druid.query.timeseries.TimeseriesResultValue;
import org.apache.druid.query.topn.DimensionAndMetricValueExtractor;
import org.apache.druid.query.topn.TopNQuery;
import org.apache.druid.query.topn.TopNResultValue;
import org.getafix.core.quality.AnswerRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Druid's finalized results of a timeseries, topN, groupBy or scan query as the Druid-free {@link AnswerRow}s that the
 * quality metrics compare (see {@link AnswerRow} for the shapes). A row's identity is its bucket ({@value #TIME}) and
 * its dimension values; its numeric non-dimension values are its metrics. With granularity {@code all} there is one
 * bucket, whose timestamp Druid takes from the earliest data it read: a partial answer that lost the earliest segments
 * carries a later one, so the bucket's identity there is the query itself, not that timestamp.
 */
final class AnswerRows
{
  static final String TIME = "__time";

  private AnswerRows()
  {
  }

  /** The rows of {@code results}, answers of {@code query}; empty for a query type without a quality metric. */
  static List<AnswerRow> of(Query<?> query, List<?> results)
  {
    final boolean oneBucket = Granularities.ALL.equals(query.getGranularity());
    final List<AnswerRow> rows = new ArrayList<>();
    for (Object result : results) {
      if (result instanceof Result && ((Result<?>) result).getValue() instanceof TimeseriesResultValue) {
        final Result<?> r = (Result<?>) result;
        rows.add(row(bucket(oneBucket, r.getTimestamp().getMillis()), Set.of(), ((TimeseriesResultValue) r.getValue()).getBaseObject()));
      } else if (result instanceof Result && ((Result<?>) result).getValue() instanceof TopNResultValue) {
        final Result<?> r = (Result<?>) result;
        final Set<String> dimension = Set.of(((TopNQuery) query).getDimensionSpec().getOutputName());
        for (DimensionAndMetricValueExtractor entry : ((TopNResultValue) r.getValue()).getValue()) {
          rows.add(row(bucket(oneBucket, r.getTimestamp().getMillis()), dimension, entry.getBaseObject()));
        }
      } else if (result instanceof ResultRow && query instanceof GroupByQuery) {
        final GroupByQuery groupBy = (GroupByQuery) query;
        final MapBasedRow row = ((ResultRow) result).toMapBasedRow(groupBy);
        final Set<String> dimensions =
            groupBy.getDimensions().stream().map(DimensionSpec::getOutputName).collect(Collectors.toSet());
        rows.add(row(bucket(oneBucket, row.getTimestampFromEpoch()), dimensions, row.getEvent()));
      } else if (result instanceof ScanResultValue) {
        scanRows((ScanResultValue) result, rows);
      }
    }
    return rows;
  }

  /** The bucket a result row's timestamp stands for: itself, or the single bucket of granularity {@code all}. */
  private static long bucket(boolean oneBucket, long timestamp)
  {
    return oneBucket ? 0 : timestamp;
  }

  private static AnswerRow row(long time, Set<String> dimensionNames, Map<String, Object> values)
  {
    final Map<String, Object> dimensions = new LinkedHashMap<>();
    final Map<String, Double> metrics = new HashMap<>();
    dimensions.put(TIME, time);
    values.forEach((name, value) -> {
      if (!dimensionNames.contains(name) && value instanceof Number) {
        metrics.put(name, ((Number) value).doubleValue());
      } else {
        dimensions.put(name, value);
      }
    });
    return AnswerRow.of(dimensions, metrics);
  }

  /** Every scanned row, every column a dimension: scan answers are compared by which rows they hold. */
  private static void scanRows(ScanResultValue batch, List<AnswerRow> rows)
  {
    if (!(batch.getEvents() instanceof List)) {
      return;
    }
    for (Object event : (List<?>) batch.getEvents()) {
      if (event instanceof Map) {
        final Map<String, Object> columns = new LinkedHashMap<>();
        ((Map<?, ?>) event).forEach((k, v) -> columns.put(String.valueOf(k), v));
        rows.add(AnswerRow.of(columns, Map.of()));
      } else if (event instanceof List) {
        final List<?> values = (List<?>) event;
        final Map<String, Object> columns = new LinkedHashMap<>();
        for (int i = 0; i < values.size() && i < batch.getColumns().size(); i++) {
          columns.put(batch.getColumns().get(i), values.get(i));
        }
        rows.add(AnswerRow.of(columns, Map.of()));
      }
    }
  }
}
