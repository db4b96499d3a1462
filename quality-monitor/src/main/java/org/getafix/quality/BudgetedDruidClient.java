package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.base.Throwables;
import com.google.common.collect.ImmutableMap;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.guava.LazySequence;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.StatusResponseHandler;
import org.apache.druid.java.util.http.client.response.StatusResponseHolder;
import org.apache.druid.query.BaseQuery;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContexts;
import org.apache.druid.query.QueryInterruptedException;
import org.apache.druid.query.QueryTimeoutException;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.query.spec.MultipleSpecificSegmentSpec;
import org.apache.druid.query.spec.QuerySegmentSpec;
import org.getafix.core.redundancy.SubQuerySplit;
import org.jboss.netty.handler.codec.http.HttpMethod;

import javax.annotation.Nullable;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
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
 *
 * <p>With {@link Hedging} on, a sub-query whose segments other servers hold too is hedged: if its Historical has not
 * answered by the hedge point, its segments also go to those servers (one hedge sub-query per server), and the first
 * complete answer is used, the other cancelled ({@link Race}).
 *
 * <p>With failover on (the default), a sub-query whose Historical cannot be reached (a refused or dropped connection,
 * before the first row) goes at once to other holders of its segments, budgeted or not, hedged or not: stock Druid
 * fails every query that touches a dead Historical until ZooKeeper drops it from the Broker's view.
 */
public class BudgetedDruidClient<T> extends DirectDruidClient<T>
{
  private static final Logger log = new Logger(BudgetedDruidClient.class);
  private static final org.joda.time.Duration CANCEL_TIMEOUT = org.joda.time.Duration.standardSeconds(1);
  private static final long CANCEL_RETRY_MILLIS = 1_000;
  private static final long CANCEL_RETRY_MAX_MILLIS = 8_000;

  private final ExecutorService reader;
  private final BudgetedQueries budgetedQueries;
  private final MatureRuns matureRuns;
  private final Hedging hedging;
  private final String host;
  private final LongSupplier clock;
  private final RequestCapture requests;
  private final HttpClient httpClient;
  private final String cancelUrl;
  private final ScheduledExecutorService cancellation;
  private final int connectionsPerHistorical;

  /**
   * @param requests the query watcher, through which a hedged sub-query's requests are captured for cancelling: one
   *                 per client
   * @param connectionsPerHistorical the Broker's HTTP connections per Historical ({@code
   *                 druid.broker.http.numConnections}), of which a split leaves half to other sub-queries
   */
  public BudgetedDruidClient(
      QueryRunnerFactoryConglomerate conglomerate,
      RequestCapture requests,
      ObjectMapper objectMapper,
      HttpClient httpClient,
      String scheme,
      String host,
      ServiceEmitter emitter,
      ScheduledExecutorService queryCancellationExecutor,
      ExecutorService reader,
      BudgetedQueries budgetedQueries,
      MatureRuns matureRuns,
      Hedging hedging,
      int connectionsPerHistorical,
      LongSupplier clock
  )
  {
    super(conglomerate, requests, objectMapper, requests.watching(httpClient), scheme, host, emitter, queryCancellationExecutor);
    this.reader = reader;
    this.budgetedQueries = budgetedQueries;
    this.matureRuns = matureRuns;
    this.hedging = hedging;
    this.host = host;
    this.clock = clock;
    this.requests = requests;
    this.httpClient = httpClient;
    this.cancelUrl = StringUtils.format("%s://%s/druid/v2/", scheme, host);
    this.cancellation = queryCancellationExecutor;
    this.connectionsPerHistorical = connectionsPerHistorical;
  }

