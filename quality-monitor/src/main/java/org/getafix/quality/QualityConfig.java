package org.getafix.quality;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.contract.Knob;
import org.getafix.core.contract.QualityKnobs;
import org.getafix.core.quality.admission.AdmissionConfig;
import org.getafix.core.quality.control.BudgetControlConfig;
import org.getafix.core.quality.control.ResponseTimeEstimator;
import org.getafix.core.quality.split.PendingQueriesSplit;
import org.getafix.core.redundancy.HedgeSettings;
import org.getafix.core.redundancy.RedundancySettings;
import org.getafix.core.redundancy.ReplicatorSettings;
import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.core.redundancy.UpfrontRedundancy;
import org.getafix.core.redundancy.ZoolanderSettings;
import org.joda.time.Period;

import javax.annotation.Nullable;
import java.io.File;
import java.time.Duration;
import java.util.List;

/**
 * {@code druid.getafix.quality.*}: budgeted queries on the Broker. Field-annotated, as Druid's
 * {@code JsonConfigurator} requires. Each property's default, range and meaning is its {@link QualityKnobs} spec;
 * {@link GetafixQualityModule} validates the bound config once, before anything reads it.
 */
public class QualityConfig
{
  public static final String PREFIX = QualityKnobs.PREFIX;

  /** A larger budget a query asks for is rejected (HTTP 400). */
  @JsonProperty
  private long maxBudgetMs = QualityKnobs.MAX_BUDGET_MS.defaultValue();

  /** Each in-flight budgeted sub-query holds one reader thread until its answer is read or its deadline passes. */
  @JsonProperty
  private int readerThreads = QualityKnobs.READER_THREADS.defaultValue();

  @JsonProperty
  private double matureSampleRate = QualityKnobs.MATURE_SAMPLE_RATE.defaultValue();

  @JsonProperty
  private long matureTimeoutMs = QualityKnobs.MATURE_TIMEOUT_MS.defaultValue();

  /**
   * Mature runs in flight at most, replays among them; a sampled query beyond them runs without one (counted as
   * skipped) and is queued for a replay. Each holds at most one reader thread and HTTP connection per Historical it
   * queries, until its sub-answers are in. At most half of {@code druid.broker.http.numConnections} is used
   * ({@code MatureRuns#maxRuns}).
   */
  @JsonProperty
  private int maxMatureRuns = QualityKnobs.MAX_MATURE_RUNS.defaultValue();

  @JsonProperty
  private long memoMaxBytes = QualityKnobs.MEMO_MAX_BYTES.defaultValue();

  @JsonProperty
  private int memoMaxEntries = QualityKnobs.MEMO_MAX_ENTRIES.defaultValue();

  @JsonProperty
  private Period memoTtl = new Period(QualityKnobs.MEMO_TTL.defaultValue().toMillis());

  /** Sampled queries beyond {@link #maxMatureRuns}, queued to be replayed whole ({@link Replays}); 0 replays none. */
  @JsonProperty
  private int replayQueueSize = QualityKnobs.REPLAY_QUEUE_SIZE.defaultValue();

  @JsonProperty
  private Period replayExpiration = new Period(QualityKnobs.REPLAY_EXPIRATION.defaultValue().toMillis());

  @JsonProperty
  private int replayIdleQueries = QualityKnobs.REPLAY_IDLE_QUERIES.defaultValue();

  /** Where {@link QualityProfiles} keeps the learned profiles across restarts; empty: in memory only. */
  @JsonProperty
  private String profileFile = QualityKnobs.PROFILE_FILE.defaultValue();

  /**
   * Datasources whose queries get their budget from a {@link BudgetControl} controller (one per datasource) when they
   * do not ask for one with {@value QueryBudget#BUDGET_KEY}.
   */
  @JsonProperty
  private List<String> controlledDataSources = QualityKnobs.CONTROLLED_DATA_SOURCES.defaultValue();

  /**
   * Query lanes (the context key {@code lane}, as Druid's {@code manual} laning strategy reads it) whose queries get
   * their budget from a {@link BudgetControl} controller (one per lane); a lane's controller wins over its datasource's.
   */
  @JsonProperty
  private List<String> controlledLanes = QualityKnobs.CONTROLLED_LANES.defaultValue();

