package org.getafix.quality;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.quality.admission.AdmissionConfig;
import org.getafix.core.quality.control.BudgetControlConfig;
import org.getafix.core.quality.control.ResponseTimeEstimator;
import org.getafix.core.quality.sampling.MatureSampler;
import org.joda.time.Period;

import javax.annotation.Nullable;
import java.util.List;

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
   * most one reader thread and HTTP connection per Historical it queries, until its sub-answers are in. At most half of
   * {@code druid.broker.http.numConnections} is used ({@code MatureRuns#maxRuns}).
   */
  @JsonProperty
  private int maxMatureRuns = 8;

  @JsonProperty
  private long memoMaxBytes = 64L * 1024 * 1024;

  @JsonProperty
  private int memoMaxEntries = 10_000;

  @JsonProperty
  private Period memoTtl = Period.minutes(5);

  /**
   * Datasources whose queries get their budget from a {@link BudgetControl} controller (one per datasource) when they
   * do not ask for one with {@value QueryBudget#BUDGET_KEY}.
   */
  @JsonProperty
  private List<String> controlledDataSources = List.of();

  /**
   * Query lanes (the context key {@code lane}, as Druid's {@code manual} laning strategy reads it) whose queries get
   * their budget from a {@link BudgetControl} controller (one per lane); a lane's controller wins over its datasource's.
   */
  @JsonProperty
  private List<String> controlledLanes = List.of();

  /** The response-time target of the budget controllers. */
  @JsonProperty
  private long targetResponseTimeMs = 1000;

  @JsonProperty
  private BudgetControlConfig.Mode controlMode = BudgetControlConfig.Mode.HYBRID;

  @JsonProperty
  private ResponseTimeEstimator.Kind responseTimeStatistic = ResponseTimeEstimator.Kind.MEAN;

  /** Lower bound of a controller-set budget; the upper bound is {@link #maxBudgetMs}. */
  @JsonProperty
  private long minBudgetMs = 10;

  /** Admission control of low-priority queries: off unless set. */
  @JsonProperty
  private AdmissionMode admission = AdmissionMode.OFF;

  @JsonProperty
  private double admissionTarget = AdmissionConfig.DEFAULT_TARGET;

  /** A query whose context {@code priority} is below this is low-priority (sheddable), as in Druid's hilo laning. */
  @JsonProperty
  private int lowPriorityBelow = 0;

  @JsonProperty
  private int admissionEvaluationPeriod = AdmissionConfig.DEFAULT_EVALUATION_PERIOD;

  @JsonProperty
  private int admissionWindow = AdmissionConfig.DEFAULT_WINDOW;

  /** What steers the admission of low-priority queries. */
  public enum AdmissionMode
  {
    OFF,
    /** Measured answer quality of high-priority queries' mature runs (Ubora §8). */
    ANSWER_QUALITY,
    /** The share of high-priority queries that did not time out (partial answer or failure): the baseline. */
    TIMEOUT_RATE
  }

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

  public List<String> getControlledDataSources()
  {
    return controlledDataSources;
  }

  public List<String> getControlledLanes()
  {
    return controlledLanes;
  }

  public long getTargetResponseTimeMs()
  {
    return targetResponseTimeMs;
  }

  public AdmissionMode getAdmission()
  {
    return admission;
  }

  public int getLowPriorityBelow()
  {
    return lowPriorityBelow;
  }

  /** The budget controllers' settings (budgets in milliseconds, starting at the target), or null if none is set up. */
  @Nullable
  public BudgetControlConfig budgetControlConfig()
  {
    if (controlledDataSources.isEmpty() && controlledLanes.isEmpty()) {
      return null;
    }
    return BudgetControlConfig.of(
        controlMode,
        responseTimeStatistic,
        targetResponseTimeMs,
        minBudgetMs,
        maxBudgetMs,
        Math.max(minBudgetMs, Math.min(maxBudgetMs, targetResponseTimeMs))
    ).withResponseCeiling(BudgetControlConfig.DEADLINE_RESPONSE_CEILING);
  }

  /** The admission controller's settings, or null if admission control is off. */
  @Nullable
  public AdmissionConfig admissionConfig()
  {
    if (admission == null || admission == AdmissionMode.OFF) {
      return null;
    }
    final AdmissionConfig.Signal signal = admission == AdmissionMode.ANSWER_QUALITY
                                          ? AdmissionConfig.Signal.ANSWER_QUALITY
                                          : AdmissionConfig.Signal.TIMEOUT_RATE;
    final AdmissionConfig defaults = AdmissionConfig.defaults(signal);
    return new AdmissionConfig(signal, admissionTarget, admissionEvaluationPeriod, admissionWindow,
                               defaults.proportionalGain(), defaults.integralGain(), defaults.derivativeGain(),
                               defaults.minAdmitFraction());
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
    if (controlledDataSources == null || controlledDataSources.stream().anyMatch(d -> d == null || d.isEmpty())) {
      throw new IllegalArgumentException(
          PREFIX + ".controlledDataSources must be a list of datasource names, got [" + controlledDataSources + "]"
      );
    }
    if (controlledLanes == null || controlledLanes.stream().anyMatch(l -> l == null || l.isEmpty())) {
      throw new IllegalArgumentException(
          PREFIX + ".controlledLanes must be a list of lane names, got [" + controlledLanes + "]"
      );
    }
    positive("targetResponseTimeMs", targetResponseTimeMs);
    positive("minBudgetMs", minBudgetMs);
    if (minBudgetMs > maxBudgetMs) {
      throw new IllegalArgumentException(
          PREFIX + ".minBudgetMs [" + minBudgetMs + "] must be at most maxBudgetMs [" + maxBudgetMs + "]"
      );
    }
    if (controlMode == null || responseTimeStatistic == null || admission == null) {
      throw new IllegalArgumentException(
          PREFIX + ".controlMode, .responseTimeStatistic and .admission must not be null"
      );
    }
    if (!(admissionTarget > 0 && admissionTarget <= 1)) {
      throw new IllegalArgumentException(PREFIX + ".admissionTarget must be in (0, 1], got [" + admissionTarget + "]");
    }
    positive("admissionEvaluationPeriod", admissionEvaluationPeriod);
    positive("admissionWindow", admissionWindow);
    return this;
  }

  private static void positive(String name, long value)
  {
    if (value <= 0) {
      throw new IllegalArgumentException(PREFIX + "." + name + " must be positive, got [" + value + "]");
    }
  }
}
