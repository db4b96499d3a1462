package org.getafix.core.wire;

import org.getafix.core.quality.AnswerQuality;

/**
 * One sampled budgeted query whose mature run ended, as the Broker's quality endpoint lists it under {@code recent}
 * ({@code GET /druid/broker/v1/getafix/quality}).
 *
 * @param queryId      the query's id
 * @param queryType    Druid's query type ({@code timeseries}, {@code topN}, ...)
 * @param dataSource   the datasource names it read, comma-separated
 * @param coverage     the online answer's coverage
 * @param quality      the online answer measured against the mature one; null when its query type has no quality
 *                     metric
 * @param matureMillis from the query's start to its mature answer's measurement
 * @param replayed     whether the mature answer came from a replay: the query re-executed whole after its online
 *                     answer, having got no mature run at its start (absent in older reports: false)
 */
public record MatureRunReport(
    String queryId,
    String queryType,
    String dataSource,
    Coverage coverage,
    AnswerQuality quality,
    long matureMillis,
    boolean replayed
)
{
  /** The measured quality, NaN when none was measured. */
  public double measuredQuality()
  {
    return quality == null ? Double.NaN : quality.quality();
  }
}