  /**
   * Datasources whose budgeted queries fail with a timeout rather than answer partially, unless a query sets
   * {@code getafixAllowPartial} true.
   */
  @JsonProperty
  private List<String> wholeAnswerDataSources = QualityKnobs.WHOLE_ANSWER_DATA_SOURCES.defaultValue();

  @JsonProperty
  private long targetResponseTimeMs = QualityKnobs.TARGET_RESPONSE_TIME_MS.defaultValue();

  @JsonProperty
  private BudgetControlConfig.Mode controlMode =
      BudgetControlConfig.Mode.valueOf(QualityKnobs.CONTROL_MODE.defaultValue());

  @JsonProperty
  private ResponseTimeEstimator.Kind responseTimeStatistic =
      ResponseTimeEstimator.Kind.valueOf(QualityKnobs.RESPONSE_TIME_STATISTIC.defaultValue());

  /** Lower bound of a controller-set budget; the upper bound is {@link #maxBudgetMs}. */
  @JsonProperty
  private long minBudgetMs = QualityKnobs.MIN_BUDGET_MS.defaultValue();

  @JsonProperty
  private BudgetSplitMode budgetSplit = BudgetSplitMode.valueOf(QualityKnobs.BUDGET_SPLIT.defaultValue());

  @JsonProperty
  private AdmissionMode admission = AdmissionMode.valueOf(QualityKnobs.ADMISSION.defaultValue());

  @JsonProperty
  private double admissionTarget = QualityKnobs.ADMISSION_TARGET.defaultValue();

  @JsonProperty
  private int lowPriorityBelow = QualityKnobs.LOW_PRIORITY_BELOW.defaultValue();

  @JsonProperty
  private long admissionWindowMs = QualityKnobs.ADMISSION_WINDOW_MS.defaultValue();

  @JsonProperty
  private int admissionGradientInitialLimit = QualityKnobs.ADMISSION_GRADIENT_INITIAL_LIMIT.defaultValue();

  @JsonProperty
  private int admissionGradientQueueSize = QualityKnobs.ADMISSION_GRADIENT_QUEUE_SIZE.defaultValue();

  @JsonProperty
  private double deadlineReserveMaxShare = QualityKnobs.DEADLINE_RESERVE_MAX_SHARE.defaultValue();

  @JsonProperty
  private boolean hedging = QualityKnobs.HEDGING.defaultValue();

  @JsonProperty
  private boolean failover = QualityKnobs.FAILOVER.defaultValue();

  @JsonProperty
  private double hedgeQuantile = QualityKnobs.HEDGE_QUANTILE.defaultValue();

  @JsonProperty
  private double hedgeRatio = QualityKnobs.HEDGE_RATIO.defaultValue();

  @JsonProperty
  private int maxSplit = QualityKnobs.MAX_SPLIT.defaultValue();

  @JsonProperty
  private SubQuerySplit.Trigger splitWhen = SubQuerySplit.Trigger.valueOf(QualityKnobs.SPLIT_WHEN.defaultValue());

  @JsonProperty
  private UpfrontRedundancy.Mode redundancy = UpfrontRedundancy.Mode.valueOf(QualityKnobs.REDUNDANCY.defaultValue());

  @JsonProperty
  private long redundancyBoundMs = QualityKnobs.REDUNDANCY_BOUND_MS.defaultValue();

  @JsonProperty
  private double redundancyTarget = QualityKnobs.REDUNDANCY_TARGET.defaultValue();

  @JsonProperty
  private int historicalSlots = QualityKnobs.HISTORICAL_SLOTS.defaultValue();

  /** How a controller's budget is split among the queries pending on it ({@link BudgetSplit}). */
  public enum BudgetSplitMode
  {
    /** Every query gets its controller's budget. */
    NONE,
    /** {@link PendingQueriesSplit.Method#EQ_RESV}: by the demands of the pending queries' classes. */
    EQ_RESV,
    /** {@link PendingQueriesSplit.Method#MAX_QUALITY}: by their classes' demands and learned quality profiles. */
    MAX_QUALITY
  }

