package org.getafix.quality;

import com.google.inject.Inject;
import org.apache.druid.java.util.common.guava.LazySequence;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.SequenceWrapper;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.QuerySegmentWalker;
import org.apache.druid.query.QueryTimeoutException;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.server.ClientQuerySegmentWalker;
import org.getafix.core.quality.control.FeedbackBudgetController;
import org.joda.time.Interval;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The Broker's {@link QuerySegmentWalker}: Druid's {@link ClientQuerySegmentWalker}, through which native and SQL
 * queries both run, with budgets. A query with a valid {@value QueryBudget#BUDGET_KEY} is stamped with its absolute
 * deadline (and its caches off) before Druid plans it, and its answer is held back until every Historical has answered
 * or been cut off, so that the response context, which Druid sends as a header before the first result, carries the
 * whole {@link Coverage}. A query on a datasource under {@link BudgetControl} that asks for no budget gets the
 * controller's, and feeds its response time back. {@link Admission} control (off by default) may shed a
 * low-priority query before it runs. Any other query without a budget runs exactly as in stock Druid.
 *
 * <p>The inner runner is made for the stamped query and is handed that same query object: Druid's
 * {@code QuerySwappingQueryRunner} accepts no other.
 */
public class BudgetedQuerySegmentWalker implements QuerySegmentWalker
{
  private final QuerySegmentWalker delegate;
  private final QualityConfig config;
  private final MatureRuns matureRuns;
  private final BudgetControl budgetControl;
  private final Admission admission;
  private final LongSupplier clock;

  @Inject
  public BudgetedQuerySegmentWalker(
      ClientQuerySegmentWalker delegate,
      QualityConfig config,
      MatureRuns matureRuns,
      BudgetControl budgetControl,
      Admission admission
  )
  {
    this(delegate, config, matureRuns, budgetControl, admission, System::currentTimeMillis);
  }

  BudgetedQuerySegmentWalker(
      QuerySegmentWalker delegate,
      QualityConfig config,
      MatureRuns matureRuns,
      BudgetControl budgetControl,
      Admission admission,
      LongSupplier clock
  )
  {
    this.delegate = delegate;
    this.config = config;
    this.matureRuns = matureRuns;
    this.budgetControl = budgetControl;
    this.admission = admission;
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
    final QueryBudget asked = QueryBudget.from(query.context(), config.getMaxBudgetMs());
    // After the budget's validation, so that a bad one is a 400 whatever the load.
    admission.admit(query);
    final FeedbackBudgetController controller = asked == null ? budgetControl.controllerOf(query) : null;
    if (asked == null && controller == null) {
      return watchTimeout(query, runnerFor.apply(query));
    }
    final QueryBudget budget = asked != null ? asked : QueryBudget.ofMillis(BudgetControl.budgetMillis(controller));
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
          admission.completed(query, isTimeout(e));
          throw e;
        }
        final long elapsed = clock.getAsLong() - start;
        // A query that reached no Historical still states its (empty, complete) coverage.
        CoverageKey.add(responseContext, Coverage.none());
        final Coverage coverage = CoverageKey.of(responseContext);
        if (controller != null) {
          budgetControl.answered(stamped, controller, budget.millis(), elapsed);
        }
        admission.completed(query, coverage.isTimedOut());
        matureRuns.answered(stamped, rows, coverage, budget.millis(), elapsed, controller != null)
                  .thenAccept(quality -> {
                    if (quality != null) {
                      admission.measured(query, quality.quality());
                    }
                  });
        return Sequences.simple(rows);
      });
    };
  }

  /** An unbudgeted query as in stock Druid; with admission control on, a high-priority one reports its timeout. */
  private <T> QueryRunner<T> watchTimeout(Query<T> query, QueryRunner<T> runner)
  {
    if (!admission.isEnabled() || !admission.isHighPriority(query)) {
      return runner;
    }
    return (queryPlus, responseContext) -> Sequences.wrap(
        runner.run(queryPlus, responseContext),
        new SequenceWrapper()
        {
          @Override
          public void after(boolean isDone, Throwable thrown)
          {
            if (isDone || thrown != null) {
              admission.completed(query, isTimeout(thrown));
            }
          }
        }
    );
  }

  private static boolean isTimeout(@Nullable Throwable thrown)
  {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof QueryTimeoutException) {
        return true;
      }
    }
    return false;
  }

  Map<String, Object> budgetControlState()
  {
    return budgetControl.state();
  }

  Map<String, Object> admissionState()
  {
    return admission.state();
  }
}
