package org.getafix.quality;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.quality.sampling.MatureSampler;
import org.joda.time.Period;

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

  /** Share of budgeted queries whose late sub-queries keep running to form a mature answer, in [0, 1]. */
  @JsonProperty
  private double matureSampleRate = MatureSampler.DEFAULT_RATE;

  /** Timeout of a mature run's sub-queries, from the query's start. */
  @JsonProperty
  private long matureTimeoutMs = 60_000;

  /**
   * Mature runs in flight at most; a sampled query beyond them runs without one (counted as skipped). Each holds at
   * most one reader thread and HTTP connection per Historical it queries, until its sub-answers are in.
   */
  @JsonProperty
  private int maxMatureRuns = 16;

  @JsonProperty
  private long memoMaxBytes = 64L * 1024 * 1024;

  @JsonProperty
  private int memoMaxEntries = 10_000;

  @JsonProperty
  private Period memoTtl = Period.minutes(5);

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

  public double getMatureSampleRate()
  {
    return matureSampleRate;
  }

  public long getMatureTimeoutMs()
  {
    return matureTimeoutMs;
  }

  public int getMaxMatureRuns()
  {
    return maxMatureRuns;
  }

  public long getMemoMaxBytes()
  {
    return memoMaxBytes;
  }

  public int getMemoMaxEntries()
  {
    return memoMaxEntries;
  }

  public Period getMemoTtl()
  {
    return memoTtl;
  }

  /** Fails on the first bad property, naming it and its value; the Broker does not start with it. */
  public QualityConfig validate()
  {
    positive("maxBudgetMs", maxBudgetMs);
    positive("readerThreads", readerThreads);
    if (!(matureSampleRate >= 0 && matureSampleRate <= 1)) {
      throw new IllegalArgumentException(PREFIX + ".matureSampleRate must be in [0, 1], got [" + matureSampleRate + "]");
    }
    positive("matureTimeoutMs", matureTimeoutMs);
    positive("maxMatureRuns", maxMatureRuns);
    positive("memoMaxBytes", memoMaxBytes);
    positive("memoMaxEntries", memoMaxEntries);
    if (memoTtl == null || memoTtl.toStandardDuration().getMillis() <= 0) {
      throw new IllegalArgumentException(PREFIX + ".memoTtl must be a positive fixed-length period, got [" + memoTtl + "]");
    }
    return this;
  }

  private static void positive(String name, long value)
  {
    if (value <= 0) {
      throw new IllegalArgumentException(PREFIX + "." + name + " must be positive, got [" + value + "]");
    }
  }
}
