package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.base.Throwables;
import com.google.common.collect.ImmutableMap;
import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.java.util.common.guava.LazySequence;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.query.BaseQuery;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryInterruptedException;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.QueryWatcher;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.query.spec.MultipleSpecificSegmentSpec;
import org.apache.druid.query.spec.QuerySegmentSpec;

import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The Broker's client for one Historical, as Druid's {@link DirectDruidClient} (which it is, so that Druid's
 * {@code connectionCount} strategy and Getafix routing, which count its open connections, keep working), plus budgets:
 * a sub-query of a {@link BudgetedQuery} must answer by the query's deadline. If it does, its results go on as they
 * are, and its segments count as answered; if it does not, it yields no results, its segments count as late in the
 * query's coverage, and it counts as having responded, so that Druid's {@code RetryQueryRunner} does not fail the
 * query for a missing response.
 *
 * <p>A server's answer is taken whole or not at all: the sub-query's results are read to the end (by a thread of the
 * {@code reader} pool, as they arrive) before any is passed on, so that a server cut off halfway never contributes half
 * of its segments. A Historical merges its segments' results before sending them, so a partly read answer could not
 * say which segments it covers.
 */
public class BudgetedDruidClient<T> extends DirectDruidClient<T>
{
  private final ExecutorService reader;
  private final BudgetedQueries budgetedQueries;
  private final MatureRuns matureRuns;
  private final String host;
  private final LongSupplier clock;

  public BudgetedDruidClient(
      QueryRunnerFactoryConglomerate conglomerate,
      QueryWatcher queryWatcher,
      ObjectMapper objectMapper,
      HttpClient httpClient,
      String scheme,
      String host,
      ServiceEmitter emitter,
      ScheduledExecutorService queryCancellationExecutor,
      ExecutorService reader,
      BudgetedQueries budgetedQueries,
      MatureRuns matureRuns,
      LongSupplier clock
  )
  {
    super(conglomerate, queryWatcher, objectMapper, httpClient, scheme, host, emitter, queryCancellationExecutor);
    this.reader = reader;
    this.budgetedQueries = budgetedQueries;
    this.matureRuns = matureRuns;
    this.host = host;
    this.clock = clock;
  }

  @Override
  public Sequence<T> run(QueryPlus<T> queryPlus, ResponseContext context)
  {
    final Query<T> query = queryPlus.getQuery();
    final BudgetedQuery<?> budgeted = budgetedQueries.of(query);
    if (budgeted == null) {
      return super.run(queryPlus, context);
    }
    final long deadline = budgeted.deadlineMillis();
    final long failTime = query.context().getLong(QUERY_FAIL_TIME, Long.MAX_VALUE);
    if (failTime < deadline) {
      // The query's own timeout comes first: it fails the query, as in stock Druid.
      return super.run(queryPlus, context);
    }
    final SubQuery sub = new SubQuery(budgeted, query, context, segmentIntervals(query));
    if (clock.getAsLong() >= deadline) {
      return sub.late();
    }
    final MatureRun mature = budgeted.matureRun();
    if (mature != null) {
      return runSampled(queryPlus, sub, mature);
    }
    final Query<T> bounded = query.withOverriddenContext(ImmutableMap.of(QUERY_FAIL_TIME, deadline));
    final Sequence<T> results;
    try {
      results = super.run(queryPlus.withQuery(bounded), context);
    }
    catch (RuntimeException e) {
      if (isLate(e, deadline)) {
        return sub.late();
      }
      throw e;
    }
    // Read the answer as it arrives, not when the merge gets to this server: the merge may first wait for a
    // straggler until the deadline, and Druid's client refuses to read anything after the sub-query's fail time.
    final CompletableFuture<List<T>> answer = CompletableFuture.supplyAsync(results::toList, reader);
    return byDeadline(sub, answer, () -> {}, rows -> {});
  }

