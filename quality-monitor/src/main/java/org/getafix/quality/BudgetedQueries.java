package org.getafix.quality;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.inject.Inject;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContext;
import org.getafix.core.quality.control.BudgetController;
import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;
import java.util.List;
import java.util.UUID;

/**
 * Where budgeted queries begin and where their sub-queries find them. {@link #start} budgets a query (its own
 * {@value QueryContextKeys#BUDGET_MS}, else its controller's or its share of it ({@link BudgetSplit}), else none), lets
 * {@link Admission} shed it, and makes its {@link BudgetedQuery} with the Broker's concerns as listeners; a
 * per-Historical client finds that query again by the reference in a sub-query's context ({@link #of}).
 *
 * <p>Queries are held weakly: a query's runner and its sub-queries hold it while it runs, so one that Druid plans
 * but never runs, or whose client goes away, leaves nothing behind.
 */
public class BudgetedQueries
{
  private final QualityConfig config;
  private final Admission admission;
  private final BudgetControl budgetControl;
  private final BudgetSplit budgetSplit;
  private final MatureRuns matureRuns;
  private final List<BudgetedQuery.Listener> listeners;
  private final Cache<String, BudgetedQuery<?>> running = Caffeine.newBuilder().weakValues().build();
  private final DeadlineReserve deadlineReserve;
  /** Whether a Broker-wide concern (admission control, replays) sees every query, budgeted or not. */
  private final boolean watchesEveryQuery;

  @Inject
  public BudgetedQueries(
      QualityConfig config,
      Admission admission,
      BudgetControl budgetControl,
      BudgetSplit budgetSplit,
      MatureRuns matureRuns,
      QualityMetrics metrics,
      QualityProfiles profiles,
      RecentCoverage recentCoverage,
      DeadlineReserve deadlineReserve,
      Replays replays
  )
  {
    this.config = config;
    this.admission = admission;
    this.budgetControl = budgetControl;
    this.budgetSplit = budgetSplit;
    this.matureRuns = matureRuns;
    this.listeners = List.of(metrics, budgetControl, budgetSplit, admission, matureRuns, profiles, recentCoverage, replays);
    this.deadlineReserve = deadlineReserve;
    this.watchesEveryQuery = admission.isEnabled() || replays.isOn();
  }

  /**
   * Whether the quality monitor has nothing to do with {@code query}, which then runs as Druid runs it: it asks for no
   * budget (nor a split of one's sub-queries, which {@link #start} would check), no controller budgets it, and neither admission
   * control nor replays watch every query. A few lookups, made once per query before anything else, so that a query
   * without a budget pays for nothing it does not use.
   */
  public boolean leavesToDruid(Query<?> query)
  {
    if (watchesEveryQuery) {
      return false;
    }
    final QueryContext context = query.context();
    return context.get(QueryContextKeys.BUDGET_MS) == null
           && context.get(QueryContextKeys.SPLIT) == null
           && context.get(QueryContextKeys.SPLIT_WHEN) == null
           && budgetControl.controllerOf(query) == null;
  }

  /**
   * A query that waited until its deadline (some segment was late) sent its last byte {@code millis} after it: the
   * time its merge and serialisation take, which later deadlines keep in reserve.
   */
  void answeredAfterDeadline(long millis)
  {
    deadlineReserve.recordAfterDeadline(millis);
  }

  /**
   * {@code query} as a budgeted query starting at {@code startMillis}, or null if it has no budget.
   *
   * @throws org.apache.druid.error.DruidException (HTTP 400) for a bad budget, before anything else happens, or a bad
   *                                               {@value QueryContextKeys#SPLIT} or
   *                                               {@value QueryContextKeys#SPLIT_WHEN}
   * @throws org.apache.druid.query.QueryCapacityExceededException (HTTP 429) for a query admission control sheds
   */
  @Nullable
  public <T> BudgetedQuery<T> start(Query<T> query, long startMillis)
  {
    final QueryBudget asked = QueryBudget.askedIn(query.context(), config.getMaxBudgetMs());
    // Refused here, with a 400, rather than where a sub-query is split, once the query has started.
    Hedging.maxSplit(query.context(), config.getMaxSplit());
    Hedging.splitWhen(query.context(), config.getSplitWhen());
    admission.admit(query);
    final BudgetController controller = asked == null ? budgetControl.controllerOf(query) : null;
    if (asked == null && controller == null) {
      return null;
    }
    final QueryBudget budget = asked != null ? asked : budgetSplit.start(query, controller, startMillis);
    final MatureRun matureRun = matureRuns.sample(query, startMillis);
    final BudgetedQuery<T> budgeted = new BudgetedQuery<>(
        query,
        UUID.randomUUID().toString(),
        budget,
        deadlineReserve.reserveMillis(budget.millis()),
        startMillis,
        allowsPartialAnswers(query),
        matureRun,
        matureRun == null && matureRuns.sampled(query),
        listeners
    );
    running.put(reference(budgeted.stamped()), budgeted);
    return budgeted;
  }

  /**
   * Whether {@code query} may answer with part of its data: its own {@value QueryContextKeys#ALLOW_PARTIAL} if set,
   * else unless it reads a datasource in {@code wholeAnswerDataSources}.
   */
  private boolean allowsPartialAnswers(Query<?> query)
  {
    final Boolean asked = query.context().getBoolean(QueryContextKeys.ALLOW_PARTIAL);
    if (asked != null) {
      return asked;
    }
    return query.getDataSource().getTableNames().stream().noneMatch(config.getWholeAnswerDataSources()::contains);
  }

  /** The budgeted query {@code subQuery} belongs to, or null if it belongs to none that is running here. */
  @Nullable
  public BudgetedQuery<?> of(Query<?> subQuery)
  {
    final Object reference = subQuery.context().get(QueryContextKeys.QUERY_REF);
    return reference == null ? null : running.getIfPresent(reference.toString());
  }

  /** The query has answered or failed: its late sub-queries keep their own hold on it. */
  void ended(BudgetedQuery<?> query)
  {
    running.invalidate(reference(query.stamped()));
    budgetSplit.ended(query.budget());
  }

  private static String reference(Query<?> stamped)
  {
    return String.valueOf(stamped.context().get(QueryContextKeys.QUERY_REF));
  }
}