  @Override
  public Sequence<T> run(QueryPlus<T> asPlanned, ResponseContext context)
  {
    final BudgetedQuery<?> budgeted = budgetedQueries.of(asPlanned.getQuery());
    if (budgeted == null) {
      // Without a budget: Druid's own request, hedged only where the query or the Broker asks for it; the failover
      // only notes whether a row has gone on, and sends nothing unless the Historical cannot be reached.
      final Hedging.Plan plan = hedging.plan(asPlanned.getQuery(), host, Double.POSITIVE_INFINITY, false);
      return plan == null ? failingOver(asPlanned, context) : runHedged(asPlanned, context, null, plan);
    }
    final Query<T> query = budgeted.forHistoricals(asPlanned.getQuery());
    final QueryPlus<T> queryPlus = asPlanned.withQuery(query);
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
    final Query<T> bounded = query.withOverriddenContext(ImmutableMap.of(QUERY_FAIL_TIME, deadline));
    final Hedging.Plan plan = hedging.plan(query, host, deadline - clock.getAsLong(), budgeted.partialAllowed());
    final MatureRun mature = budgeted.matureRun();
    if (plan == null && budgeted.partialAllowed()) {
      final int parts = hedging.splitParts(
          query,
          host,
          deadline - clock.getAsLong(),
          SubQuerySplit.spareConnections(getNumOpenConnections(), connectionsPerHistorical)
      );
      if (parts > 1) {
        return runSplit(queryPlus.withQuery(bounded), sub, mature, parts);
      }
    }
    if (mature != null) {
      return plan == null ? runSampled(queryPlus, sub, mature) : runSampledHedged(queryPlus.withQuery(bounded), sub, mature, plan);
    }
    if (plan != null) {
      return runHedged(queryPlus.withQuery(bounded), context, sub, plan);
    }
    final long start = clock.getAsLong();
    final Sequence<T> results;
    try {
      results = failingOver(queryPlus.withQuery(bounded), context);
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
    // The hedge policy learns each Historical's latency from every budgeted sub-query, not only from the hedged ones:
    // a policy that knows nothing of a node hedges nothing under a budget shorter than the latency it then assumes,
    // and would never learn. A sub-query cut at its deadline counts with the time it had.
    answer.whenComplete(
        (rows, failure) -> hedging.recordBudgeted(host, clock.getAsLong() - start, deadline - start, failure != null)
    );
    return byDeadline(sub, answer, () -> {}, rows -> {});
  }

  /**
   * The sub-query as stock Druid runs it, streamed, unless its Historical cannot be reached before the first row: then
   * its segments go to other holders ({@link #failover}), where stock Druid would fail the query until its server view
   * drops the Historical.
   */
  private Sequence<T> failingOver(QueryPlus<T> queryPlus, ResponseContext context)
  {
    final Sequence<T> answer = super.run(queryPlus, context);
    return hedging.failsOver() ? new FailoverSequence<>(answer, failure -> failover(queryPlus, context, failure)) : answer;
  }

  /**
   * The answer of {@code queryPlus} from the other holders of its segments, this client's Historical being unreachable:
   * one sub-query per holder ({@link Hedging#failover}), under the query's own id and fail time, merged in the query's
   * result order and accounted for once in {@code context}. Throws {@code unreachable} if some segment has no other
   * holder, and a holder's failure as the sub-query's.
   */
  @SuppressWarnings("unchecked")
  private Sequence<T> failover(QueryPlus<T> queryPlus, ResponseContext context, RuntimeException unreachable)
  {
    final Query<T> query = queryPlus.getQuery();
    final Map<BudgetedDruidClient<?>, List<SegmentDescriptor>> groups = hedging.failover(query, host);
    if (groups == null) {
      throw unreachable;
    }
    final List<Part<T>> sent = new ArrayList<>();
    // Bounded by the sub-query's fail time: a budgeted sub-query fails over on a reader thread, whose pool also reads
    // the holders' answers, so an unbounded wait could hold every reader thread waiting for reads queued behind them.
    final long failTime = query.context().getLong(QUERY_FAIL_TIME, Long.MAX_VALUE);
    try {
      for (Map.Entry<BudgetedDruidClient<?>, List<SegmentDescriptor>> group : groups.entrySet()) {
        final BudgetedDruidClient<T> holder = (BudgetedDruidClient<T>) group.getKey();
        final Query<T> part = query.withQuerySegmentSpec(new MultipleSpecificSegmentSpec(group.getValue()));
        sent.add(new Part<>(group.getValue(), holder.attempt(queryPlus.withQuery(part), holder.reader)));
        hedging.failedOver(query);
      }
      CompletableFuture.allOf(sent.stream().map(part -> part.attempt.rows).toArray(CompletableFuture[]::new))
                       .get(Math.max(0, failTime - clock.getAsLong()), TimeUnit.MILLISECONDS);
    }
    catch (TimeoutException e) {
      sent.forEach(part -> part.attempt.cancel());
      throw new QueryTimeoutException(
          StringUtils.nonStrictFormat("Query [%s] failed over from [%s] and timed out", query.getId(), host),
          host
      );
    }
    catch (ExecutionException e) {
      sent.forEach(part -> part.attempt.cancel());
      final Throwable failure = e.getCause() == null ? e : e.getCause();
      Throwables.throwIfUnchecked(failure);
      throw new RuntimeException(failure);
    }
    catch (InterruptedException e) {
      sent.forEach(part -> part.attempt.cancel());
      Thread.currentThread().interrupt();
      throw new QueryInterruptedException(e);
    }
    catch (RuntimeException e) {
      sent.forEach(part -> part.attempt.cancel());
      throw e;
    }
    for (Part<T> part : sent) {
      removeMagicResponseContextFields(part.attempt.context);
      context.merge(part.attempt.context);
    }
    context.addRemainingResponse(query.getMostSpecificId(), -1);
    return Sequences.simple(merged(sent, query));
  }

  /**
   * A sub-query of a sampled query: it runs under its mature run's own query id and timeout, with its own response
   * context, read by the mature runs' own threads. If it answers by the deadline its answer is used online and
   * memoised; if not, the online answer goes on without it and its answer goes to the mature run when it comes.
   */
  @SuppressWarnings("unchecked")
  private Sequence<T> runSampled(QueryPlus<T> queryPlus, SubQuery sub, MatureRun mature)
  {
    final Query<T> own = matureQuery(sub, mature);
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
   * A sub-query to a Historical expected to miss the deadline, sent as {@code parts} sub-queries over consecutive runs
   * of its segments ({@link SubQuerySplit}), each read as it arrives: the parts in by the deadline go on online and their
   * segments count as answered, the others' as late. The Historical gives the late parts up at the deadline, which is
   * their fail time; a sampled sub-query's parts run under its mature run's id and fail time instead, the parts in time
   * memoised for the run and the others' answers coming to it late.
   */
  @SuppressWarnings("unchecked")
  private Sequence<T> runSplit(QueryPlus<T> bounded, SubQuery sub, @Nullable MatureRun mature, int parts)
  {
    final Query<T> whole = mature == null ? bounded.getQuery() : matureQuery(sub, mature);
    final ExecutorService readBy = mature == null ? reader : matureRuns.matureReader();
    final long start = clock.getAsLong();
    final List<Part<T>> sent = new ArrayList<>();
    final int priority = whole.context().getPriority();
    try {
      for (List<SegmentDescriptor> segments : SubQuerySplit.partition(descriptors(sub.query), parts)) {
        final Query<T> part = whole.withQuerySegmentSpec(new MultipleSpecificSegmentSpec(segments))
                                   .withOverriddenContext(ImmutableMap.of(
                                       QueryContexts.PRIORITY_KEY,
                                       SubQuerySplit.partPriority(priority, sent.size())
                                   ));
        sent.add(new Part<>(segments, attempt(bounded.withQuery(part), readBy)));
      }
      hedging.split(sub.query, sent.size());
    }
    catch (RuntimeException e) {
      sent.forEach(part -> part.attempt.cancel());
      if (!isLate(e, sub.budgeted.deadlineMillis())) {
        throw e;
      }
      if (mature != null) {
        mature.late(CompletableFuture.failedFuture(e));
      }
      return sub.late();
    }
    final CompletableFuture<Void> all = CompletableFuture.allOf(
        sent.stream().map(part -> part.attempt.rows).toArray(CompletableFuture[]::new)
    );
    // One latency per sub-query, as unsplit: the time to its last part, or the time it had.
    final long deadline = sub.budgeted.deadlineMillis();
    all.whenComplete(
        (done, failure) -> hedging.recordBudgeted(host, clock.getAsLong() - start, deadline - start, failure != null)
    );
    return new LazySequence<>(() -> {
      try {
        all.get(Math.max(0, deadline - clock.getAsLong()), TimeUnit.MILLISECONDS);
      }
      catch (TimeoutException | ExecutionException e) {
        // Some part is late or failed: sorted out part by part below.
      }
      catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QueryInterruptedException(e);
      }
      final List<Part<T>> inTime = new ArrayList<>();
      final List<Part<T>> late = new ArrayList<>();
      for (Part<T> part : sent) {
        final CompletableFuture<List<T>> rows = part.attempt.rows;
        // Done first, failure second: a part that fails between the two reads (its Historical's timeout is the
        // deadline, so that is when it fails) must not count as answered and then fail the merge.
        final boolean done = rows.isDone();
        final Throwable failure = failure(rows);
        if (done && failure == null) {
          inTime.add(part);
        } else if (failure != null && !isLate(failure, deadline)) {
          // The Historical failed the part, as it would have failed the whole sub-query.
          sent.forEach(other -> other.attempt.cancel());
          Throwables.throwIfUnchecked(failure);
          throw new RuntimeException(failure);
        } else {
          late.add(part);
        }
      }
      final List<T> answered = merged(inTime, sub.query);
      for (Part<T> part : inTime) {
        removeMagicResponseContextFields(part.attempt.context);
        sub.context.merge(part.attempt.context);
      }
      sub.context.addRemainingResponse(sub.query.getMostSpecificId(), -1);
      sub.budgeted.answeredInTime(inTime.stream().mapToInt(part -> part.segments.size()).sum());
      if (!late.isEmpty()) {
        sub.budgeted.late(late.stream()
                              .flatMap(part -> part.segments.stream())
                              .map(segment -> segment.getInterval().toString())
                              .collect(Collectors.toList()));
      }
      if (mature != null) {
        if (!inTime.isEmpty()) {
          matureRuns.memoise(mature, host, answered);
        }
        if (!late.isEmpty()) {
          final CompletableFuture<List<?>> lateAnswer = CompletableFuture
              .allOf(late.stream().map(part -> part.attempt.rows).toArray(CompletableFuture[]::new))
              .thenApply(done -> merged(late, sub.query));
          mature.late(lateAnswer);
        }
      }
      return Sequences.simple(answered);
    });
  }

  /** Why {@code rows} failed, or null if they have not failed (yet). */
  @Nullable
  private static Throwable failure(CompletableFuture<?> rows)
  {
    if (!rows.isCompletedExceptionally()) {
      return null;
    }
    try {
      rows.join();
      return null;
    }
    catch (CompletionException | CancellationException e) {
      return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
  }

  /** The rows of {@code parts}, each part's in the query's result order already, merged into that order. */
  private static <T> List<T> merged(List<Part<T>> parts, Query<T> query)
  {
    final List<T> rows = new ArrayList<>();
    parts.forEach(part -> rows.addAll(part.attempt.rows.join()));
    rows.sort(query.getResultOrdering());
    return rows;
  }

  /** One part of a split sub-query, or one hedge of a hedged one: its segments and its request. */
  private static final class Part<T>
  {
    final List<SegmentDescriptor> segments;
    final Attempt<T> attempt;

    Part(List<SegmentDescriptor> segments, Attempt<T> attempt)
    {
      this.segments = segments;
      this.attempt = attempt;
    }

    /** Whether its rows are all in. */
    boolean answered()
    {
      return attempt.rows.isDone() && !attempt.rows.isCompletedExceptionally();
    }
  }

  /**
   * A sampled sub-query that may be hedged: its primary runs under the mature run's id and fail time and is read by the
   * mature runs' threads, its hedges under the query's deadline. The first complete answer by the deadline, the
   * primary's or the hedges', goes on online and is memoised for the mature run. Past the deadline the primary is not
   * cancelled: its answer is the mature run's late one, and the hedges' partial answer, if any, goes on online.
   */
  private Sequence<T> runSampledHedged(QueryPlus<T> bounded, SubQuery sub, MatureRun mature, Hedging.Plan plan)
  {
    final QueryPlus<T> own = bounded.withQuery(matureQuery(sub, mature));
    return runHedged(bounded, () -> attempt(own, matureRuns.matureReader()), sub.context, sub, mature, plan);
  }

  /** A sampled sub-query as its mature run sends it: under the run's own query id and fail time. */
  private Query<T> matureQuery(SubQuery sub, MatureRun mature)
  {
    return sub.query.withId(mature.matureId).withOverriddenContext(ImmutableMap.of(QUERY_FAIL_TIME, mature.failTime));
  }

  /**
   * The sub-answer if it is in by the deadline (then {@code inTime} sees it first and its segments count as answered),
   * else nothing (then {@code whenLate} runs and its segments count as late). Waits when the merge asks for it.
   */
  private Sequence<T> byDeadline(SubQuery sub, CompletableFuture<List<T>> answer, Runnable whenLate, Consumer<List<T>> inTime)
  {
    return byDeadline(sub, answer, () -> {
      whenLate.run();
      return sub.late();
    }, inTime);
  }

  /** As above, with what the sub-query answers when it is late: nothing, or what it has in part. */
  private Sequence<T> byDeadline(
      SubQuery sub,
      CompletableFuture<List<T>> answer,
      Supplier<Sequence<T>> late,
      Consumer<List<T>> inTime
  )
  {
    final long deadline = sub.budgeted.deadlineMillis();
    return new LazySequence<>(() -> {
      final List<T> rows;
      try {
        rows = answer.get(Math.max(0, deadline - clock.getAsLong()), TimeUnit.MILLISECONDS);
      }
      catch (TimeoutException e) {
        return late.get();
      }
      catch (ExecutionException e) {
        final Throwable cause = e.getCause() == null ? e : e.getCause();
        if (isLate(cause, deadline)) {
          return late.get();
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

  /**
   * A sub-query that may be hedged, under the query's deadline if {@code sub} is a budgeted one's: its answer is the
   * first complete one, its Historical's or its hedges', and counts once in the query's response context and coverage.
   */
  private Sequence<T> runHedged(QueryPlus<T> queryPlus, ResponseContext context, @Nullable SubQuery sub, Hedging.Plan plan)
  {
    return runHedged(queryPlus, () -> attempt(queryPlus, reader), context, sub, null, plan);
  }

  /**
   * As above, with the primary sent by {@code sendPrimary}, and, for a sampled sub-query, its {@code mature} run: the
   * answer that goes on online is memoised for it, or the primary's answer comes to it late.
   */
  @SuppressWarnings("unchecked")
  private Sequence<T> runHedged(
      QueryPlus<T> queryPlus,
      Supplier<Attempt<T>> sendPrimary,
      ResponseContext context,
      @Nullable SubQuery sub,
      @Nullable MatureRun mature,
      Hedging.Plan plan
  )
  {
    final Attempt<T> primary;
    try {
      primary = sendPrimary.get();
    }
    catch (RuntimeException e) {
      if (sub != null && isLate(e, sub.budgeted.deadlineMillis())) {
        if (mature != null) {
          mature.late(CompletableFuture.failedFuture(e));
        }
        return sub.late();
      }
      throw e;
    }
    final Race race = new Race(queryPlus, primary, plan, sub == null ? null : sub.budgeted.deadlineMillis(), mature);
    race.start();
    if (sub != null) {
      return byDeadline(
          sub,
          race.settled.thenApply(answer -> answer.rows),
          () -> race.atDeadline(sub, context),
          rows -> {
            if (mature != null) {
              matureRuns.memoise(mature, host, rows);
            }
            race.account(context);
          }
      );
    }
    return new LazySequence<>(() -> {
      try {
        race.settled.get();
      }
      catch (ExecutionException e) {
        final Throwable cause = e.getCause() == null ? e : e.getCause();
        Throwables.throwIfUnchecked(cause);
        throw new RuntimeException(cause);
      }
      catch (InterruptedException e) {
        race.cut();
        Thread.currentThread().interrupt();
        throw new QueryInterruptedException(e);
      }
      return Sequences.simple(race.account(context));
    });
  }

  /**
   * Sends {@code queryPlus} to this client's Historical as stock Druid does, under its own response context, and reads
   * its answer on {@code readBy}. Used for both sides of a hedged sub-query: a hedge is neither budgeted (its segments
   * count once, with its primary's) nor hedged again.
   */
  Attempt<T> attempt(QueryPlus<T> queryPlus, ExecutorService readBy)
  {
    final ResponseContext own = makeResponseContextForQuery();
    final long start = clock.getAsLong();
    final RequestCapture.Sent<Sequence<T>> sent = requests.capturing(() -> super.run(queryPlus, own));
    final String id = queryPlus.getQuery().getId();
    // The server gives up the query by itself at its fail time.
    final long failTime = queryPlus.getQuery().context().getLong(QUERY_FAIL_TIME, start + QueryContexts.DEFAULT_TIMEOUT_MILLIS);
    final CompletableFuture<List<T>> rows = CompletableFuture.supplyAsync(sent.result()::toList, readBy);
    return new Attempt<>(
        host,
        own,
        sent.future(),
        rows,
        start,
        () -> cancellation.execute(() -> cancelOnServer(id, sent.answerEnd(), failTime, 0))
    );
  }

  /**
   * Druid's cancellation of query {@code id} on this client's Historical, sent until the server's answer ends (it has
   * finished or been cancelled): again after 1, 2, 4 and then every 8 s, up to the query's {@code failTime}, when the
   * server gives it up anyway. Once is not enough: a Historical cancels only a query it has registered, which a slow one
   * does late (a groupBy when its merge starts), and a cancel that comes before does nothing. Druid's client cancels only
   * once, and only while the server has not started to answer; a Historical starts its answer early (groupBy does at
   * once) and would then finish a losing attempt's work. Fire and forget: a failed cancel leaves the attempt to end on
   * its own.
   *
   * <p>Sent on the cancellation executor, never on the thread that ends a race: Druid's client makes a request wait
   * for a free connection to its Historical, on the thread that sends it, and a straggler's connections fill with its
   * slow sub-queries; the thread that ends a race delivers its answer only once the loser is cancelled, so a cancel
   * sent there can hold a budgeted answer past its budget (a thread dump of a Broker hedging around a 0.02-core
   * Historical showed cancellations waiting so). The executor, which Druid's own cancellations share, may wait
   * instead.
   */
  private void cancelOnServer(String id, CompletableFuture<Void> answerEnd, long failTime, int sent)
  {
    if (answerEnd.isDone()) {
      return;
    }
    try {
      final long delay = Math.min(CANCEL_RETRY_MILLIS << Math.min(sent, 3), CANCEL_RETRY_MAX_MILLIS);
      if (clock.getAsLong() + delay < failTime) {
        cancellation.schedule(() -> cancelOnServer(id, answerEnd, failTime, sent + 1), delay, TimeUnit.MILLISECONDS);
      }
      final ListenableFuture<StatusResponseHolder> response = httpClient.go(
          new Request(HttpMethod.DELETE, new URL(cancelUrl + StringUtils.urlEncode(id))),
          StatusResponseHandler.getInstance(),
          CANCEL_TIMEOUT
      );
      Futures.addCallback(response, new FutureCallback<>()
      {
        @Override
        public void onSuccess(StatusResponseHolder result)
        {
        }

        @Override
        public void onFailure(Throwable t)
        {
          log.debug(t, "Could not cancel query [%s] on [%s]", id, host);
        }
      }, Execs.directExecutor());
    }
    catch (MalformedURLException | RuntimeException e) {
      log.debug(e, "Could not cancel query [%s] on [%s]", id, host);
    }
  }

  /** One request of a sub-query to one server, read as it arrives. */
  static final class Attempt<T>
  {
    final String host;
    final ResponseContext context;
    @Nullable
    final Future<?> request;
    final CompletableFuture<List<T>> rows;
    final long startMillis;
    private final Runnable cancelOnServer;

    Attempt(
        String host,
        ResponseContext context,
        @Nullable Future<?> request,
        CompletableFuture<List<T>> rows,
        long startMillis,
        Runnable cancelOnServer
    )
    {
      this.host = host;
      this.context = context;
      this.request = request;
      this.rows = rows;
      this.startMillis = startMillis;
      this.cancelOnServer = cancelOnServer;
    }

    /**
     * Cancels the request, and the query on the server until its answer ends: Druid's client cancels it there only
     * while the server has not started answering, and only once.
     */
    void cancel()
    {
      if (request != null) {
        request.cancel(true);
      }
      cancelOnServer.run();
    }
  }

  /**
   * The answer a hedged sub-query uses: its rows, the response contexts they came with, whether hedges sent them, and
   * the segments it lacks, none unless it is the hedges' answer at the deadline (those only the primary's Historical
   * holds, and those of the hedges that had not answered).
   */
  private static final class Answer<T>
  {
    final List<T> rows;
    final List<ResponseContext> contexts;
    final boolean hedged;
    final List<SegmentDescriptor> late;

    Answer(List<T> rows, List<ResponseContext> contexts, boolean hedged, List<SegmentDescriptor> late)
    {
      this.rows = rows;
      this.contexts = contexts;
      this.hedged = hedged;
      this.late = late;
    }
  }

  /**
   * A hedged sub-query's primary against its hedges. The hedges go out at the plan's hedge point if the primary has
   * not answered and the hedge budget allows; {@link #winner} is the first complete answer (the primary's, or all the
   * hedges' merged in the query's result order, so that the Broker's merge still sees one sorted sequence), or the
   * primary's failure once nothing else can answer; at a budgeted query's deadline, what the hedges that answered
   * hold ({@link #atDeadline}). The loser is cancelled.
   *
   * <p>Hedges run under their own query id, so the query's cancellation by id reaches only the primary.
   *
   * <p>The primary of a sampled sub-query outlives a race that ends at the deadline without its answer: that answer is
   * its mature run's.
   *
   * <p>No request goes out while the race's lock is held: Druid's client makes a request wait for a free connection to
   * its Historical, and the lock is what the answer, the deadline and the loser's cancellation need.
   */
  private final class Race
  {
    private final CompletableFuture<Answer<T>> winner = new CompletableFuture<>();
    private final QueryPlus<T> queryPlus;
    private final Attempt<T> primary;
    private final Hedging.Plan plan;
    @Nullable
    private final Long deadlineMillis;
    @Nullable
    private final MatureRun mature;
    /** Set, before the race ends, when the deadline ends it and the primary goes on for the mature run. */
    private volatile boolean primaryOutlivesRace;
    private final AtomicBoolean primaryRecorded = new AtomicBoolean();
    /** The hedges sent, each with its segments. Guarded by this, as are the three below. */
    private final List<Part<T>> hedges = new ArrayList<>();
    @Nullable
    private ScheduledFuture<?> hedgePoint;
    @Nullable
    private Throwable primaryFailure;
    /** Set when the hedges start going out: from then on they may answer, unless {@link #hedgesFailed}. */
    private boolean hedgesSent;
    /** Whether the hedges went because the primary's Historical could not be reached, not because it was late. */
    private volatile boolean failedOver;
    private boolean hedgesFailed;
    /** The winner, once the loser is cancelled and the latencies recorded. */
    private CompletableFuture<Answer<T>> settled;

    /** @param deadlineMillis a budgeted sub-query's deadline, null for one without a budget */
    Race(
        QueryPlus<T> queryPlus,
        Attempt<T> primary,
        Hedging.Plan plan,
        @Nullable Long deadlineMillis,
        @Nullable MatureRun mature
    )
    {
      this.queryPlus = queryPlus;
      this.primary = primary;
      this.plan = plan;
      this.deadlineMillis = deadlineMillis;
      this.mature = mature;
    }

    void start()
    {
      if (plan.upfront) {
        // Copies go with the primary, before it can answer, so that nothing can cancel them unsent.
        hedge();
      } else {
        synchronized (this) {
          hedgePoint = hedging.atHedgePoint(plan, this::hedge);
        }
      }
      primary.rows.whenComplete((rows, failure) -> {
        if (failure == null) {
          recordPrimary(false, true);
          winner.complete(new Answer<>(rows, List.of(primary.context), false, List.of()));
        } else {
          primaryFailed(failure);
        }
      });
      settled = winner.whenComplete(this::settle);
    }

    /**
     * The primary failed: the race fails with it unless hedges may still answer. A primary cancelled before the race
     * is over was cancelled by the query's own cancellation (the query watcher's), which the hedges follow.
     */
    private void primaryFailed(Throwable failure)
    {
      final boolean failOver;
      synchronized (this) {
        primaryFailure = failure;
        failOver = !hedgesSent && hedging.failsOver() && Unreachable.isUnreachable(failure);
      }
      if (failOver) {
        // Nothing to wait for: the hedges go now, outside the hedge budget, since the primary costs no server anything.
        sendHedges(true);
      }
      synchronized (this) {
        if (!hedgesSent || hedgesFailed || (primary.request != null && primary.request.isCancelled())) {
          winner.completeExceptionally(failure);
        }
      }
    }

    /**
     * At the hedge point, or at once for copies sent up front: sends one hedge sub-query per holder of the plan, unless
     * the race is over or the hedge budget is spent.
     */
    private void hedge()
    {
      sendHedges(false);
    }

    /**
     * Sends the hedges once; a failover's go whatever the hedge budget says. Sent outside the race's lock; hedges sent
     * after the race is over are cancelled at once.
     */
    @SuppressWarnings("unchecked")
    private void sendHedges(boolean failover)
    {
      synchronized (this) {
        if (hedgesSent || winner.isDone() || !(failover || hedging.tryHedge(plan))) {
          return;
        }
        hedgesSent = true;
        failedOver = failover;
      }
      final Query<T> query = queryPlus.getQuery();
      final String hedgeId = hedging.hedgeId(query);
      final List<String> unsent = new ArrayList<>();
      plan.groups.keySet().forEach(holder -> unsent.add(holder.host));
      final List<Part<T>> sent = new ArrayList<>();
      try {
        for (Map.Entry<BudgetedDruidClient<?>, List<SegmentDescriptor>> group : plan.groups.entrySet()) {
          if (winner.isDone()) {
            // Over while an earlier hedge waited for a connection: the rest would only load their Historicals.
            hedging.copiesNotSent(plan, unsent);
            break;
          }
          final Query<T> hedge = query.withQuerySegmentSpec(new MultipleSpecificSegmentSpec(group.getValue()))
                                      .withId(hedgeId);
          final BudgetedDruidClient<T> holder = (BudgetedDruidClient<T>) group.getKey();
          final Attempt<T> attempt = holder.attempt(queryPlus.withQuery(hedge), holder.reader);
          unsent.remove(holder.host);
          attempt.rows.whenComplete(
              (rows, failure) -> hedging.copyDone(plan, attempt.host, clock.getAsLong() - attempt.startMillis)
          );
          sent.add(new Part<>(group.getValue(), attempt));
          if (failover) {
            hedging.failedOver(query);
          } else {
            hedging.sent(query, plan);
          }
        }
      }
      catch (RuntimeException e) {
        // A group that could not be sent leaves the hedges incomplete: the primary answers alone.
        hedging.copiesNotSent(plan, unsent);
        sent.forEach(hedge -> hedge.attempt.cancel());
        synchronized (this) {
          hedgesFailed = true;
          if (primaryFailure != null) {
            winner.completeExceptionally(primaryFailure);
          }
        }
        return;
      }
      synchronized (this) {
        if (winner.isDone()) {
          // The race ended while they were sent, and its end cancelled only the hedges it knew of.
          sent.forEach(hedge -> hedge.attempt.cancel());
          return;
        }
        hedges.addAll(sent);
      }
      CompletableFuture.allOf(
          sent.stream()
              .map(hedge -> hedge.attempt.rows.thenRun(
                  () -> hedging.record(hedge.attempt.host, clock.getAsLong() - hedge.attempt.startMillis, false)
              ))
              .toArray(CompletableFuture[]::new)
      ).whenComplete((done, failure) -> hedgesDone(sent, failure));
    }

    /**
     * Every hedge answered, or one failed. A partial plan's hedges do not win the race, since the primary alone answers
     * for the stranded segments: they answer for theirs if the primary misses the deadline ({@link #atDeadline}).
     */
    private synchronized void hedgesDone(List<Part<T>> sent, @Nullable Throwable failure)
    {
      if (failure != null) {
        hedgesFailed = true;
        if (primaryFailure != null) {
          winner.completeExceptionally(primaryFailure);
        }
        return;
      }
      if (!plan.isPartial()) {
        winner.complete(hedgesAnswer(sent, List.of()));
      }
    }

    /** The rows of {@code answered}, merged into the query's result order, lacking the {@code late} segments. */
    private Answer<T> hedgesAnswer(List<Part<T>> answered, List<SegmentDescriptor> late)
    {
      final List<ResponseContext> contexts = new ArrayList<>();
      answered.forEach(hedge -> contexts.add(hedge.attempt.context));
      return new Answer<>(merged(answered, queryPlus.getQuery()), contexts, true, late);
    }

    /** The race is over: the loser is cancelled, or everything if nothing answered. */
    private void settle(@Nullable Answer<T> answer, @Nullable Throwable failure)
    {
      hedging.answered(plan, answer == null ? Double.NaN : clock.getAsLong() - primary.startMillis);
      if (answer != null && answer.hedged) {
        if (!primaryOutlivesRace) {
          primary.cancel();
        }
        synchronized (this) {
          // The hedges of an answer at the deadline that had not answered themselves: their Historicals may still be
          // at work, though the Broker's client has given up on them at the deadline.
          hedges.stream().filter(hedge -> !hedge.answered()).forEach(hedge -> hedge.attempt.cancel());
        }
        // Lost to its hedges before the deadline, it says nothing of how close to the deadline it would have come.
        recordPrimary(true, !answer.late.isEmpty());
        if (!failedOver) {
          hedging.won(queryPlus.getQuery(), plan);
        }
        return;
      }
      if (answer == null) {
        if (!primaryOutlivesRace) {
          primary.cancel();
        }
        // Cut at the deadline: by the race, or by the Broker's client at the fail time, when no hedge went.
        if (failure instanceof CancellationException || (deadlineMillis != null && isLate(failure, deadlineMillis))) {
          recordPrimary(true, true);
        }
      }
      synchronized (this) {
        if (hedgePoint != null) {
          hedgePoint.cancel(false);
        }
        hedges.forEach(hedge -> hedge.attempt.cancel());
      }
    }

    /** The query's reader was interrupted before any answer: everything is cancelled. */
    void cut()
    {
      winner.cancel(false);
    }

    /**
     * The query's deadline passed before a complete answer. If the sub-query may answer in part, the hedges that have
     * answered answer for their segments (the primary cancelled, the hedges still out cancelled, and their segments late
     * with the stranded ones), so that one hedge to a slow holder does not cost the segments the others brought in;
     * otherwise everything is cancelled and every segment is late. A sampled sub-query's primary is not cancelled: its
     * answer goes to the mature run. A hedge cut here counts toward its holder's share of the time to the deadline, so
     * that the policy learns which holders miss deadlines as hedges' targets.
     */
    @SuppressWarnings("unchecked")
    Sequence<T> atDeadline(SubQuery sub, ResponseContext context)
    {
      final List<Part<T>> cut = new ArrayList<>();
      synchronized (this) {
        if (!winner.isDone()) {
          primaryOutlivesRace = mature != null;
          final List<Part<T>> answered = new ArrayList<>();
          final List<SegmentDescriptor> late = new ArrayList<>(plan.stranded);
          for (Part<T> hedge : hedges) {
            if (hedge.answered()) {
              answered.add(hedge);
            } else {
              cut.add(hedge);
              late.addAll(hedge.segments);
            }
          }
          if (answered.isEmpty() || !sub.budgeted.partialAllowed()) {
            winner.cancel(false);
          } else {
            winner.complete(hedgesAnswer(answered, late));
          }
        }
      }
      final long deadline = sub.budgeted.deadlineMillis();
      for (Part<T> hedge : cut) {
        final long start = hedge.attempt.startMillis;
        hedging.recordCutHedge(hedge.attempt.host, clock.getAsLong() - start, deadline - start);
      }
      final List<SegmentDescriptor> late = winner.isCompletedExceptionally() ? null : winner.join().late;
      final boolean complete = late != null && late.isEmpty();
      if (mature != null) {
        if (complete) {
          // The complete answer came in as the deadline passed.
          matureRuns.memoise(mature, host, winner.join().rows);
        } else {
          mature.late((CompletableFuture<List<?>>) (CompletableFuture<?>) primary.rows);
        }
      }
      if (late == null) {
        return sub.late();
      }
      final List<T> rows = account(context);
      sub.budgeted.answeredInTime(sub.intervals.size() - late.size());
      if (!late.isEmpty()) {
        sub.budgeted.late(late.stream().map(s -> s.getInterval().toString()).collect(Collectors.toList()));
      }
      return Sequences.simple(rows);
    }

    /**
     * Records the primary's latency once: when it answers, or when it lost or was cut, so that a stuck server's
     * window learns that it is slow; and whether it {@code lost}, which tells a stuck server from one that answers. A
     * budgeted primary that answered or was cut at the deadline also counts toward its server's share of the time to
     * the deadline ({@code toDeadline}), as an unhedged one does.
     */
    private void recordPrimary(boolean lost, boolean toDeadline)
    {
      if (primaryRecorded.compareAndSet(false, true)) {
        final long millis = clock.getAsLong() - primary.startMillis;
        if (deadlineMillis == null || !toDeadline) {
          hedging.record(primary.host, millis, lost);
        } else {
          hedging.recordBudgeted(primary.host, millis, deadlineMillis - primary.startMillis, lost);
        }
      }
    }

    /**
     * The winning rows, with their servers' response contexts (missing segments and all) merged into the query's. The
     * sub-query ran under its own contexts, so its response is accounted for here, once.
     */
    List<T> account(ResponseContext context)
    {
      final Answer<T> answer = winner.join();
      for (ResponseContext own : answer.contexts) {
        removeMagicResponseContextFields(own);
        context.merge(own);
      }
      context.addRemainingResponse(queryPlus.getQuery().getMostSpecificId(), -1);
      return answer.rows;
    }
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

  /** The segments a sub-query of specific segments asks for. */
  private static List<SegmentDescriptor> descriptors(Query<?> query)
  {
    return ((MultipleSpecificSegmentSpec) ((BaseQuery<?>) query).getQuerySegmentSpec()).getDescriptors();
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