  /**
   * A sub-query of a sampled query: it runs under its mature run's own query id and timeout, with its own response
   * context, read by the mature runs' own threads. If it answers by the deadline its answer is used online and
   * memoised; if not, the online answer goes on without it and its answer goes to the mature run when it comes.
   */
  @SuppressWarnings("unchecked")
  private Sequence<T> runSampled(QueryPlus<T> queryPlus, SubQuery sub, MatureRun mature)
  {
    final Query<T> own = sub.query.withId(mature.matureId)
                                  .withOverriddenContext(ImmutableMap.of(QUERY_FAIL_TIME, mature.failTime));
    final ResponseContext ownContext = makeResponseContextForQuery();
    final CompletableFuture<List<T>> answer;
    try {
      final Sequence<T> results = super.run(queryPlus.withQuery(own), ownContext);
      answer = CompletableFuture.supplyAsync(results::toList, matureRuns.matureReader());
    }
    catch (RuntimeException e) {
      if (!isLate(e, sub.budgeted.deadlineMillis())) {
        throw e;
      }
      mature.late(CompletableFuture.failedFuture(e));
      return sub.late();
    }
    return byDeadline(
        sub,
        answer,
        () -> mature.late((CompletableFuture<List<?>>) (CompletableFuture<?>) answer),
        rows -> {
          matureRuns.memoise(mature, host, rows);
          // The sub-query answered under its own id and context: account for it in the query's.
          sub.context.addRemainingResponse(sub.query.getMostSpecificId(), -1);
          final List<SegmentDescriptor> missing = ownContext.getMissingSegments();
          if (missing != null && !missing.isEmpty()) {
            sub.context.addMissingSegments(missing);
          }
        }
    );
  }

  /**
   * The sub-answer if it is in by the deadline (then {@code inTime} sees it first and its segments count as answered),
   * else nothing (then {@code whenLate} runs and its segments count as late). Waits when the merge asks for it.
   */
  private Sequence<T> byDeadline(SubQuery sub, CompletableFuture<List<T>> answer, Runnable whenLate, Consumer<List<T>> inTime)
  {
    final long deadline = sub.budgeted.deadlineMillis();
    return new LazySequence<>(() -> {
      final List<T> rows;
      try {
        rows = answer.get(Math.max(0, deadline - clock.getAsLong()), TimeUnit.MILLISECONDS);
      }
      catch (TimeoutException e) {
        whenLate.run();
        return sub.late();
      }
      catch (ExecutionException e) {
        final Throwable cause = e.getCause() == null ? e : e.getCause();
        if (isLate(cause, deadline)) {
          whenLate.run();
          return sub.late();
        }
        Throwables.throwIfUnchecked(cause);
        throw new RuntimeException(cause);
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QueryInterruptedException(e);
      }
      inTime.accept(rows);
      sub.budgeted.answeredInTime(sub.intervals.size());
      return Sequences.simple(rows);
    });
  }

  /** Whether {@code e} is the budget running out: a timeout anywhere in its causes, or any failure after the deadline. */
  private boolean isLate(Throwable e, long deadline)
  {
    return clock.getAsLong() >= deadline || Timeouts.isTimeout(e);
  }

  /** One sub-query of a budgeted query: the query it belongs to, its response context and its segments' intervals. */
  private final class SubQuery
  {
    final BudgetedQuery<?> budgeted;
    final Query<T> query;
    final ResponseContext context;
    final List<String> intervals;

    SubQuery(BudgetedQuery<?> budgeted, Query<T> query, ResponseContext context, List<String> intervals)
    {
      this.budgeted = budgeted;
      this.query = query;
      this.context = context;
      this.intervals = intervals;
    }

    /**
     * Records the sub-query's segments as late and its response as received. The count of outstanding responses may
     * go below zero if the Historical had already started answering: Druid checks only that none is outstanding.
     */
    Sequence<T> late()
    {
      context.addRemainingResponse(query.getMostSpecificId(), -1);
      budgeted.late(intervals);
      return Sequences.empty();
    }
  }

  /** The intervals of the segments a sub-query asks for, one per segment, ISO-8601. */
  static List<String> segmentIntervals(Query<?> query)
  {
    final QuerySegmentSpec spec = query instanceof BaseQuery ? ((BaseQuery<?>) query).getQuerySegmentSpec() : null;
    if (spec instanceof MultipleSpecificSegmentSpec) {
      return ((MultipleSpecificSegmentSpec) spec)
          .getDescriptors()
          .stream()
          .map(descriptor -> descriptor.getInterval().toString())
          .collect(Collectors.toList());
    }
    return query.getIntervals().stream().map(Object::toString).collect(Collectors.toList());
  }
}
