package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.google.inject.Inject;
import org.apache.druid.guice.annotations.EscalatedClient;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.QueryType;
import org.getafix.core.quality.sampling.MatureSampler;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sampled mature re-execution (Ubora): for a sampled budgeted query, the sub-queries that miss the deadline keep
 * running under the run's own query id and a longer timeout, the sub-answers that made the deadline are memoised
 * ({@link MemoStore}), and once the late ones are in, the mature answer (memo plus late answers, merged with the
 * query's toolchest) is compared with the online answer. Reading the late sub-answers, merging and measuring run off
 * the query thread, on this class's own threads; only memoising (which weighs a sub-answer by serializing it) runs in
 * the query's merge.
 *
 * <p>An evicted (or expired) memo entry fails its run at once, as it can never be measured (its other memo entries
 * are dropped; it keeps its place in {@code maxMatureRuns} until its late sub-queries end, as they still hold their
 * connections); a late sub-query that fails or a merge that throws fail it when it is measured. Every failure is
 * counted with its {@link MatureRunFailure reason}.
 *
 * <p>A sampled query that finds {@code maxMatureRuns} in flight (replays count among them) gets no mature run; it is
 * skipped, and {@link Replays} may replay it whole once it has answered.
 */
public class MatureRuns implements BudgetedQuery.Listener
{
  private static final Logger log = new Logger(MatureRuns.class);

  private final QualityConfig config;
  private final int maxRuns;
  private final QualityMetrics metrics;
  private final ToolChestMerge merge;
  private final MatureSampler sampler;
  private final MemoStore memo;
  /**
   * Reads sampled queries' sub-answers, online and late, so that late ones never hold the online reader threads.
   * Not bounded itself: {@code maxMatureRuns} bounds it, at one thread (and HTTP connection) per Historical per run.
   */
  private final ExecutorService matureReader;
  /** Merges mature answers and measures quality, one at a time. */
  private final ExecutorService measurer;
  private final Set<MatureRun> inFlight = ConcurrentHashMap.newKeySet();
  /** Replays in flight ({@link Replays}): they hold the same connections, so they count in {@code maxMatureRuns}. */
  private final AtomicInteger replaying = new AtomicInteger();

  @Inject
  public MatureRuns(
      QualityConfig config,
      QualityMetrics metrics,
      QueryRunnerFactoryConglomerate conglomerate,
      @Json ObjectMapper jsonMapper,
      @EscalatedClient DruidHttpClientConfig brokerHttp
  )
  {
    this.config = config;
    this.maxRuns = maxRuns(config.getMaxMatureRuns(), brokerHttp.getNumConnections());
    this.metrics = metrics;
    this.merge = new ToolChestMerge(conglomerate);
    this.sampler = MatureSampler.byQueryId(config.getMatureSampleRate());
    this.memo = new MemoStore(config, jsonMapper, this::evicted);
    this.matureReader = Executors.newCachedThreadPool(Execs.makeThreadFactory("getafix-mature-reader-%d"));
    this.measurer = Execs.singleThreaded("getafix-mature-measurer-%d");
  }

  /**
   * Mature runs in flight at most: {@code maxMatureRuns}, but at most half of the Broker's connections per Historical
   * ({@code druid.broker.http.numConnections}). Every run may hold one connection to a straggler until its late
   * sub-query ends; with all of them held, online sub-queries wait for a connection and answer long after their
   * budget (16 runs on 10 connections answered 500 ms budgets after up to 31 s on a live cluster).
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

  /** Whether {@code query} is sampled, or asks for a mature run with {@value QueryContextKeys#MATURE}. */
  boolean sampled(Query<?> query)
  {
    final Boolean asked = query.context().getBoolean(QueryContextKeys.MATURE);
    return query.getId() != null && (asked == null ? sampler.sample(query.getId()) : asked);
  }

  /**
   * The mature run of {@code query} if it is {@link #sampled} and the runs in flight leave room; else null. A sampled
   * query without one is skipped: {@link Replays} may replay it once it has answered.
   */
  @Nullable
  MatureRun sample(Query<?> query, long startMillis)
  {
    if (!sampled(query)) {
      return null;
    }
    if (!hasRoom()) {
      metrics.matureSkipped(query, startMillis);
      return null;
    }
    final MatureRun run = new MatureRun(query, startMillis, startMillis + config.getMatureTimeoutMs());
    inFlight.add(run);
    metrics.matureStarted(query, startMillis);
    return run;
  }

  /**
   * Whether another mature run or replay may start. Checked before it starts, not atomically with it: runs that start
   * at the same moment may all pass, and overshoot {@code maxMatureRuns} by as many.
   */
  boolean hasRoom()
  {
    return runsInFlight() < maxRuns;
  }

  /** Mature runs and replays in flight. */
  int runsInFlight()
  {
    return inFlight.size() + replaying.get();
  }

  void replayStarted()
  {
    replaying.incrementAndGet();
  }

  void replayEnded()
  {
    replaying.decrementAndGet();
  }

  ExecutorService matureReader()
  {
    return matureReader;
  }

  /** The thread that measures answer quality, one answer at a time. */
  ExecutorService measurer()
  {
    return measurer;
  }

  /**
   * Memoises a sub-answer that made the deadline, weighed by its serialized size. Called in the query's merge, for
   * sampled queries only.
   */
  void memoise(MatureRun run, String server, List<?> rows)
  {
    if (run.ended.get()) {
      // Failed already (another of its entries was evicted): nothing will read this one. An entry whose run fails
      // just after this check stays until evicted or expired, within the memo's bounds.
      return;
    }
    memo.put(run, server, rows);
    metrics.memoBytes(run.query, memo.bytes());
  }

  /**
   * A memoised sub-answer was evicted (or expired): counted, and its run failed. Called on the thread that wrote to
   * the memo, within Caffeine's maintenance, so the run's other entries are forgotten on the measurer's thread.
   */
  private void evicted(MemoStore.Key key, RemovalCause cause)
  {
    metrics.memoEvicted(key.run.query, cause.name());
    try {
      measurer.execute(() -> {
        if (key.run.ended.compareAndSet(false, true)) {
          metrics.matureFailed(key.run.query, cause == RemovalCause.EXPIRED ? MatureRunFailure.EXPIRED : MatureRunFailure.EVICTED);
          memo.forget(key.run);
        }
      });
    }
    catch (RejectedExecutionException e) {
      // Stopping: no run will be measured any more.
    }
  }

  @Override
  public void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
  {
    measureWhenComplete(query, rows);
  }

  /**
   * Once the late sub-answers of {@code query}'s mature run are in, measures its online answer {@code online}. The
   * future completes with the measured quality (also passed to the query's listeners), or null if the query had no
   * mature run, the run failed, or its query type has no quality metric.
   */
  @SuppressWarnings("unchecked")
  <T> CompletableFuture<AnswerQuality> measureWhenComplete(BudgetedQuery<T> query, List<?> online)
  {
    final MatureRun run = query.matureRun();
    if (run == null) {
      return CompletableFuture.completedFuture(null);
    }
    final CompletableFuture<?>[] late = run.late.toArray(new CompletableFuture[0]);
    return CompletableFuture.allOf(late).handleAsync(
        (ignored, lateFailure) -> {
          final AnswerQuality quality = measure(run, query, (List<T>) online, lateFailure);
          if (quality != null) {
            query.measured(quality);
          }
          return quality;
        },
        measurer
    );
  }

  /** The query failed before its online answer: its mature run will not be measured. */
  @Override
  public void onFailed(BudgetedQuery<?> query, Throwable cause)
  {
    final MatureRun run = query.matureRun();
    if (run != null && inFlight.remove(run) && run.ended.compareAndSet(false, true)) {
      metrics.matureFailed(run.query, MatureRunFailure.ABANDONED);
      memo.forget(run);
    }
  }

  @Nullable
  @SuppressWarnings("unchecked")
  private <T> AnswerQuality measure(MatureRun run, BudgetedQuery<T> query, List<T> online, @Nullable Throwable lateFailure)
  {
    inFlight.remove(run);
    if (!run.ended.compareAndSet(false, true)) {
      // Failed already: one of its memo entries was evicted.
      return null;
    }
    MatureRunFailure failure = MatureRunFailure.LATE;
    try {
      if (lateFailure != null) {
        throw lateFailure;
      }
      failure = MatureRunFailure.EVICTED;
      final List<List<T>> subAnswers = new ArrayList<>();
      for (MemoStore.Key key : run.memoised) {
        final List<?> rows = memo.get(key);
        if (rows == null) {
          throw new IllegalStateException("memoised sub-answer of " + key.server + " evicted");
        }
        subAnswers.add((List<T>) rows);
      }
      failure = MatureRunFailure.MERGE;
      for (CompletableFuture<List<?>> answer : run.late) {
        subAnswers.add((List<T>) answer.join());
      }
      final Query<T> stamped = query.stamped();
      final List<T> mature = merge.merge(stamped, subAnswers);
      final AnswerQuality quality =
          QueryType.find(stamped.getType())
                   .map(type -> type.measure(AnswerRows.of(stamped, online), AnswerRows.of(stamped, mature)))
                   .orElse(null);
      metrics.matureCompleted(run, query.coverage(), quality, System.currentTimeMillis() - run.startMillis);
      return quality;
    }
    catch (Throwable e) {
      metrics.matureFailed(run.query, failure);
      log.warn("Mature run [%s] failed (%s): %s", run.matureId, failure.dimension(), e.toString());
      return null;
    }
    finally {
      memo.forget(run);
    }
  }

  /** Mature runs and replays in flight and the memo's size, for {@link QualityResource}. */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("matureRunsInFlight", inFlight.size());
    state.put("replaysInFlight", replaying.get());
    state.put("memoEntries", memo.entries());
    state.put("memoBytes", memo.bytes());
    return state;
  }

  @LifecycleStop
  public void stop()
  {
    matureReader.shutdownNow();
    measurer.shutdownNow();
  }
}
