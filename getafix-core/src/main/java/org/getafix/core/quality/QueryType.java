package org.getafix.core.quality;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The Druid query types whose answer quality can be measured, each with its similarity function. Plain aggregates
 * (a timeseries with granularity {@code all}, or a SQL aggregate without GROUP BY) are timeseries answers with one
 * row. Thread-safe.
 */
public enum QueryType
{
  /** 1 − mean bounded relative error over (bucket, metric) values; see {@link AnswerQualityMetrics#valueAccuracy}. */
  TIMESERIES("timeseries"),
  /** top-K overlap × value accuracy of the overlap; see {@link AnswerQualityMetrics#rowRecallAndValueAccuracy}. */
  TOPN("topN"),
  /** group true-positive rate × value accuracy; see {@link AnswerQualityMetrics#rowRecallAndValueAccuracy}. */
  GROUP_BY("groupBy"),
  /** row true-positive rate; see {@link AnswerQualityMetrics#rowRecall}. */
  SCAN("scan");

  private final String druidName;

  QueryType(String druidName)
  {
    this.druidName = druidName;
  }

  /** The name Druid gives this type in a native query's {@code queryType}. */
  public String druidName()
  {
    return druidName;
  }

  /** Compares the online answer with the mature answer of the same query. Never throws on any rows. */
  public AnswerQuality measure(List<AnswerRow> online, List<AnswerRow> mature)
  {
    switch (this) {
      case TIMESERIES:
        return AnswerQualityMetrics.valueAccuracy(online, mature);
      case TOPN:
      case GROUP_BY:
        return AnswerQualityMetrics.rowRecallAndValueAccuracy(online, mature);
      case SCAN:
        return AnswerQualityMetrics.rowRecall(online, mature);
      default:
        throw new AssertionError(this);
    }
  }

  /** The type Druid names {@code druidName}, or empty for a type without a metric (for the per-query path). */
  public static Optional<QueryType> find(String druidName)
  {
    return Arrays.stream(values()).filter(type -> type.druidName.equals(druidName)).findFirst();
  }

  /** @throws IllegalArgumentException naming the known types when {@code druidName} is not one of them */
  public static QueryType fromDruidName(String druidName)
  {
    return find(druidName).orElseThrow(
        () -> new IllegalArgumentException(
            "unknown query type [" + druidName + "]; known: "
            + Arrays.stream(values()).map(QueryType::druidName).toList()
        )
    );
  }
}
