package org.getafix.quality;

import com.google.inject.Inject;
import org.apache.druid.java.util.common.StringUtils;
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
import org.getafix.core.contract.QualityKnobs;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.joda.time.Interval;

import java.util.List;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The Broker's {@link QuerySegmentWalker}: Druid's {@link ClientQuerySegmentWalker}, through which native and SQL
 * queries both run, with budgets. A query that {@link BudgetedQueries#start starts} as a {@link BudgetedQuery} (it
 * asks for a budget with {@value QueryContextKeys#BUDGET_MS}, or its datasource or lane is under {@link BudgetControl})
 * is planned and run as its stamped self, and its answer is held back until every Historical has answered or been cut
 * off, so that the response context, which Druid sends as a header before the first result, carries the whole
 * coverage. Then the query's listeners hear of its answer, or of its failure; a partial answer the query does not
 * allow is a failure, a timeout (HTTP 504) as in stock Druid. A budget runs, and a response time counts, from the
 * arrival of the request that asked for the query to the end of its response ({@link RequestClock}).
 *
 * <p>Any other query is Druid's: a query that {@link BudgetedQueries#leavesToDruid leaves} nothing for the quality
 * monitor to do gets Druid's own runner, untouched, decided once from a few lookups before anything else, so that a
 * Broker with the extension costs a query without a budget nothing here. An unbudgeted query is looked at only while
 * a Broker-wide concern watches every query: with {@link Admission} control on it may be shed, and a high-priority
 * one reports its timeout; with {@link Replays} on it is counted in flight while its results are read, and its
 * arrival noted, since replays run when the Broker is idle.
 *
 * <p>The inner runner is made for the stamped query and is handed that same query object: Druid's
 * {@code QuerySwappingQueryRunner} accepts no other.
 */
public class BudgetedQuerySegmentWalker implements QuerySegmentWalker
{
  private final QuerySegmentWalker delegate;
  private final BudgetedQueries budgetedQueries;
  private final Admission admission;
  private final Replays replays;
  private final RequestClock requestClock;
  private final LongSupplier clock;

  @Inject
  public BudgetedQuerySegmentWalker(
      ClientQuerySegmentWalker delegate,
      BudgetedQueries budgetedQueries,
      Admission admission,
      Replays replays,
      RequestClock requestClock
  )
  {
    this(delegate, budgetedQueries, admission, replays, requestClock, System::currentTimeMillis);
  }

  BudgetedQuerySegmentWalker(
      QuerySegmentWalker delegate,
      BudgetedQueries budgetedQueries,
      Admission admission,
      Replays replays,
      RequestClock requestClock,
      LongSupplier clock
  )
  {
    this.delegate = delegate;
    this.budgetedQueries = budgetedQueries;
    this.admission = admission;
    this.replays = replays;
    this.requestClock = requestClock;
    this.clock = clock;
  }

  @Override
  public <T> QueryRunner<T> getQueryRunnerForIntervals(Query<T> query, Iterable<Interval> intervals)
  {
    if (budgetedQueries.leavesToDruid(query)) {
      return delegate.getQueryRunnerForIntervals(query, intervals);
    }
    return budgeted(query, stamped -> delegate.getQueryRunnerForIntervals(stamped, intervals));
  }

  @Override
  public <T> QueryRunner<T> getQueryRunnerForSegments(Query<T> query, Iterable<SegmentDescriptor> specs)
  {
    if (budgetedQueries.leavesToDruid(query)) {
      return delegate.getQueryRunnerForSegments(query, specs);
    }
    return budgeted(query, stamped -> delegate.getQueryRunnerForSegments(stamped, specs));
  }

  private <T> QueryRunner<T> budgeted(Query<T> query, Function<Query<T>, QueryRunner<T>> runnerFor)
  {
    final long now = clock.getAsLong();
    // A query served in a request counts from the request's arrival and to its response's end (RequestClock): its
    // budget then holds for what its client waits, SQL planning and the writing of the rows included.
    final RequestClock.ServedRequest request = requestClock.current();
    final long start = request == null ? now : request.arrivalMillis();
    final BudgetedQuery<T> budgeted = budgetedQueries.start(query, start);
    replays.arrived(now);
    if (budgeted == null) {
      return replays.counted(watchTimeout(query, runnerFor.apply(query)));
    }
    final Query<T> stamped = budgeted.stamped();
    final QueryRunner<T> inner = runnerFor.apply(stamped);
    return replays.counted((queryPlus, responseContext) -> {
      final Sequence<T> results = inner.run(queryPlus.withQuery(stamped), responseContext);
      return new LazySequence<>(() -> {
        final List<T> rows;
        try {
          rows = results.toList();
        }
        catch (RuntimeException e) {
          budgetedQueries.ended(budgeted);
          budgeted.failed(e);
          throw e;
        }
        final long elapsed = clock.getAsLong() - start;
        budgetedQueries.ended(budgeted);
        final Coverage coverage = budgeted.coverage();
        if (coverage.timedOut() && !budgeted.partialAllowed()) {
          final QueryTimeoutException refused = new QueryTimeoutException(StringUtils.format(
              "Query [%s] did not answer whole within its budget of [%,d] ms: [%,d] of its [%,d] segments were late, "
              + "and it does not allow a partial answer ([%s], [%s.wholeAnswerDataSources]).",
              query.getId(),
              budgeted.budget().millis(),
              coverage.late(),
              coverage.total(),
              QueryContextKeys.ALLOW_PARTIAL,
              QualityKnobs.PREFIX
          ));
          budgeted.failed(refused);
          throw refused;
        }
        // A query that reached no Historical still states its (empty, complete) coverage.
        CoverageKey.add(responseContext, coverage);
        budgeted.answered(rows, elapsed);
        return Sequences.wrap(Sequences.simple(rows), new SequenceWrapper()
        {
          @Override
          public void after(boolean isDone, Throwable thrown)
          {
            if (!isDone) {
              return;
            }
            final LongConsumer atResponseEnd = endMillis -> {
              if (thrown == null) {
                // The time a controller holds to its target includes the merge and the writing of the rows, which
                // under load take a share of the response time its client sees.
                budgeted.delivered(endMillis - start);
              }
              if (coverage.timedOut()) {
                // It waited until its deadline: how long its merge and the writing of its rows take from there sets
                // the reserve later deadlines keep.
                budgetedQueries.answeredAfterDeadline(endMillis - budgeted.deadlineMillis());
              }
            };
            if (request == null || !request.whenEnded(atResponseEnd)) {
              atResponseEnd.accept(clock.getAsLong());
            }
          }
        });
      });
    });
  }

  /** An unbudgeted query as in stock Druid; with admission control on, it reports its end if admission watches it. */
  private <T> QueryRunner<T> watchTimeout(Query<T> query, QueryRunner<T> runner)
  {
    if (!admission.isEnabled() || !admission.watchesEnd(query)) {
      return runner;
    }
    return (queryPlus, responseContext) -> Sequences.wrap(
        runner.run(queryPlus, responseContext),
        new SequenceWrapper()
        {
          @Override
          public void after(boolean isDone, Throwable thrown)
          {
            if (thrown != null) {
              admission.failed(query, thrown);
            } else if (isDone) {
              admission.completed(query, false);
            } else {
              admission.abandoned(query);
            }
          }
        }
    );
  }
}
