package org.getafix.core.contract;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The Broker's {@code druid.getafix.quality.*} runtime properties (quality-monitor's {@code QualityConfig}), named by
 * their keys. getafix-core's budget controller, admission controller and mature sampler check their arguments
 * against the same ranges, under their own parameter names. The enum-valued knobs hold the constant's name (their
 * enums live in getafix-core's quality packages, which read this one, or in {@code QualityConfig}).
 */
public final class QualityKnobs
{
  public static final String PREFIX = "druid.getafix.quality";

  public static final Knob<Long> MAX_BUDGET_MS = Knob.longInteger(
      PREFIX + ".maxBudgetMs",
      300_000,
      Interval.above(0),
      "the largest budget a query may ask for, and the upper bound of a controller-set budget"
  );

  public static final Knob<Integer> READER_THREADS = Knob.integer(
      PREFIX + ".readerThreads",
      32,
      Interval.above(0),
      "threads that read the Historicals' answers to budgeted sub-queries as they arrive"
  );

  /** Off by default: a hedge is extra load on another Historical, worth it only where segments have replicas. */
  public static final Knob<Boolean> HEDGING = Knob.flag(
      PREFIX + ".hedging",
      false,
      "whether a sub-query still unanswered at its Historical's latency quantile is re-sent to another holder"
  );

  /**
   * On by default: it acts only when a Historical cannot be reached, where stock Druid fails the query until its
   * server view drops the node.
   */
  public static final Knob<Boolean> FAILOVER = Knob.flag(
      PREFIX + ".failover",
      true,
      "whether a sub-query whose Historical cannot be reached is re-sent at once to other holders of its segments"
  );

  public static final Knob<Double> MATURE_SAMPLE_RATE = Knob.number(
      PREFIX + ".matureSampleRate",
      0.1,
      Interval.closed(0, 1),
      "share of budgeted queries whose late sub-queries keep running to form a mature answer (Ubora: 10%)"
  );

  public static final Knob<Long> MATURE_TIMEOUT_MS = Knob.longInteger(
      PREFIX + ".matureTimeoutMs",
      60_000,
      Interval.above(0),
      "timeout of a mature run's sub-queries, from the query's start"
  );

  public static final Knob<Integer> MAX_MATURE_RUNS = Knob.integer(
      PREFIX + ".maxMatureRuns",
      8,
      Interval.above(0),
      "mature runs in flight at most, replays among them; a sampled query beyond them runs without one, and is "
      + "queued for a replay"
  );

  public static final Knob<Long> MEMO_MAX_BYTES = Knob.longInteger(
      PREFIX + ".memoMaxBytes",
      64L * 1024 * 1024,
      Interval.above(0),
      "weighed size the memo of sub-answers keeps at most"
  );

  public static final Knob<Integer> MEMO_MAX_ENTRIES = Knob.integer(
      PREFIX + ".memoMaxEntries",
      10_000,
      Interval.above(0),
      "sub-answers the memo keeps at most"
  );

  /** A fixed-length period in the runtime properties (ISO-8601, no months or years). */
  public static final Knob<Duration> MEMO_TTL = Knob.positiveDuration(
      PREFIX + ".memoTtl",
      Duration.ofMinutes(5),
      "how long a memoised sub-answer waits for its mature run"
  );

  /**
   * Each entry holds its query's online answer until it is replayed or dropped, so this bounds the memory they take
   * with the answers' size. Off by default: a replay re-executes a whole query on the Historicals, and what that does
   * to their load, and to budget control and admission (a queue about to expire replays under load), is unmeasured.
   */
  public static final Knob<Integer> REPLAY_QUEUE_SIZE = Knob.integer(
      PREFIX + ".replayQueueSize",
      0,
      Interval.closed(0, 10_000),
      "sampled queries beyond maxMatureRuns queued with their online answers, to be re-executed whole when the Broker "
      + "is idle and measured against that; 0 (the default) replays none"
  );

  /**
   * At most half an hour: the sampled-quality estimate remembers a sampling moment for an hour, and a replay measured
   * after that weighs as if nothing had been skipped then.
   */
  public static final Knob<Duration> REPLAY_EXPIRATION = Knob.durationBetween(
      PREFIX + ".replayExpiration",
      Duration.ofMinutes(1),
      Duration.ofSeconds(1),
      Duration.ofMinutes(30),
      "how long after its online answer a queued replay may still start (the data may have changed since); older "
      + "ones are dropped"
  );

  public static final Knob<Integer> REPLAY_IDLE_QUERIES = Knob.integer(
      PREFIX + ".replayIdleQueries",
      0,
      Interval.closed(0, 10_000),
      "queries and mature runs in flight on the Broker at most for it to count as idle for a replay (Ubora: 0)"
  );

  /**
   * Empty (the default): the profiles are learned anew at each start. Only the path's syntax is checked here; that it
   * names no directory is checked on the Broker, whose file system it is.
   */
  public static final Knob<String> PROFILE_FILE = Knob.of(
      PREFIX + ".profileFile",
      "",
      "a file path, or empty",
      QualityKnobs::pathOrEmpty,
      "the file the quality profiles learned from mature runs are kept in across Broker restarts; empty keeps them "
      + "in memory only"
  );