  /** What steers the admission of low-priority queries. */
  public enum AdmissionMode
  {
    OFF,
    /** Measured answer quality of high-priority queries' mature runs (Ubora §8). */
    ANSWER_QUALITY,
    /**
     * The answer quality of every high-priority answer as it leaves the Broker: its coverage through its class's
     * quality profile, which the mature runs' measurements teach ({@link QualityProfiles}).
     */
    PREDICTED_QUALITY,
    /** The share of high-priority queries that did not time out (partial answer or failure): the baseline. */
    TIMEOUT_RATE,
    /** Netflix concurrency-limits' Gradient2 over the queries' round-trip times ({@link GradientAdmission}). */
    GRADIENT2
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

  public int getReplayQueueSize()
  {
    return replayQueueSize;
  }

  public Period getReplayExpiration()
  {
    return replayExpiration;
  }

  public int getReplayIdleQueries()
  {
    return replayIdleQueries;
  }

  /** The file the quality profiles are kept in, or null if they are kept in memory only. */
  @Nullable
  public File getProfileFile()
  {
    return profileFile.isEmpty() ? null : new File(profileFile);
  }

  public List<String> getControlledDataSources()
  {
    return controlledDataSources;
  }

  public List<String> getControlledLanes()
  {
    return controlledLanes;
  }

