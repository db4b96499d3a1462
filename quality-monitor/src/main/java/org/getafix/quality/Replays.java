package org.getafix.quality;

import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import com.google.inject.Provider;
import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.common.guava.SequenceWrapper;
import org.apache.druid.java.util.common.lifecycle.LifecycleStart;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContexts;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.QuerySegmentWalker;
import org.apache.druid.server.ClientQuerySegmentWalker;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.QueryType;
import org.getafix.core.quality.sampling.ReplayQueue;
import org.getafix.core.quality.sampling.ReplaySchedule;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Replays of sampled queries that got no mature run (Ubora §6.4). A sampled query that finds {@code maxMatureRuns} in
 * flight runs without one, so nothing of it is memoised and its late sub-queries are cut at the deadline. Once it has
 * answered, its online answer is queued ({@code replayQueueSize}) with the query as asked, and when getafix-core's
 * {@link ReplayQueue} says so (the Broker idle, or the queue about to outlast its {@code replayExpiration}) the query
 * is re-executed whole, without a budget, through Druid's own walker, and its online answer is measured against that
 * full answer. A replay is one of the mature runs in flight while it runs. The Broker counts as idle while at most
 * {@code replayIdleQueries} queries are in flight through its walker and mature runs (replays among them) are running,
 * and the mean gap between queries exceeds the mean replay time.
 *
 * <p>A skipped query that answered whole (no segment late) is not replayed: a mature run would have merged the very
 * sub-answers the online answer was merged from, so its answer is measured against itself, at once.
 *
 * <p>A replay reads the data as it is when it runs, not as the online answer read it; hence the expiration, past which
 * a queued replay is dropped. A query type without a quality metric is not replayed (there is nothing to measure).
 */
public class Replays implements BudgetedQuery.Listener
{
  private static final Logger log = new Logger(Replays.class);
  /** How often the queue is looked at: a due replay waits this long at most, and a look is a few comparisons. */
  private static final long TICK_MILLIS = 100;

  private final QualityConfig config;
  private final QualityMetrics metrics;
  private final MatureRuns matureRuns;
  private final Supplier<QuerySegmentWalker> walker;
  private final LongSupplier clock;
  /** Runs the replays, each until it is measured. */
  private final Executor replayer;
  /** Measures whole online answers, off the query thread. */
  private final Executor measurer;
  /** Null when {@code replayQueueSize} is 0: nothing is replayed. */
  @Nullable
  private final ReplayQueue<Pending> queue;
  /** Queries in flight through the Broker's walker, budgeted or not. */
  private final AtomicInteger online = new AtomicInteger();
  @Nullable
  private ScheduledExecutorService ticker;

  /** A skipped query with its online answer, waiting for its replay. */
  private record Pending(BudgetedQuery<?> query, List<?> online)
  {
  }

  /**
   * @param walker Druid's walker, which a replay runs through unbudgeted, unadmitted and unhedged. A provider: the
   *               walker's cluster client reaches the per-Historical clients, which depend on the budgeted queries,
   *               whose listeners include this.
   */
  @Inject
  public Replays(
      QualityConfig config,
      QualityMetrics metrics,
      MatureRuns matureRuns,
      Provider<ClientQuerySegmentWalker> walker
  )
  {
    this(
        config,
        metrics,
        matureRuns,
        Suppliers.memoize(walker::get),
        System::currentTimeMillis,
        matureRuns.matureReader(),
        matureRuns.measurer()
    );
  }

  Replays(
      QualityConfig config,
      QualityMetrics metrics,
      MatureRuns matureRuns,
      Supplier<QuerySegmentWalker> walker,
      LongSupplier clock,
      Executor replayer,
      Executor measurer
  )
  {
    this.config = config;
    this.metrics = metrics;
    this.matureRuns = matureRuns;
    this.walker = walker;
    this.clock = clock;
    this.replayer = replayer;
    this.measurer = measurer;
    this.queue = config.getReplayQueueSize() == 0 ? null : new ReplayQueue<>(
        config.getReplayQueueSize(),
        new ReplaySchedule(config.getReplayExpiration().toStandardDuration().getMillis(), config.getReplayIdleQueries())
    );
  }

