package org.getafix.quality;

import org.apache.druid.error.DruidException;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.emitter.core.NoopEmitter;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContexts;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.QuerySegmentWalker;
import org.apache.druid.query.Result;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.apache.druid.query.timeseries.TimeseriesResultValue;
import org.joda.time.Interval;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BudgetedQuerySegmentWalkerTest
{
  private static final long NOW = 1_000_000L;

  /** Records the queries it is asked to plan and run; answers nothing. */
  private static final class RecordingWalker implements QuerySegmentWalker
  {
    final List<Query<?>> planned = new ArrayList<>();
    final List<Query<?>> ran = new ArrayList<>();

    @Override
    public <T> QueryRunner<T> getQueryRunnerForIntervals(Query<T> query, Iterable<Interval> intervals)
    {
      return runnerFor(query);
    }

    @Override
    public <T> QueryRunner<T> getQueryRunnerForSegments(Query<T> query, Iterable<SegmentDescriptor> specs)
    {
      return runnerFor(query);
    }

    private <T> QueryRunner<T> runnerFor(Query<T> query)
    {
      planned.add(query);
      return (QueryPlus<T> queryPlus, ResponseContext context) -> {
        // Druid's QuerySwappingQueryRunner accepts only the query its runner was made for.
        assertSame(query, queryPlus.getQuery());
        ran.add(queryPlus.getQuery());
        return Sequences.empty();
      };
    }
  }

  /** Queries without an id are never sampled, so no mature run needs a toolchest here. */
  private static MatureRuns matureRuns()
  {
    return new MatureRuns(
        QualityConfig.defaults(),
        new ServiceEmitter("broker", "localhost", new NoopEmitter()),
        null,
        new DefaultObjectMapper()
    );
  }

  private static TimeseriesQuery query(Map<String, Object> context)
  {
    return Druids.newTimeseriesQueryBuilder()
                 .dataSource("ds")
                 .intervals("2025-01-01/2025-01-02")
                 .aggregators(new CountAggregatorFactory("rows"))
                 .context(context)
                 .build();
  }

  private static List<Result<TimeseriesResultValue>> run(QuerySegmentWalker walker, TimeseriesQuery query, ResponseContext context)
  {
    final QueryRunner<Result<TimeseriesResultValue>> runner =
        walker.getQueryRunnerForIntervals(query, List.of(Intervals.of("2025-01-01/2025-01-02")));
    final Sequence<Result<TimeseriesResultValue>> results = runner.run(QueryPlus.wrap(query), context);
    return results.toList();
  }

  @Test
  void aQueryWithoutBudgetRunsUntouched()
  {
    final RecordingWalker inner = new RecordingWalker();
    final BudgetedQuerySegmentWalker walker = new BudgetedQuerySegmentWalker(inner, QualityConfig.defaults(), matureRuns(), () -> NOW);
    final TimeseriesQuery query = query(Map.of());
    final ResponseContext context = ResponseContext.createEmpty();
    run(walker, query, context);
    assertSame(query, inner.planned.get(0));
    assertSame(query, inner.ran.get(0));
    assertNull(context.get(CoverageKey.register()), "no coverage without a budget");
  }

  @Test
  void aBudgetedQueryCarriesItsDeadlineWithCachesOffAndStatesItsCoverage()
  {
    final RecordingWalker inner = new RecordingWalker();
    final BudgetedQuerySegmentWalker walker = new BudgetedQuerySegmentWalker(inner, QualityConfig.defaults(), matureRuns(), () -> NOW);
    final ResponseContext context = ResponseContext.createEmpty();
    run(walker, query(Map.of(QueryBudget.BUDGET_KEY, 250)), context);
    final Query<?> stamped = inner.ran.get(0);
    assertSame(inner.planned.get(0), stamped);
    assertEquals(NOW + 250, QueryBudget.deadlineOf(stamped));
    for (String cache : List.of(QueryContexts.USE_CACHE_KEY, QueryContexts.POPULATE_CACHE_KEY,
                                QueryContexts.USE_RESULT_LEVEL_CACHE_KEY, QueryContexts.POPULATE_RESULT_LEVEL_CACHE_KEY)) {
      assertFalse(stamped.context().getBoolean(cache, true), cache);
    }
    final Coverage coverage = CoverageKey.of(context);
    assertEquals(0, coverage.getTotal(), "no Historical was asked");
    assertFalse(coverage.isTimedOut());
    assertTrue(context.get(CoverageKey.register()) instanceof Coverage, "stated even when empty");
  }

  @Test
  void aDeadlineWithoutBudgetDoesNothing()
  {
    assertNull(QueryBudget.deadlineOf(query(Map.of(QueryBudget.DEADLINE_KEY, NOW))));
  }

  @Test
  void aBadBudgetIsRejectedBeforeAnythingRuns()
  {
    final RecordingWalker inner = new RecordingWalker();
    final BudgetedQuerySegmentWalker walker = new BudgetedQuerySegmentWalker(inner, QualityConfig.defaults(), matureRuns(), () -> NOW);
    final DruidException e = assertThrows(
        DruidException.class,
        () -> run(walker, query(Map.of(QueryBudget.BUDGET_KEY, "soon")), ResponseContext.createEmpty())
    );
    assertEquals(400, e.getStatusCode());
    assertTrue(inner.planned.isEmpty());
  }
}