  public static final Knob<List<String>> CONTROLLED_DATA_SOURCES = Knob.of(
      PREFIX + ".controlledDataSources",
      List.of(),
      "a list of datasource names",
      QualityKnobs::names,
      "datasources whose queries get their budget from a controller when they do not ask for one"
  );

  public static final Knob<List<String>> CONTROLLED_LANES = Knob.of(
      PREFIX + ".controlledLanes",
      List.of(),
      "a list of lane names",
      QualityKnobs::names,
      "query lanes whose queries get their budget from a controller; a lane's wins over its datasource's"
  );

  public static final Knob<List<String>> WHOLE_ANSWER_DATA_SOURCES = Knob.of(
      PREFIX + ".wholeAnswerDataSources",
      List.of(),
      "a list of datasource names",
      QualityKnobs::names,
      "datasources whose budgeted queries fail (HTTP 504) rather than answer partially, unless a query allows it"
  );

  public static final Knob<Long> TARGET_RESPONSE_TIME_MS = Knob.longInteger(
      PREFIX + ".targetResponseTimeMs",
      1000,
      Interval.above(0),
      "the response-time target of the budget controllers"
  );

  /** Below 1: a reserve of the whole budget would never wait for a Historical. */
  public static final Knob<Double> DEADLINE_RESERVE_MAX_SHARE = Knob.number(
      PREFIX + ".deadlineReserveMaxShare",
      0.25,
      Interval.closedOpen(0, 1),
      "largest share of a budget a query keeps in reserve to merge and send its answer after it stops waiting for "
      + "Historicals; 0 keeps none"
  );

  /** Higher hedges fewer sub-queries, and later: at 0.95, about one in twenty of a steady Historical's. */
  public static final Knob<Double> HEDGE_QUANTILE = Knob.number(
      PREFIX + ".hedgeQuantile",
      0.95,
      Interval.open(0, 1),
      "quantile of a Historical's recent sub-query latencies after which its sub-query is hedged"
  );

  /** The name of a {@code BudgetControlConfig.Mode}. */
  public static final Knob<String> CONTROL_MODE = Knob.of(
      PREFIX + ".controlMode",
      "HYBRID",
      "set",
      Objects::nonNull,
      "which control laws of the budget paper run: INTEGRAL, ADAPTIVE or HYBRID"
  );

  /** The name of a {@code ResponseTimeEstimator.Kind}. */
  public static final Knob<String> RESPONSE_TIME_STATISTIC = Knob.of(
      PREFIX + ".responseTimeStatistic",
      "MEAN",
      "set",
      Objects::nonNull,
      "which response-time statistic the budget controllers hold at the target: MEAN or P90"
  );

  /** Its range is also relative to {@link #MAX_BUDGET_MS}: see {@link #budgetBoundsProblem}. */
  public static final Knob<Long> MIN_BUDGET_MS = Knob.longInteger(
      PREFIX + ".minBudgetMs",
      10,
      Interval.above(0),
      "lower bound of a controller-set budget"
  );

  /**
   * The name of a {@code QualityConfig.BudgetSplitMode}. Off by default: a split budget answers to demands and quality
   * profiles the Broker learns as it runs, and what that does to answer quality at a given load is unmeasured.
   */
  public static final Knob<String> BUDGET_SPLIT = Knob.of(
      PREFIX + ".budgetSplit",
      "NONE",
      "set",
      Objects::nonNull,
      "how a controller's budget is split among the queries pending on it: NONE (each gets the controller's budget), "
      + "EQ_RESV or MAX_QUALITY (the budget paper's splits)"
  );

  /** The name of a {@code QualityConfig.AdmissionMode}. */
  public static final Knob<String> ADMISSION = Knob.of(
      PREFIX + ".admission",
      "OFF",
      "set",
      Objects::nonNull,
      "what steers the admission of low-priority queries: OFF, ANSWER_QUALITY, PREDICTED_QUALITY, TIMEOUT_RATE or "
      + "GRADIENT2"
  );

  public static final Knob<Double> ADMISSION_TARGET = Knob.number(
      PREFIX + ".admissionTarget",
      0.9,
      Interval.openClosed(0, 1),
      "the setpoint of the admission signal of high-priority queries (Ubora §8: 0.9)"
  );

  public static final Knob<Integer> LOW_PRIORITY_BELOW = Knob.of(
      PREFIX + ".lowPriorityBelow",
      0,
      "an integer",
      Objects::nonNull,
      "a query whose context priority is below this is low-priority (sheddable), as in Druid's hilo laning"
  );

