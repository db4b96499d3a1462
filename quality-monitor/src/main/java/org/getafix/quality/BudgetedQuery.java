package org.getafix.quality;

import com.google.common.collect.ImmutableMap;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContexts;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One budgeted query's life on the Broker: its budget and deadline, its coverage as the Historicals' sub-queries
 * answer or miss the deadline, its mature run if it was sampled, and the concerns that hear how it went. Made by
 * {@link BudgetedQueries} when the query starts; its sub-queries find it again through the reference that
 * {@link #stamped()} carries in their context.
 *
 * <p>Each concern (budget control, admission, mature runs, metrics) is a {@link Listener}, as in Netflix
 * concurrency-limits' {@code Limiter.Listener}: it learns of the online answer, of a failure before it, and of the
 * quality a mature run measured. A listener that throws is logged and does not fail the query or the other
 * listeners.
 *
 * @param <T> the query's result type
 */
public final class BudgetedQuery<T>
{
  private static final Logger log = new Logger(BudgetedQuery.class);

  private final Query<T> query;
  private final Query<T> stamped;
  private final QueryBudget budget;
  private final long startMillis;
  private final long deadlineMillis;
  private final boolean partialAllowed;
  @Nullable
  private final MatureRun matureRun;
  private final boolean skippedSample;
  private final List<Listener> listeners;
  private final AtomicReference<Coverage> coverage = new AtomicReference<>(Coverage.none());

  /** Hears how a budgeted query went. Every method runs on a query or mature-run thread and must not block. */
  public interface Listener
  {
    /**
     * The online answer is complete, {@code elapsedMillis} after the query {@link #startMillis() started};
     * {@link #coverage()} is final.
     */
    default void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
    {
    }

    /**
     * The online answer has gone to its client, {@code elapsedMillis} after the query {@link #startMillis() started}:
     * what its client waits ({@link RequestClock}). Not called for an answer the client stopped reading.
     */
    default void onDelivered(BudgetedQuery<?> query, long elapsedMillis)
    {
    }

    /** The query failed before its online answer. */
    default void onFailed(BudgetedQuery<?> query, Throwable cause)
    {
    }

    /** The query's mature run measured the quality of its online answer. */
    default void onQualityMeasured(BudgetedQuery<?> query, AnswerQuality quality)
    {
    }
  }

  /**
   * @param query     the query as asked
   * @param reference      the unguessable {@value QueryContextKeys#QUERY_REF} its sub-queries carry
   * @param reserveMillis  how long before the budget ends it stops waiting for Historicals, to merge and send
   * @param partialAllowed whether it answers with what came in by the deadline, or fails if anything was late
   * @param matureRun      its mature run, null if it is not sampled or was skipped
   * @param skippedSample  whether it was sampled but got no mature run: {@code maxMatureRuns} were in flight
   */
  BudgetedQuery(
      Query<T> query,
      String reference,
      QueryBudget budget,
      long reserveMillis,
      long startMillis,
      boolean partialAllowed,
      @Nullable MatureRun matureRun,
      boolean skippedSample,
      List<Listener> listeners
  )
  {
    this.query = query;
    this.budget = budget;
    this.startMillis = startMillis;
    this.deadlineMillis = startMillis + budget.millis() - reserveMillis;
    this.partialAllowed = partialAllowed;
    this.matureRun = matureRun;
    this.skippedSample = skippedSample;
    this.listeners = List.copyOf(listeners);
    // In whole milliseconds, so that a controller-set budget is visible too. The Broker's caches are off: a partial
    // answer must not be stored as the answer, and a segment answered from the Broker's own cache would not be
    // counted in the coverage. The Historicals get their segment cache back (forHistoricals).
    this.stamped = query.withOverriddenContext(ImmutableMap.of(
        QueryContextKeys.BUDGET_MS, budget.millis(),
        QueryContextKeys.QUERY_REF, reference,
        QueryContexts.USE_CACHE_KEY, false,
        QueryContexts.POPULATE_CACHE_KEY, false,
        QueryContexts.USE_RESULT_LEVEL_CACHE_KEY, false,
        QueryContexts.POPULATE_RESULT_LEVEL_CACHE_KEY, false
    ));
  }

  /**
   * {@code subQuery} as a Historical should run it: with the segment cache as the query asked (Druid's default: on),
   * since {@link #stamped} turns caching off for the Broker's caches only. A Historical caches each segment's whole
   * result, so a cached segment is as answered as a scanned one.
   */
  public <S> Query<S> forHistoricals(Query<S> subQuery)
  {
    return subQuery.withOverriddenContext(ImmutableMap.of(
        QueryContexts.USE_CACHE_KEY, query.context().getBoolean(QueryContexts.USE_CACHE_KEY, true),
        QueryContexts.POPULATE_CACHE_KEY, query.context().getBoolean(QueryContexts.POPULATE_CACHE_KEY, true)
    ));
  }

  /** The query as asked. */
  public Query<T> query()
  {
    return query;
  }

  /** The query as Druid plans and runs it: with its budget, its reference and the Broker's caches off. */
  public Query<T> stamped()
  {
    return stamped;
  }

  public QueryBudget budget()
  {
    return budget;
  }

  /**
   * When the query's budget started, epoch milliseconds: its request's arrival at the Broker ({@link RequestClock}), or
   * when it reached the walker if no request of a client's is behind it.
   */
  public long startMillis()
  {
    return startMillis;
  }

  /**
   * When the online answer stops waiting for Historicals and is formed from what has come in: start plus budget, less
   * the reserve its merge and serialisation take, epoch milliseconds.
   */
  public long deadlineMillis()
  {
    return deadlineMillis;
  }

  /** Whether the query answers with what came in by the deadline; if not, a late sub-query fails it. */
  public boolean partialAllowed()
  {
    return partialAllowed;
  }

  @Nullable
  MatureRun matureRun()
  {
    return matureRun;
  }

  /** Sampled, but no mature run had room: its quality is measured only if a replay measures it later. */
  boolean skippedSample()
  {
    return skippedSample;
  }

  /** What the sub-queries have covered so far; final once the query is answered. */
  public Coverage coverage()
  {
    return coverage.get();
  }

  /** A sub-query's segments answered by the deadline. */
  void answeredInTime(int segments)
  {
    coverage.accumulateAndGet(Coverage.answered(segments), Coverage::plus);
  }

  /** A sub-query's segments cut off at the deadline, one interval each. */
  void late(List<String> intervals)
  {
    coverage.accumulateAndGet(Coverage.late(intervals), Coverage::plus);
  }

  void answered(List<T> rows, long elapsedMillis)
  {
    tell("answer", listener -> listener.onAnswered(this, rows, elapsedMillis));
  }

  void delivered(long elapsedMillis)
  {
    tell("delivery", listener -> listener.onDelivered(this, elapsedMillis));
  }

  void failed(Throwable cause)
  {
    tell("failure", listener -> listener.onFailed(this, cause));
  }

  void measured(AnswerQuality quality)
  {
    tell("quality", listener -> listener.onQualityMeasured(this, quality));
  }

  private void tell(String event, Consumer<Listener> call)
  {
    for (Listener listener : listeners) {
      try {
        call.accept(listener);
      }
      catch (RuntimeException e) {
        log.warn(e, "Listener [%s] failed on the %s of query [%s]", listener.getClass().getSimpleName(), event, query.getId());
      }
    }
  }
}
