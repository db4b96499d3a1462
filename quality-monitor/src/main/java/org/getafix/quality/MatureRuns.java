package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.google.inject.Inject;
import org.apache.druid.guice.annotations.EscalatedClient;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.query.FluentQueryRunner;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.QueryToolChest;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.server.ResourceIdPopulatingQueryRunner;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.QueryType;
import org.getafix.core.quality.control.EwmaResponseTime;
import org.getafix.core.quality.sampling.MatureSampler;

import javax.annotation.Nullable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sampled mature re-execution (Ubora): for a sampled budgeted query, the sub-queries that miss the deadline keep
 * running under their own query id and a longer timeout, the sub-answers that made the deadline are memoised, and once
 * the late ones are in, the mature answer (memo plus late answers, merged with the query's toolchest) is compared with
 * the online answer. Reading the late sub-answers, merging and measuring run off the query thread, on this class's
 * own threads; only memoising (which weighs a sub-answer by serializing it) runs in the query's merge.
 *
 * <p>The memo is bounded in entries and bytes and expires entries after a TTL; an evicted (or expired) sub-answer
 * fails its mature run at once, as it can never be measured (its other memo entries are dropped; it keeps its place
 * in {@code maxMatureRuns} until its late sub-queries end, as they still hold their connections), and a late
 * sub-query that fails or a merge that throws fail it when it is measured; every failure is counted with its
 * {@link Failure reason}. Also keeps the Broker's figures of budgeted queries (coverage, budget, mean response time)
 * and of the memo (bytes, evictions) for the metrics and {@link QualityResource}.
 */
public class MatureRuns
{
  /** Query context key: {@code true} asks for a mature run (within the limit), {@code false} declines one. */
  public static final String MATURE_KEY = "getafixMature";
  static final String MATURE_ID_KEY = "getafixMatureId";
  private static final Logger log = new Logger(MatureRuns.class);

  /**
   * Mature runs in flight at most: {@code maxMatureRuns}, but at most half of the Broker's connections per Historical
   * ({@code druid.broker.http.numConnections}). Every run may hold one connection to the straggler until its late
   * sub-query ends; with all of them held, online sub-queries wait for a connection and answer long after their
   * budget (BudgetedQueryIT's memo test: up to 31 s against a 500 ms budget with 16 runs on 10 connections).
   */
  static int maxRuns(int configured, int connectionsPerHistorical)
  {
    final int cap = Math.max(1, connectionsPerHistorical / 2);
    if (configured > cap) {
      log.warn(
          "druid.getafix.quality.maxMatureRuns [%d] is above half of druid.broker.http.numConnections [%d]: "
          + "using %d, so that mature runs leave online sub-queries a connection to every Historical.",
          configured, connectionsPerHistorical, cap
      );
      return cap;
    }
    return configured;
  }
  private static final int RECENT = 50;

  private final QualityConfig config;
  private final int maxRuns;
  private final ServiceEmitter emitter;
  private final QueryRunnerFactoryConglomerate conglomerate;
  private final ObjectMapper jsonMapper;
  private final MatureSampler sampler;
  /**
   * Reads sampled queries' sub-answers, online and late, so that late ones never hold the online reader threads.
   * Not bounded itself: {@code maxMatureRuns} bounds it, at one thread (and HTTP connection) per Historical per run.
   */
  private final ExecutorService matureReader;
  /** Merges mature answers and measures quality, one at a time. */
  private final ExecutorService measurer;
  private final Cache<MemoKey, List<?>> memo;
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final EwmaResponseTime responseTime = new EwmaResponseTime(EwmaResponseTime.DEFAULT_ALPHA);
  private final Deque<Map<String, Object>> recent = new ArrayDeque<>();
  private final AtomicLong budgeted = new AtomicLong();
  private final AtomicLong timedOut = new AtomicLong();
  private final AtomicLong started = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong evictions = new AtomicLong();
  private final Map<Failure, AtomicLong> failures = new EnumMap<>(Failure.class);

  /** Why a mature run failed: the {@code reason} dimension of {@code getafix/mature/failed}. */
  enum Failure
  {
    /**
     * A memoised sub-answer was evicted to keep the memo within {@code memoMaxBytes} / {@code memoMaxEntries} (or
     * had expired, but the memo had not yet noticed when the run was measured).
     */
    EVICTED,
    /** A memoised sub-answer outlived {@code memoTtl}. */
    EXPIRED,
    /** A late sub-query failed, or was still running at {@code matureTimeoutMs}. */
    LATE,
    /** Merging or measuring the mature answer threw. */
    MERGE,
    /** The query failed before its online answer. */
    ABANDONED;

    String dimension()
    {
      return StringUtils.toLowerCase(name());
    }
  }

  @Inject
  public MatureRuns(
      QualityConfig config,
      ServiceEmitter emitter,
      QueryRunnerFactoryConglomerate conglomerate,
      @Json ObjectMapper jsonMapper,
      @EscalatedClient DruidHttpClientConfig brokerHttp
  )
  {
    this.config = config;
    this.maxRuns = maxRuns(config.getMaxMatureRuns(), brokerHttp.getNumConnections());
    this.emitter = emitter;
    this.conglomerate = conglomerate;
    this.jsonMapper = jsonMapper;
    this.sampler = MatureSampler.byQueryId(config.getMatureSampleRate());
    this.matureReader = Executors.newCachedThreadPool(Execs.makeThreadFactory("getafix-mature-reader-%d"));
    this.measurer = Execs.singleThreaded("getafix-mature-measurer-%d");
    for (Failure failure : Failure.values()) {
      failures.put(failure, new AtomicLong());
    }
    this.memo = Caffeine.newBuilder()
                        // Bounded in bytes and, as every entry weighs at least maxBytes / maxEntries, in entries.
                        .maximumWeight(config.getMemoMaxBytes())
                        .weigher((MemoKey key, List<?> rows) -> Math.max(key.bytes, minimumWeight(config)))
                        // Eviction on the writer's thread rather than the common pool: the bound holds when put
                        // returns, and a run reading its memo sees the evictions of earlier writes.
                        .executor(Runnable::run)
                        .expireAfterWrite(config.getMemoTtl().toStandardDuration().getMillis(), TimeUnit.MILLISECONDS)
                        .removalListener((MemoKey key, List<?> rows, RemovalCause cause) -> {
                          if (key != null && cause.wasEvicted()) {
                            evicted(key, cause);
                          }
                        })
                        .build();
  }

  /**
   * A memoised sub-answer was evicted (or expired): counted, and its run failed. Called on the thread that wrote to
   * the memo, within Caffeine's maintenance, so the run's other entries are invalidated on the measurer's thread.
   */
  private void evicted(MemoKey key, RemovalCause cause)
  {
    evictions.incrementAndGet();
    final String dimension = StringUtils.toLowerCase(cause.name());
    emitter.emit(dimensions(key.run.query).setDimension("cause", dimension).setMetric("getafix/memo/evictions", 1));
    try {
      measurer.execute(() -> {
        if (key.run.ended.compareAndSet(false, true)) {
          fail(key.run.query, cause == RemovalCause.EXPIRED ? Failure.EXPIRED : Failure.EVICTED);
          key.run.memoised.forEach(memo::invalidate);
        }
      });
    }
    catch (RejectedExecutionException e) {
      // Stopping: no run will be measured any more.
    }
  }

  private static int minimumWeight(QualityConfig config)
  {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, config.getMemoMaxBytes() / config.getMemoMaxEntries()));
  }

  /** One sampled query: what the online answer was and which late sub-answers are still coming. */
  static final class Run
  {
    final String matureId;
    final Query<?> query;
    final long startMillis;
    final long failTime;
    /** Set once the run is counted, as completed or failed: an evicted entry fails it before it is measured. */
    final AtomicBoolean ended = new AtomicBoolean();
    final List<MemoKey> memoised = Collections.synchronizedList(new ArrayList<>());
    final List<CompletableFuture<List<?>>> late = Collections.synchronizedList(new ArrayList<>());

    Run(String matureId, Query<?> query, long startMillis, long failTime)
    {
      this.matureId = matureId;
      this.query = query;
      this.startMillis = startMillis;
      this.failTime = failTime;
    }
  }

  /** A memoised sub-answer of a run; its weight is the serialized size of its rows, measured once. */
  static final class MemoKey
  {
    final Run run;
    final String server;
    final int bytes;

    MemoKey(Run run, String server, int bytes)
    {
      this.run = run;
      this.server = server;
      this.bytes = bytes;
    }

    @Override
    public boolean equals(Object o)
    {
      return o instanceof MemoKey && ((MemoKey) o).run.matureId.equals(run.matureId) && ((MemoKey) o).server.equals(server);
    }

    @Override
    public int hashCode()
    {
      return 31 * run.matureId.hashCode() + server.hashCode();
    }
  }

  /**
   * {@code query} with its own mature query id if it is sampled (or asks for a mature run) and the number of mature
   * runs in flight leaves room, else {@code query} itself.
   */
  <T> Query<T> maybeSample(Query<T> query, long startMillis)
  {
    final Boolean asked = query.context().getBoolean(MATURE_KEY);
    if (query.getId() == null || !(asked == null ? sampler.sample(query.getId()) : asked)) {
      return query;
    }
    if (runs.size() >= maxRuns) {
      skipped.incrementAndGet();
      emit(query, "getafix/mature/skipped", 1);
      return query;
    }
    final String matureId = query.getId() + "-mature";
    final Query<T> sampled = query.withOverriddenContext(Map.of(MATURE_ID_KEY, matureId));
    runs.put(matureId, new Run(matureId, sampled, startMillis, startMillis + config.getMatureTimeoutMs()));
    started.incrementAndGet();
    emit(query, "getafix/mature/started", 1);
    return sampled;
  }

  /** The mature run a sub-query belongs to, or null if its query was not sampled (or its run is over). */
  @Nullable
  Run runOf(Query<?> query)
  {
    final Object matureId = query.context().get(MATURE_ID_KEY);
    return matureId == null ? null : runs.get(matureId.toString());
  }

  ExecutorService matureReader()
  {
    return matureReader;
  }

  /**
   * Memoises a sub-answer that made the deadline, weighed by its serialized size. Called in the query's merge, for
   * sampled queries only.
   */
  void memoise(Run run, String server, List<?> rows)
  {
    if (run.ended.get()) {
      // Failed already (another of its entries was evicted): nothing will read this one. An entry whose run fails
      // just after this check stays until evicted or expired, within the memo's bounds.
      return;
    }
    int bytes;
    try {
      bytes = jsonMapper.writeValueAsBytes(rows).length;
    }
    catch (Exception e) {
      // Unmeasurable: weigh it as the whole memo, so that it is evicted first (and its mature run fails, counted).
      bytes = (int) Math.min(Integer.MAX_VALUE, config.getMemoMaxBytes());
    }
    final MemoKey key = new MemoKey(run, server, bytes);
    run.memoised.add(key);
    memo.put(key, rows);
    emit(run.query, "getafix/memo/bytes", memoBytes());
  }

  /** The memo's weighed size: what {@code memoMaxBytes} bounds. */
  private long memoBytes()
  {
    return memo.policy().eviction().map(eviction -> eviction.weightedSize().orElse(0)).orElse(0L);
  }

  void late(Run run, CompletableFuture<List<?>> answer)
  {
    run.late.add(answer);
  }

  /**
   * A budgeted query answered: its figures, and, if it was sampled, its mature run once its late sub-answers are in.
   * Returns when the figures are recorded; the returned future completes when the mature run has been measured.
   */
  <T> CompletableFuture<AnswerQuality> answered(Query<T> query, List<T> online, Coverage coverage, long budgetMillis, long elapsedMillis)
  {
    return answered(query, online, coverage, budgetMillis, elapsedMillis, false);
  }

  /**
   * As above; a {@code controlled} query's budget and response time are emitted by its {@link BudgetControl}
   * instead. The future completes with the measured quality, or null if the query had no mature run, it failed, or
   * its query type has no quality metric.
   */
  <T> CompletableFuture<AnswerQuality> answered(
      Query<T> query,
      List<T> online,
      Coverage coverage,
      long budgetMillis,
      long elapsedMillis,
      boolean controlled
  )
  {
    budgeted.incrementAndGet();
    if (coverage.isTimedOut()) {
      timedOut.incrementAndGet();
    }
    synchronized (responseTime) {
      responseTime.record(elapsedMillis);
    }
    emit(query, "getafix/quality/coverage", coverage.fraction());
    if (!controlled) {
      emit(query, "getafix/budget/ms", budgetMillis);
      emit(query, "getafix/rt/mean", meanResponseTime());
    }
    final Run run = runOf(query);
    if (run == null) {
      return CompletableFuture.completedFuture(null);
    }
    final CompletableFuture<?>[] late = run.late.toArray(new CompletableFuture[0]);
    return CompletableFuture.allOf(late).handleAsync(
        (ignored, lateFailure) -> measure(run, query, online, coverage, lateFailure),
        measurer
    );
  }

  /** The query failed before its online answer: its mature run will not be measured. */
  void abandoned(Query<?> query)
  {
    final Run run = runOf(query);
    if (run != null && runs.remove(run.matureId) != null && run.ended.compareAndSet(false, true)) {
      fail(query, Failure.ABANDONED);
      run.memoised.forEach(memo::invalidate);
    }
  }

  private void fail(Query<?> query, Failure reason)
  {
    failed.incrementAndGet();
    failures.get(reason).incrementAndGet();
    emitter.emit(dimensions(query).setDimension("reason", reason.dimension()).setMetric("getafix/mature/failed", 1));
  }

  @Nullable
  @SuppressWarnings("unchecked")
  private <T> AnswerQuality measure(Run run, Query<T> query, List<T> online, Coverage coverage, @Nullable Throwable lateFailure)
  {
    runs.remove(run.matureId);
    if (!run.ended.compareAndSet(false, true)) {
      // Failed already: one of its memo entries was evicted.
      return null;
    }
    Failure failure = Failure.LATE;
    try {
      if (lateFailure != null) {
        throw lateFailure;
      }
      failure = Failure.EVICTED;
      final List<List<T>> subAnswers = new ArrayList<>();
      for (MemoKey key : run.memoised) {
        final List<?> rows = memo.getIfPresent(key);
        if (rows == null) {
          throw new IllegalStateException("memoised sub-answer of " + key.server + " evicted");
        }
        subAnswers.add((List<T>) rows);
      }
      failure = Failure.MERGE;
      for (CompletableFuture<List<?>> answer : run.late) {
        subAnswers.add((List<T>) answer.join());
      }
      final List<T> mature = merge(query, subAnswers);
      final Optional<QueryType> type = QueryType.find(query.getType());
      final AnswerQuality quality = type.map(t -> t.measure(AnswerRows.of(query, online), AnswerRows.of(query, mature)))
                                        .orElse(null);
      completed.incrementAndGet();
      emit(query, "getafix/mature/completed", 1);
      if (quality != null) {
        emit(query, "getafix/quality/answer", quality.quality());
      }
      remember(query, coverage, quality, System.currentTimeMillis() - run.startMillis);
      return quality;
    }
    catch (Throwable e) {
      fail(query, failure);
      log.warn("Mature run [%s] failed (%s): %s", run.matureId, failure.dimension(), e.toString());
      return null;
    }
    finally {
      run.memoised.forEach(memo::invalidate);
    }
  }

  /** Druid's own merge of per-server answers: ordered merge as the Broker's scatter-gather, then the toolchest's. */
  private <T> List<T> merge(Query<T> query, List<List<T>> subAnswers)
  {
    final QueryToolChest<T, Query<T>> toolChest = conglomerate.getToolChest(query);
    final QueryRunner<T> scatterGather = (queryPlus, context) -> Sequences
        .simple(subAnswers.stream().map(Sequences::simple).map(s -> (Sequence<T>) s).toList())
        .flatMerge(s -> s, queryPlus.getQuery().getResultOrdering());
    // A fresh resource id, as Druid's walker gives each query: groupBy reserves its merge buffers under it.
    final Query<T> mergeQuery = ResourceIdPopulatingQueryRunner.populateResourceId(query);
    return FluentQueryRunner.create(scatterGather, toolChest)
                            .applyPreMergeDecoration()
                            .mergeResults(false)
                            .applyPostMergeDecoration()
                            .run(QueryPlus.wrap(mergeQuery), ResponseContext.createEmpty())
                            .toList();
  }

  private void remember(Query<?> query, Coverage coverage, @Nullable AnswerQuality quality, long matureMillis)
  {
    final Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("queryId", query.getId());
    entry.put("queryType", query.getType());
    entry.put("dataSource", String.join(",", query.getDataSource().getTableNames()));
    entry.put("coverage", coverage);
    entry.put("quality", quality == null ? null : qualityJson(quality));
    entry.put("matureMillis", matureMillis);
    synchronized (recent) {
      recent.addFirst(entry);
      while (recent.size() > RECENT) {
        recent.removeLast();
      }
    }
  }

  /** Spelled out: Druid's Jackson (2.12) does not serialize records' accessors. */
  private static Map<String, Object> qualityJson(AnswerQuality quality)
  {
    final Map<String, Object> json = new LinkedHashMap<>();
    json.put("quality", quality.quality());
    json.put("rowRecall", quality.rowRecall());
    json.put("valueAccuracy", quality.valueAccuracy());
    json.put("onlineRows", quality.onlineRows());
    json.put("matureRows", quality.matureRows());
    json.put("matchedRows", quality.matchedRows());
    return json;
  }

  private double meanResponseTime()
  {
    synchronized (responseTime) {
      return responseTime.estimate();
    }
  }

  private void emit(Query<?> query, String metric, Number value)
  {
    emitter.emit(dimensions(query).setMetric(metric, value));
  }

  private static ServiceMetricEvent.Builder dimensions(Query<?> query)
  {
    return ServiceMetricEvent.builder()
                             .setDimension("dataSource", String.join(",", query.getDataSource().getTableNames()))
                             .setDimension("type", query.getType());
  }

  /** What {@link QualityResource} shows: configuration, counters, and the latest measured mature runs. */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("config", config);
    state.put("budgetedQueries", budgeted.get());
    state.put("timedOutQueries", timedOut.get());
    state.put("meanResponseTimeMs", meanResponseTime());
    state.put("matureRunsStarted", started.get());
    state.put("matureRunsCompleted", completed.get());
    state.put("matureRunsFailed", failed.get());
    final Map<String, Long> byReason = new LinkedHashMap<>();
    failures.forEach((reason, count) -> byReason.put(reason.dimension(), count.get()));
    state.put("matureRunsFailedByReason", byReason);
    state.put("matureRunsSkipped", skipped.get());
    state.put("matureRunsInFlight", runs.size());
    state.put("memoEntries", memo.estimatedSize());
    state.put("memoBytes", memoBytes());
    state.put("memoEvictions", evictions.get());
    synchronized (recent) {
      state.put("recent", new ArrayList<>(recent));
    }
    return state;
  }

  @LifecycleStop
  public void stop()
  {
    matureReader.shutdownNow();
    measurer.shutdownNow();
  }
}