  /**
   * Ubora evaluates its PID controller every 100 requests over 10-minute sliding windows of samples; a Broker's load
   * changes within seconds, and a window must still hold a few sampled high-priority queries, hence 10 s.
   */
  public static final Knob<Long> ADMISSION_WINDOW_MS = Knob.longInteger(
      PREFIX + ".admissionWindowMs",
      10_000,
      Interval.closed(100, 3_600_000),
      "length of the admission controller's time window: it acts once per window on the high-priority samples of "
      + "that window, and holds when the window had none"
  );

  /** Gradient2's own default initial limit; the limit then follows the RTT gradient, down to 1. */
  public static final Knob<Integer> ADMISSION_GRADIENT_INITIAL_LIMIT = Knob.integer(
      PREFIX + ".admissionGradientInitialLimit",
      20,
      Interval.closed(1, 1000),
      "GRADIENT2 admission: queries in flight allowed before any round-trip time is measured; the limit stays within "
      + "1 and 10 times this"
  );

  public static final Knob<Integer> ADMISSION_GRADIENT_QUEUE_SIZE = Knob.integer(
      PREFIX + ".admissionGradientQueueSize",
      4,
      Interval.closed(0, 1000),
      "GRADIENT2 admission: queries the limit allows beyond the concurrency it estimates, its headroom to grow "
      + "(Gradient2's default: 4)"
  );

  /** Not 0: the hedge budget ({@code HedgeBudget}) needs some refill, or its first burst would be its last. */
  public static final Knob<Double> HEDGE_RATIO = Knob.number(
      PREFIX + ".hedgeRatio",
      0.05,
      Interval.openClosed(0, 1),
      "hedges that lose allowed per primary sub-query in the long run, beyond a burst of 10 (a winning hedge is free)"
  );

  /**
   * A few parts at most: each holds one of the Broker's connections to its Historical and a reader thread until it
   * answers or the deadline passes, and the parts of one slow sub-query gain little beyond a few. How many
   * connections the parts of all sub-queries may take together is {@code SubQuerySplit}'s to bound.
   */
  public static final Knob<Integer> MAX_SPLIT = Knob.integer(
      PREFIX + ".maxSplit",
      4,
      Interval.closed(1, 64),
      "most parts a budgeted sub-query is split into, where splitWhen says it is split; 1 never splits"
  );

  /**
   * The name of a {@code SubQuerySplit.Trigger}. {@code LATE} by default: a part costs a request and a reader thread,
   * worth it where a Historical is expected to miss the deadline. Splitting every sub-query can pay only under an even
   * overload with a concave quality profile; {@code ./getafix bench live --experiments laning --split-when ALWAYS}
   * measures whether it does.
   */
  public static final Knob<String> SPLIT_WHEN = Knob.of(
      PREFIX + ".splitWhen",
      "LATE",
      "set",
      Objects::nonNull,
      "which budgeted sub-queries are split into parts: LATE (those to a Historical expected to miss the deadline) "
      + "or ALWAYS (every one with two segments or more)"
  );

  /** The name of an {@code UpfrontRedundancy.Mode}. Copies race as hedges do, so they go only where hedging is on. */
  public static final Knob<String> REDUNDANCY = Knob.of(
      PREFIX + ".redundancy",
      "OFF",
      "set",
      Objects::nonNull,
      "which hedged sub-queries also go to another holder at once: OFF, SPARE (sPARE's replication factor and token "
      + "arbiter) or ZOOLANDER (Zoolander's model)"
  );

  public static final Knob<Long> REDUNDANCY_BOUND_MS = Knob.longInteger(
      PREFIX + ".redundancyBoundMs",
      100,
      Interval.above(0),
      "the latency bound of one sub-query that ZOOLANDER redundancy predicts and measures the share within"
  );

  public static final Knob<Double> REDUNDANCY_TARGET = Knob.number(
      PREFIX + ".redundancyTarget",
      0.99,
      Interval.openClosed(0, 1),
      "the share of sub-queries within the bound ZOOLANDER aims at: a Historical predicted to reach it alone gets no copy"
  );

  /** Druid's default {@code druid.processing.numThreads} on a 3-core Historical. */
  public static final Knob<Integer> HISTORICAL_SLOTS = Knob.integer(
      PREFIX + ".historicalSlots",
      2,
      Interval.above(0),
      "sub-queries a Historical runs at once (its druid.processing.numThreads): SPARE's tokens and capacity per "
      + "Historical, and ZOOLANDER's parallelism"
  );

  private QualityKnobs()
  {
  }

  /** Why the budget bounds do not fit each other, or null if {@code minBudgetMs <= maxBudgetMs}. */
  public static String budgetBoundsProblem(long minBudgetMs, long maxBudgetMs)
  {
    return Knob.belowOther(MAX_BUDGET_MS.name(), maxBudgetMs, MIN_BUDGET_MS.name(), minBudgetMs);
  }

  private static boolean pathOrEmpty(String path)
  {
    if (path == null) {
      return false;
    }
    try {
      Path.of(path);
      return true;
    }
    catch (InvalidPathException e) {
      return false;
    }
  }

  private static boolean names(List<String> names)
  {
    return names != null && names.stream().noneMatch(name -> name == null || name.isEmpty());
  }
}
