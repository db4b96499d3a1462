package org.getafix.quality;

import com.google.inject.Inject;
import org.apache.druid.java.util.common.guava.LazySequence;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.QuerySegmentWalker;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.server.ClientQuerySegmentWalker;
import org.joda.time.Interval;

import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The Broker's {@link QuerySegmentWalker}: Druid's {@link ClientQuerySegmentWalker}, through which native and SQL
 * queries both run, with budgets. A query with a valid {@value QueryBudget#BUDGET_KEY} is stamped with its absolute
 * deadline (and its caches off) before Druid plans it, and its answer is held back until every Historical has answered
 * or been cut off, so that the response context, which Druid sends as a header before the first result, carries the
 * whole {@link Coverage}. A query without a budget runs exactly as in stock Druid.
 *
 * <p>The inner runner is made for the stamped query and is handed that same query object: Druid's
 * {@code QuerySwappingQueryRunner} accepts no other.
 */
public class BudgetedQuerySegmentWalker implements QuerySegmentWalker
{
  private final QuerySegmentWalker delegate;
  private final QualityConfig config;
  private final MatureRuns matureRuns;
  private final LongSupplier clock;

  @Inject
  public BudgetedQuerySegmentWalker(ClientQuerySegmentWalker delegate, QualityConfig config, MatureRuns matureRuns)
  {
    this(delegate, config, matureRuns, System::currentTimeMillis);
  }

  BudgetedQuerySegmentWalker(
      QuerySegmentWalker delegate,
      QualityConfig config,
      MatureRuns matureRuns,
      LongSupplier clock
  )
  {
    this.delegate = delegate;
    this.config = config;
    this.matureRuns = matureRuns;
    this.clock = clock;
  }

  @Override
  public <T> QueryRunner<T> getQueryRunnerForIntervals(Query<T> query, Iterable<Interval> intervals)
  {
    return budgeted(query, stamped -> delegate.getQueryRunnerForIntervals(stamped, intervals));
  }

  @Override
  public <T> QueryRunner<T> getQueryRunnerForSegments(Query<T> query, Iterable<SegmentDescriptor> specs)
  {
    return budgeted(query, stamped -> delegate.getQueryRunnerForSegments(stamped, specs));
  }

  private <T> QueryRunner<T> budgeted(Query<T> query, Function<Query<T>, QueryRunner<T>> runnerFor)
  {
    final QueryBudget budget = QueryBudget.from(query.context(), config.getMaxBudgetMs());
    if (budget == null) {
      return runnerFor.apply(query);
    }
    final long start = clock.getAsLong();
    final Query<T> stamped = matureRuns.maybeSample(budget.stamp(query, start), start);
    final QueryRunner<T> inner = runnerFor.apply(stamped);
    return (queryPlus, responseContext) -> {
      final Sequence<T> results = inner.run(queryPlus.withQuery(stamped), responseContext);
      return new LazySequence<>(() -> {
        final List<T> rows;
        try {
          rows = results.toList();
        }
        catch (RuntimeException e) {
          matureRuns.abandoned(stamped);
          throw e;
        }
        // A query that reached no Historical still states its (empty, complete) coverage.
        CoverageKey.add(responseContext, Coverage.none());
        matureRuns.answered(stamped, rows, CoverageKey.of(responseContext), budget.millis(), clock.getAsLong() - start);
        return Sequences.simple(rows);
      });
    };
  }
}
