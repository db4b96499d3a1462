package org.getafix.core.quality;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a query answer, in a Druid-free form the quality metrics compare: the values that identify the row
 * (dimension values, and the bucket timestamp under the name the glue chooses, e.g. {@code "__time"}) and its
 * numeric metric values. The glue converts Druid results to rows:
 * <ul>
 *   <li>timeseries: one row per time bucket, dimensions {@code {__time: t}};</li>
 *   <li>topN: one row per entry of each bucket's ranked list, dimensions {@code {__time: t, dim: value}};</li>
 *   <li>groupBy: one row per group, dimensions = the grouping key;</li>
 *   <li>scan: one row per scanned row, every column in {@code dimensions} (metrics empty).</li>
 * </ul>
 * Only finalized numeric values belong in {@code metrics}; anything else (strings, sketches that were not
 * finalized) belongs in {@code dimensions}, where it is compared by equality. Dimension values may be null (Druid's
 * null/empty string); a null metric value reads as NaN. Rows are immutable: the maps are copied.
 */
public record AnswerRow(Map<String, Object> dimensions, Map<String, Double> metrics)
{
  public AnswerRow
  {
    // LinkedHashMap rather than Map.copyOf: Druid dimension values can be null.
    dimensions = dimensions == null || dimensions.isEmpty()
                 ? Map.of()
                 : Collections.unmodifiableMap(new LinkedHashMap<>(dimensions));
    metrics = metrics == null || metrics.isEmpty()
              ? Map.of()
              : Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
  }

  public static AnswerRow of(Map<String, Object> dimensions, Map<String, Double> metrics)
  {
    return new AnswerRow(dimensions, metrics);
  }

  /** The value of metric {@code name}, NaN when the row has no such metric or its value is null. */
  public double metric(String name)
  {
    final Double value = metrics.get(name);
    return value == null ? Double.NaN : value;
  }
}