  public List<String> getWholeAnswerDataSources()
  {
    return wholeAnswerDataSources;
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

  public double getDeadlineReserveMaxShare()
  {
    return deadlineReserveMaxShare;
  }

  public boolean isHedging()
  {
    return hedging;
  }

  public boolean isFailover()
  {
    return failover;
  }

  public int getMaxSplit()
  {
    return maxSplit;
  }

  public SubQuerySplit.Trigger getSplitWhen()
  {
    return splitWhen;
  }

  public UpfrontRedundancy.Mode getRedundancy()
  {
    return redundancy;
  }

  /** The settings of the copies sent up front: the bound, target and slots set here, sPARE's and Zoolander's defaults. */
  public RedundancySettings redundancySettings()
  {
    return new RedundancySettings(
        redundancyBoundMs,
        redundancyTarget,
        historicalSlots,
        ReplicatorSettings.DEFAULTS,
        ZoolanderSettings.DEFAULTS
    );
  }

  /** The hedge policy's settings: the quantile and ratio set here, the rest {@link HedgeSettings#DEFAULTS}. */
  public HedgeSettings hedgeSettings()
  {
    final HedgeSettings defaults = HedgeSettings.DEFAULTS;
    return new HedgeSettings(
        hedgeQuantile,
        defaults.minDelayMillis(),
        defaults.unknownLatencyMillis(),
        defaults.minSamples(),
        hedgeRatio,
        defaults.maxTokens()
    );
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

  /**
   * The split of controller-set budgets among the queries pending on each controller, within the controllers' own
   * bounds; null if every query gets its controller's budget.
   */
  @Nullable
  public PendingQueriesSplit budgetSplit()
  {
    if (budgetSplit == null || budgetSplit == BudgetSplitMode.NONE) {
      return null;
    }
    final PendingQueriesSplit.Method method = budgetSplit == BudgetSplitMode.EQ_RESV
                                              ? PendingQueriesSplit.Method.EQ_RESV
                                              : PendingQueriesSplit.Method.MAX_QUALITY;
    return new PendingQueriesSplit(method, minBudgetMs, maxBudgetMs);
  }

  public int getAdmissionGradientInitialLimit()
  {
    return admissionGradientInitialLimit;
  }

  public int getAdmissionGradientQueueSize()
  {
    return admissionGradientQueueSize;
  }

  /** The PID admission controller's settings, or null if admission control is off or not a PID's (GRADIENT2). */
  @Nullable
  public AdmissionConfig admissionConfig()
  {
    if (admission == null || admission == AdmissionMode.OFF || admission == AdmissionMode.GRADIENT2) {
      return null;
    }
    final AdmissionConfig.Signal signal = admission == AdmissionMode.TIMEOUT_RATE
                                          ? AdmissionConfig.Signal.TIMEOUT_RATE
                                          : AdmissionConfig.Signal.ANSWER_QUALITY;
    final AdmissionConfig defaults = AdmissionConfig.defaults(signal);
    return new AdmissionConfig(signal, admissionTarget, admissionWindowMs, defaults.proportionalGain(),
                               defaults.integralGain(), defaults.derivativeGain(), defaults.minAdmitFraction());
  }

  /** Fails on the first bad property, naming it and its value; the Broker does not start with it. */
  public QualityConfig validate()
  {
    QualityKnobs.MAX_BUDGET_MS.check(maxBudgetMs);
    QualityKnobs.READER_THREADS.check(readerThreads);
    QualityKnobs.MATURE_SAMPLE_RATE.check(matureSampleRate);
    QualityKnobs.MATURE_TIMEOUT_MS.check(matureTimeoutMs);
    QualityKnobs.MAX_MATURE_RUNS.check(maxMatureRuns);
    QualityKnobs.MEMO_MAX_BYTES.check(memoMaxBytes);
    QualityKnobs.MEMO_MAX_ENTRIES.check(memoMaxEntries);
    QualityKnobs.MEMO_TTL.check(duration(QualityKnobs.MEMO_TTL, memoTtl));
    QualityKnobs.REPLAY_QUEUE_SIZE.check(replayQueueSize);
    QualityKnobs.REPLAY_EXPIRATION.check(duration(QualityKnobs.REPLAY_EXPIRATION, replayExpiration));
    QualityKnobs.REPLAY_IDLE_QUERIES.check(replayIdleQueries);
    QualityKnobs.PROFILE_FILE.check(profileFile);
    if (!profileFile.isEmpty() && new File(profileFile).isDirectory()) {
      throw new IllegalArgumentException(Knob.mustBe(QualityKnobs.PROFILE_FILE.name(), "a file, not a directory",
                                                     profileFile));
    }
    QualityKnobs.CONTROLLED_DATA_SOURCES.check(controlledDataSources);
    QualityKnobs.CONTROLLED_LANES.check(controlledLanes);
    QualityKnobs.WHOLE_ANSWER_DATA_SOURCES.check(wholeAnswerDataSources);
    QualityKnobs.TARGET_RESPONSE_TIME_MS.check(targetResponseTimeMs);
    QualityKnobs.MIN_BUDGET_MS.check(minBudgetMs);
    final String budgetBounds = QualityKnobs.budgetBoundsProblem(minBudgetMs, maxBudgetMs);
    if (budgetBounds != null) {
      throw new IllegalArgumentException(budgetBounds);
    }
    QualityKnobs.CONTROL_MODE.check(nameOf(controlMode));
    QualityKnobs.RESPONSE_TIME_STATISTIC.check(nameOf(responseTimeStatistic));
    QualityKnobs.BUDGET_SPLIT.check(nameOf(budgetSplit));
    QualityKnobs.ADMISSION.check(nameOf(admission));
    QualityKnobs.ADMISSION_TARGET.check(admissionTarget);
    QualityKnobs.ADMISSION_WINDOW_MS.check(admissionWindowMs);
    QualityKnobs.ADMISSION_GRADIENT_INITIAL_LIMIT.check(admissionGradientInitialLimit);
    QualityKnobs.ADMISSION_GRADIENT_QUEUE_SIZE.check(admissionGradientQueueSize);
    QualityKnobs.DEADLINE_RESERVE_MAX_SHARE.check(deadlineReserveMaxShare);
    QualityKnobs.HEDGE_QUANTILE.check(hedgeQuantile);
    QualityKnobs.HEDGE_RATIO.check(hedgeRatio);
    QualityKnobs.MAX_SPLIT.check(maxSplit);
    QualityKnobs.SPLIT_WHEN.check(nameOf(splitWhen));
    QualityKnobs.REDUNDANCY.check(nameOf(redundancy));
    QualityKnobs.REDUNDANCY_BOUND_MS.check(redundancyBoundMs);
    QualityKnobs.REDUNDANCY_TARGET.check(redundancyTarget);
    QualityKnobs.HISTORICAL_SLOTS.check(historicalSlots);
    return this;
  }

  /** {@code period} as the knob's duration; one of months or years, which have no fixed length, is refused. */
  @Nullable
  private static Duration duration(Knob<Duration> knob, @Nullable Period period)
  {
    if (period == null) {
      return null;
    }
    try {
      return Duration.ofMillis(period.toStandardDuration().getMillis());
    }
    catch (UnsupportedOperationException e) {
      throw new IllegalArgumentException(Knob.mustBe(knob.name(), "a fixed-length period", period), e);
    }
  }

  @Nullable
  private static String nameOf(@Nullable Enum<?> value)
  {
    return value == null ? null : value.name();
  }
}