  @LifecycleStart
  public void start()
  {
    if (queue != null) {
      ticker = Execs.scheduledSingleThreaded("getafix-replay-%d");
      ticker.scheduleWithFixedDelay(this::tickLogged, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  @LifecycleStop
  public void stop()
  {
    if (ticker != null) {
      ticker.shutdownNow();
    }
  }

  /** Whether replays are on: then every query through the Broker's walker counts, budgeted or not. */
  boolean isOn()
  {
    return queue != null;
  }

  /** A query arrived at the Broker's walker at {@code nowMillis}: its gap to the previous one says how busy it is. */
  void arrived(long nowMillis)
  {
    if (queue != null) {
      queue.arrived(nowMillis);
    }
  }

  /**
   * {@code runner}, counted among the queries in flight while its results are read; {@code runner} itself when
   * replays are off. Counted once per run: Druid's wrapped yielder calls {@code after} when a step fails and again
   * when it is closed.
   */
  <T> QueryRunner<T> counted(QueryRunner<T> runner)
  {
    if (queue == null) {
      // Replays off: a query pays nothing for them.
      return runner;
    }
    return (queryPlus, responseContext) -> {
      final AtomicBoolean counted = new AtomicBoolean();
      return Sequences.wrap(
          runner.run(queryPlus, responseContext),
          new SequenceWrapper()
          {
            @Override
            public void before()
            {
              if (counted.compareAndSet(false, true)) {
                online.incrementAndGet();
              }
            }

            @Override
            public void after(boolean isDone, Throwable thrown)
            {
              if (counted.compareAndSet(true, false)) {
                online.decrementAndGet();
              }
            }
          }
      );
    };
  }

  /** A skipped query's online answer is queued for its replay, or measured at once if it is whole. */
  @Override
  public void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
  {
    if (queue == null
        || query.matureRun() != null
        || !matureRuns.sampled(query.query())
        || QueryType.find(query.query().getType()).isEmpty()) {
      return;
    }
    if (!query.coverage().timedOut()) {
      try {
        measurer.execute(() -> measureWhole(query, rows));
      }
      catch (RejectedExecutionException e) {
        // Stopping: nothing is measured any more.
      }
      return;
    }
    metrics.replayQueued(query.query());
    queue.offer(new Pending(query, rows), clock.getAsLong())
         .ifPresent(dropped -> metrics.replayDropped(dropped.query().query(), ReplayDrop.FULL));
  }

  /**
   * A mature run's quality was measured: the time from its query's start, when its late sub-queries started too, to
   * its measurement is what answering that query whole took, as a replay would.
   */
  @Override
  public void onQualityMeasured(BudgetedQuery<?> query, AnswerQuality quality)
  {
    if (queue != null && query.matureRun() != null) {
      queue.answeredWhole(clock.getAsLong() - query.startMillis());
    }
  }

  private void tickLogged()
  {
    try {
      tick();
    }
    catch (RuntimeException e) {
      // A scheduled task that throws is never run again.
      log.warn(e, "Replay scheduling failed; trying again in %d ms", TICK_MILLIS);
    }
  }

  /** Drops the expired replays and starts those due, as the queue decides. */
  void tick()
  {
    if (queue == null) {
      return;
    }
    final long now = clock.getAsLong();
    while (true) {
      final ReplayQueue.Step<Pending> step = queue.next(
          now,
          online.get() + matureRuns.runsInFlight(),
          matureRuns.hasRoom()
      );
      switch (step.decision()) {
        case DROP -> metrics.replayDropped(step.item().query().query(), ReplayDrop.EXPIRED);
        case RUN -> start(step.item());
        default -> {
          return;
        }
      }
    }
  }

  private void start(Pending pending)
  {
    matureRuns.replayStarted();
    metrics.replayStarted(pending.query().query(), pending.query().startMillis());
    try {
      replayer.execute(() -> replay(pending.query(), pending.online()));
    }
    catch (RejectedExecutionException e) {
      // Stopping: the replay never runs.
      matureRuns.replayEnded();
    }
  }

  /** Re-executes {@code query} whole and measures its online answer against that. */
  @SuppressWarnings("unchecked")
  private <T> void replay(BudgetedQuery<T> query, List<?> online)
  {
    final long start = clock.getAsLong();
    try {
      final Query<T> replay = replayQuery(query.query(), config.getMatureTimeoutMs());
      final List<T> full = QueryPlus.wrap(replay)
                                    .run(walker.get(), DirectDruidClient.makeResponseContextForQuery())
                                    .toList();
      final long end = clock.getAsLong();
      queue.answeredWhole(end - start);
      final AnswerQuality quality = measure(query, (List<T>) online, full);
      metrics.replayCompleted(query.query(), query.startMillis(), query.coverage(), quality, end - query.startMillis());
      if (quality != null) {
        query.measured(quality);
      }
    }
    catch (RuntimeException e) {
      metrics.replayFailed(query.query());
      log.warn("Replay of query [%s] failed: %s", query.query().getId(), e.toString());
    }
    finally {
      matureRuns.replayEnded();
    }
  }

  /**
   * {@code asked} as a replay runs it: under its own id, so that cancelling the query leaves it be and the
   * Historicals tell the two apart; with the mature runs' timeout; and without hedges or copies, extra load to cut a
   * tail that no one waits for.
   */
  private static <T> Query<T> replayQuery(Query<T> asked, long timeoutMillis)
  {
    return asked.withId(asked.getId() + "-replay").withOverriddenContext(ImmutableMap.of(
        QueryContexts.TIMEOUT_KEY, timeoutMillis,
        QueryContextKeys.HEDGE, false
    ));
  }

  /** The whole online answer of a skipped query, measured against itself: what its mature run would have found. */
  @SuppressWarnings("unchecked")
  private <T> void measureWhole(BudgetedQuery<T> query, List<?> rows)
  {
    final AnswerQuality quality = measure(query, (List<T>) rows, (List<T>) rows);
    if (quality == null) {
      return;
    }
    metrics.replayUnneeded(
        query.query(),
        query.startMillis(),
        query.coverage(),
        quality,
        clock.getAsLong() - query.startMillis()
    );
    query.measured(quality);
  }

  @Nullable
  private static <T> AnswerQuality measure(BudgetedQuery<T> query, List<T> online, List<T> mature)
  {
    final Query<T> stamped = query.stamped();
    return QueryType.find(stamped.getType())
                    .map(type -> type.measure(AnswerRows.of(stamped, online), AnswerRows.of(stamped, mature)))
                    .orElse(null);
  }

  /** The queue and what its decisions rest on, for {@link QualityResource}. */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("replayQueue", queue == null ? 0 : queue.size());
    state.put("onlineQueriesInFlight", online.get());
    final long now = clock.getAsLong();
    state.put("meanInterArrivalMs", queue == null ? null : finiteOrNull(queue.meanInterArrivalMillis(now)));
    state.put("meanReplayMs", queue == null ? null : finiteOrNull(queue.meanReplayMillis()));
    return state;
  }

  @Nullable
  private static Double finiteOrNull(double value)
  {
    return Double.isFinite(value) ? value : null;
  }
}
