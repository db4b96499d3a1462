package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.quality.AnswerRow;
import org.getafix.core.quality.QueryType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer quality of a plain aggregate (a timeseries with granularity {@code all}, as Druid's Broker returns it in
 * JSON) against the whole answer of the same query, by the project's measure for timeseries
 * ({@link QueryType#TIMESERIES}: 1 − the mean bounded relative error over the metrics; no row at all is error 1 for
 * each). The one bucket is the query itself, not its timestamp: Druid takes that from the earliest data it read, and a
 * partial answer that lost the earliest segments carries a later one (the quality monitor's {@code AnswerRows} reads
 * mature runs the same way).
 */
public final class PlainAggregateQuality
{
  private static final String BUCKET = "__time";

  private PlainAggregateQuality()
  {
  }

  /** The quality of {@code online} against {@code whole}, both JSON answers of the same plain aggregate; in [0, 1]. */
  public static double of(JsonNode online, JsonNode whole)
  {
    return QueryType.TIMESERIES.measure(rows(online), rows(whole)).quality();
  }

  /**
   * Each result's values as an {@link AnswerRow} of the one bucket; a value that is not a number (Druid's null for an
   * aggregate over no rows) as NaN, which matches only a NaN. A body that is not an array of results has no rows.
   */
  static List<AnswerRow> rows(JsonNode body)
  {
    final List<AnswerRow> rows = new ArrayList<>();
    if (body == null || !body.isArray()) {
      return rows;
    }
    for (JsonNode result : body) {
      final Map<String, Double> metrics = new HashMap<>();
      result.path("result").fields().forEachRemaining(
          field -> metrics.put(field.getKey(), field.getValue().isNumber() ? field.getValue().asDouble() : Double.NaN)
      );
      rows.add(AnswerRow.of(Map.of(BUCKET, 0L), metrics));
    }
    return rows;
  }
}
