package org.getafix.quality;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code druid.getafix.quality.*}: budgeted queries on the Broker. Field-annotated, as Druid's
 * {@code JsonConfigurator} requires.
 */
public class QualityConfig
{
  public static final String PREFIX = "druid.getafix.quality";

  /** The largest budget a query may ask for; a larger one is rejected (HTTP 400). */
  @JsonProperty
  private long maxBudgetMs = 300_000;

  /**
   * Threads that read the Historicals' answers to budgeted sub-queries as they arrive; each in-flight budgeted
   * sub-query holds one until its answer is read or its deadline passes.
   */
  @JsonProperty
  private int readerThreads = 32;

  public static QualityConfig defaults()
  {
    return new QualityConfig();
  }

  public long getMaxBudgetMs()
  {
    return maxBudgetMs;
  }

  public int getReaderThreads()
  {
    return readerThreads;
  }
}
