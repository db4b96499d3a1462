package org.getafix.quality;

import org.apache.druid.error.DruidException;
import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.java.util.common.guava.LazySequence;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.emitter.core.NoopEmitter;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryCapacityExceededException;
import org.apache.druid.query.QueryContexts;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryTimeoutException;
import org.apache.druid.query.QueryRunner;
import org.apache.druid.query.QuerySegmentWalker;
import org.apache.druid.query.Result;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.query.metadata.metadata.SegmentMetadataQuery;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.apache.druid.query.timeseries.TimeseriesResultValue;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.joda.time.Interval;
import org.getafix.core.quality.control.DeadlineReserve;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
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
    /** The runners it made, in order: what the Broker's walker hands Druid when it adds nothing. */
    final List<QueryRunner<?>> runners = new ArrayList<>();
    final List<Query<?>> ran = new ArrayList<>();
    /** The deadline of each query run, as its sub-queries would find it; null for an unbudgeted one. */
    final List<Long> deadlines = new ArrayList<>();
    BudgetedQueries budgetedQueries;

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
      final QueryRunner<T> runner = (QueryPlus<T> queryPlus, ResponseContext context) -> {
        // Druid's QuerySwappingQueryRunner accepts only the query its runner was made for.
        assertSame(query, queryPlus.getQuery());
        ran.add(queryPlus.getQuery());
        final BudgetedQuery<?> budgeted = budgetedQueries.of(queryPlus.getQuery());
        deadlines.add(budgeted == null ? null : budgeted.deadlineMillis());
        return Sequences.empty();
      };
      runners.add(runner);
      return runner;
    }
  }

  /** Plans every query to one Historical that misses the deadline: all of a budgeted query's segments are late. */
  private static final class LateWalker implements QuerySegmentWalker
  {
    BudgetedQueries budgetedQueries;

    @Override
    public <T> QueryRunner<T> getQueryRunnerForIntervals(Query<T> query, Iterable<Interval> intervals)
    {
      return (queryPlus, context) -> {
        budgetedQueries.of(queryPlus.getQuery()).late(List.of("2025-01-01T00:00:00.000Z/2025-01-02T00:00:00.000Z"));
        return Sequences.empty();
      };
    }

    @Override
    public <T> QueryRunner<T> getQueryRunnerForSegments(Query<T> query, Iterable<SegmentDescriptor> specs)
    {
      return getQueryRunnerForIntervals(query, List.of());
    }
  }

  /** The quality monitor's Broker side around an inner walker, as the module binds it. */
  private static final class Broker
  {
    final QualityConfig config;
    final BudgetControl budgetControl;
    final Admission admission;
    final BudgetedQueries budgetedQueries;
    final Replays replays;
    final RequestClock requestClock;
    final BudgetedQuerySegmentWalker walker;
    /** The admission controller's clock, which a test moves past the end of a window. */
    final AtomicLong admissionMillis = new AtomicLong();

    Broker(QuerySegmentWalker inner, QualityConfig config, LongSupplier clock)
    {
      final ServiceEmitter emitter = new ServiceEmitter("broker", "localhost", new NoopEmitter());
      final QualityMetrics metrics = new QualityMetrics(emitter);
      // Queries without an id are never sampled, so no mature run needs a toolchest here.
      final MatureRuns matureRuns = new MatureRuns(
          config,
          metrics,
          null,
          new DefaultObjectMapper(),
          new DruidHttpClientConfig()
      );
      this.config = config;
      this.budgetControl = new BudgetControl(config, emitter);
      final QualityProfiles profiles = new QualityProfiles();
      this.admission = new Admission(config, emitter, profiles, admissionMillis::get, System::nanoTime);
      this.replays = new Replays(config, metrics, matureRuns, () -> inner, clock, Runnable::run, Runnable::run);
      this.budgetedQueries = new BudgetedQueries(config, admission, budgetControl, new BudgetSplit(config, profiles),
                                   matureRuns, metrics, profiles,
                                   new RecentCoverage(), new DeadlineReserve(0.25), replays);
      this.requestClock = new RequestClock(clock);
      this.walker = new BudgetedQuerySegmentWalker(inner, budgetedQueries, admission, replays, requestClock, clock);
      if (inner instanceof RecordingWalker) {
        ((RecordingWalker) inner).budgetedQueries = budgetedQueries;
      }
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> controllerState(String dataSource)
    {
      return (Map<String, Object>) budgetControl.state().get(dataSource);
    }
  }

  private static Broker broker(QuerySegmentWalker inner, QualityConfig config)
  {
    return new Broker(inner, config, () -> NOW);
  }

  private static QualityConfig config(Map<String, Object> properties)
  {
    return new DefaultObjectMapper().convertValue(properties, QualityConfig.class).validate();
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

  /**
   * A query without a budget, on a datasource no controller budgets, gets Druid's own runner itself: nothing wraps it,
   * its context is the one it came with (no reference, no caches turned off), and no coverage is stated.
   */
  @Test
  void aQueryWithoutBudgetGetsDruidsOwnRunnerUntouched()
  {
    final RecordingWalker inner = new RecordingWalker();
    final Broker broker = broker(
        inner,
        config(Map.of("controlledDataSources", List.of("other"), "controlledLanes", List.of("reports")))
    );
    final Map<String, Object> asked = Map.of(QueryContexts.PRIORITY_KEY, -1, "lane", "interactive");
    final TimeseriesQuery query = query(asked);
    final QueryRunner<Result<TimeseriesResultValue>> forIntervals =
        broker.walker.getQueryRunnerForIntervals(query, List.of(Intervals.of("2025-01-01/2025-01-02")));
    final QueryRunner<Result<TimeseriesResultValue>> forSegments = broker.walker.getQueryRunnerForSegments(
        query,
        List.of(new SegmentDescriptor(Intervals.of("2025-01-01/2025-01-02"), "v1", 0))
    );
    assertEquals(List.of(forIntervals, forSegments), inner.runners, "Druid's runners themselves, nothing around them");
    assertEquals(List.of(query, query), inner.planned);

    final ResponseContext context = ResponseContext.createEmpty();
    forIntervals.run(QueryPlus.wrap(query), context).toList();
    assertSame(query, inner.ran.get(0));
    assertEquals(asked, inner.ran.get(0).getContext(), "the context it came with");
    assertNull(inner.deadlines.get(0), "no budget for its sub-queries to find");
    assertNull(context.get(CoverageKey.register()), "no coverage without a budget");
  }

  /** A Broker-wide concern that watches every query (admission control, replays) wraps Druid's runner, budget or not. */
  @Test
  void admissionControlAndReplaysWatchQueriesWithoutBudgetToo()
  {
    for (Map<String, Object> watching : List.<Map<String, Object>>of(
        Map.of("admission", "TIMEOUT_RATE"),
        Map.of("replayQueueSize", 32)
    )) {
      final RecordingWalker inner = new RecordingWalker();
      final Broker broker = broker(inner, config(watching));
      final TimeseriesQuery query = query(Map.of());
      final QueryRunner<Result<TimeseriesResultValue>> runner =
          broker.walker.getQueryRunnerForIntervals(query, List.of(Intervals.of("2025-01-01/2025-01-02")));
      assertNotSame(inner.runners.get(0), runner, watching + " watches it");
      runner.run(QueryPlus.wrap(query), ResponseContext.createEmpty()).toList();
      assertSame(query, inner.ran.get(0), watching + ": still unbudgeted");
      assertNull(inner.deadlines.get(0));
    }
  }

  @Test
  void aBudgetedQueryCarriesItsDeadlineWithCachesOffAndStatesItsCoverage()
  {
    final RecordingWalker inner = new RecordingWalker();
    final BudgetedQuerySegmentWalker walker = broker(inner, QualityConfig.defaults()).walker;
    final ResponseContext context = ResponseContext.createEmpty();
    run(walker, query(Map.of(QueryContextKeys.BUDGET_MS, 250)), context);
    final Query<?> stamped = inner.ran.get(0);
    assertSame(inner.planned.get(0), stamped);
    assertEquals(NOW + 250, inner.deadlines.get(0));
    for (String cache : List.of(QueryContexts.USE_CACHE_KEY, QueryContexts.POPULATE_CACHE_KEY,
                                QueryContexts.USE_RESULT_LEVEL_CACHE_KEY, QueryContexts.POPULATE_RESULT_LEVEL_CACHE_KEY)) {
      assertFalse(stamped.context().getBoolean(cache, true), cache);
    }
    final Coverage coverage = CoverageKey.of(context);
    assertEquals(0, coverage.total(), "no Historical was asked");
    assertFalse(coverage.timedOut());
    assertTrue(context.get(CoverageKey.register()) instanceof Coverage, "stated even when empty");
  }

  @Test
  void aReferenceTheBrokerDoesNotKnowDoesNothing()
  {
    final RecordingWalker inner = new RecordingWalker();
    final BudgetedQuerySegmentWalker walker = broker(inner, QualityConfig.defaults()).walker;
    run(walker, query(Map.of(QueryContextKeys.QUERY_REF, "made-up")), ResponseContext.createEmpty());
    assertEquals(1, inner.ran.size());
    assertNull(inner.deadlines.get(0), "a client cannot attach its query to a budget it did not ask for");
  }

  @Test
  void aBadBudgetIsRejectedBeforeAnythingRuns()
  {
    final RecordingWalker inner = new RecordingWalker();
    final BudgetedQuerySegmentWalker walker = broker(inner, QualityConfig.defaults()).walker;
    final DruidException e = assertThrows(
        DruidException.class,
        () -> run(walker, query(Map.of(QueryContextKeys.BUDGET_MS, "soon")), ResponseContext.createEmpty())
    );
    assertEquals(400, e.getStatusCode());
    assertTrue(inner.planned.isEmpty());
  }

  /** A query asking for a split of sub-queries it has no budget for is checked too, rather than left to Druid. */
  @Test
  void aBadSplitWithoutABudgetIsRejectedBeforeAnythingRuns()
  {
    for (Map<String, Object> bad : List.<Map<String, Object>>of(
        Map.of(QueryContextKeys.SPLIT, "many"),
        Map.of(QueryContextKeys.SPLIT_WHEN, "sometimes")
    )) {
      final RecordingWalker inner = new RecordingWalker();
      final BudgetedQuerySegmentWalker walker = broker(inner, QualityConfig.defaults()).walker;
      final DruidException e = assertThrows(
          DruidException.class,
          () -> run(walker, query(bad), ResponseContext.createEmpty()),
          bad.toString()
      );
      assertEquals(400, e.getStatusCode(), bad.toString());
      assertTrue(inner.planned.isEmpty(), bad.toString());
    }
  }

  /** Every second reading of the clock is {@code step} later: a query's start, then its answer. */
  private static LongSupplier steppingClock(long step)
  {
    final AtomicLong now = new AtomicLong(NOW);
    return () -> now.getAndAdd(step);
  }

  /** A Broker whose datasource {@code ds} is under integral control at a 200 ms target. */
  private static Broker controlledAt200(QuerySegmentWalker inner, LongSupplier clock)
  {
    return new Broker(
        inner,
        config(Map.of("controlledDataSources", List.of("ds"), "targetResponseTimeMs", 200, "controlMode", "INTEGRAL")),
        clock
    );
  }

  @Test
  void aControlledDataSourceGetsTheControllersBudgetAndFeedsItsResponseTimeBack()
  {
    final RecordingWalker inner = new RecordingWalker();
    final Broker broker = controlledAt200(inner, steppingClock(500));
    final BudgetedQuerySegmentWalker walker = broker.walker;
    run(walker, query(Map.of()), ResponseContext.createEmpty());
    final Query<?> stamped = inner.ran.get(0);
    assertEquals(NOW + 200, inner.deadlines.get(0), "the controller starts at the target");
    assertEquals(200L, stamped.context().getLong(QueryContextKeys.BUDGET_MS));

    final Map<String, Object> state = broker.controllerState("ds");
    // The clock steps 500 ms a reading: the answer is merged 500 ms after the query reached the walker, and its last
    // row has gone on to the client 500 ms later, which is what the controller is fed.
    assertEquals(1000.0, (double) state.get("responseTimeEstimateMs"), 1e-9, "the answer took 1,000 ms to its last row: " + state);
    assertTrue((double) state.get("budgetMs") < 200, "a response slower than the target lowers the budget: " + state);
    assertEquals("INTEGRAL", state.get("mode").toString());
    assertEquals(200.0, (double) state.get("targetResponseTimeMs"), 1e-9);

    // Its next query gets the lowered budget.
    run(walker, query(Map.of()), ResponseContext.createEmpty());
    // It starts at the fourth reading of the clock.
    final long second = inner.deadlines.get(1) - (NOW + 1500);
    assertTrue(second < 200, "budget " + second);
  }

  /**
   * A query a client asked for in a request counts from the request's arrival, 30 ms before the walker saw it (Jetty's
   * queue, parsing, SQL planning), to the end of its response, 60 ms after its last row left the walker: its deadline is
   * earlier by the time already gone, and its controller hears the whole time once the response has ended.
   */
  @Test
  void aQueryServedInARequestCountsFromItsArrivalToItsResponsesEnd() throws Exception
  {
    final AtomicLong now = new AtomicLong(NOW);
    final RecordingWalker inner = new RecordingWalker();
    final Broker broker = controlledAt200(inner, now::get);
    broker.requestClock.doFilter(RequestClockTest.jettyRequest(NOW - 30), null, (request, response) -> {
      run(broker.walker, query(Map.of()), ResponseContext.createEmpty());
      assertNull(broker.controllerState("ds").get("responseTimeEstimateMs"), "the response has not gone yet");
      now.addAndGet(60);
    });
    assertEquals(NOW - 30 + 200, inner.deadlines.get(0), "the budget runs from the arrival");
    assertEquals(90.0, (double) broker.controllerState("ds").get("responseTimeEstimateMs"), 1e-9);
  }

  /**
   * A result read after the request that ran its query has ended (as a JDBC client fetches in later frames) counts to
   * its last row, as a query run off a request thread does.
   */
  @Test
  void aResultReadAfterItsRequestEndedCountsToItsLastRow() throws Exception
  {
    final AtomicLong now = new AtomicLong(NOW);
    final RecordingWalker inner = new RecordingWalker();
    final Broker broker = controlledAt200(inner, now::get);
    final TimeseriesQuery query = query(Map.of());
    final List<Sequence<Result<TimeseriesResultValue>>> results = new ArrayList<>();
    broker.requestClock.doFilter(RequestClockTest.jettyRequest(NOW - 30), null, (request, response) -> results.add(
        broker.walker.getQueryRunnerForIntervals(query, List.of(Intervals.of("2025-01-01/2025-01-02")))
                     .run(QueryPlus.wrap(query), ResponseContext.createEmpty())
    ));
    now.addAndGet(100);
    results.get(0).toList();
    assertEquals(130.0, (double) broker.controllerState("ds").get("responseTimeEstimateMs"), 1e-9);
  }

  @Test
  void aQuerysOwnBudgetWinsAndOtherDataSourcesAreUntouched()
  {
    final RecordingWalker inner = new RecordingWalker();
    final Broker broker = new Broker(
        inner,
        config(Map.of("controlledDataSources", List.of("ds"), "targetResponseTimeMs", 200)),
        steppingClock(500)
    );
    final BudgetedQuerySegmentWalker walker = broker.walker;
    run(walker, query(Map.of(QueryContextKeys.BUDGET_MS, 250)), ResponseContext.createEmpty());
    assertEquals(NOW + 250, inner.deadlines.get(0));
    assertNull(broker.controllerState("ds").get("responseTimeEstimateMs"), "a fixed budget is not fed back");

    final TimeseriesQuery other = Druids.newTimeseriesQueryBuilder()
                                        .dataSource("other")
                                        .intervals("2025-01-01/2025-01-02")
                                        .aggregators(new CountAggregatorFactory("rows"))
                                        .build();
    run(walker, other, ResponseContext.createEmpty());
    assertSame(other, inner.ran.get(1), "not a controlled datasource: runs as in stock Druid");

    // The Broker's own metadata queries on a controlled datasource keep running whole.
    final SegmentMetadataQuery metadata = Druids.newSegmentMetadataQueryBuilder().dataSource("ds").build();
    walker.getQueryRunnerForIntervals(metadata, List.of()).run(QueryPlus.wrap(metadata), ResponseContext.createEmpty()).toList();
    assertSame(metadata, inner.ran.get(2));
  }

  @Test
  void aControlledLaneHasItsOwnControllerAheadOfItsDataSources()
  {
    final RecordingWalker inner = new RecordingWalker();
    final Broker broker = new Broker(
        inner,
        config(Map.of(
            "controlledDataSources", List.of("ds"),
            "controlledLanes", List.of("reports"),
            "targetResponseTimeMs", 200,
            "controlMode", "INTEGRAL"
        )),
        steppingClock(500)
    );
    final BudgetedQuerySegmentWalker walker = broker.walker;
    run(walker, query(Map.of("lane", "reports")), ResponseContext.createEmpty());
    assertEquals(200L, inner.ran.get(0).context().getLong(QueryContextKeys.BUDGET_MS), "the lane's controller budgets it");
    assertEquals(1000.0, (double) broker.controllerState("lane:reports").get("responseTimeEstimateMs"), 1e-9);
    assertNull(broker.controllerState("ds").get("responseTimeEstimateMs"), "the datasource's controller is not fed");

    run(walker, query(Map.of("lane", "interactive")), ResponseContext.createEmpty());
    assertEquals(
        1000.0,
        (double) broker.controllerState("ds").get("responseTimeEstimateMs"),
        1e-9,
        "a lane that is not controlled falls back to its datasource's controller"
    );
  }

  @Test
  void badControlSettingsFailStartupNamingThem()
  {
    for (Map<String, Object> bad : List.<Map<String, Object>>of(
        Map.of("targetResponseTimeMs", 0),
        Map.of("minBudgetMs", 0),
        Map.of("minBudgetMs", 400_000),
        Map.of("admissionTarget", 1.5),
        Map.of("admissionWindowMs", 0),
        Map.of("admissionGradientInitialLimit", 0),
        Map.of("admissionGradientQueueSize", -1),
        Map.of("controlledLanes", List.of(""))
    )) {
      final QualityConfig config = new DefaultObjectMapper().convertValue(bad, QualityConfig.class);
      final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, config::validate);
      assertTrue(e.getMessage().contains(QualityConfig.PREFIX + "." + bad.keySet().iterator().next()), e.getMessage());
    }
  }

  private static TimeseriesQuery withPriority(int priority)
  {
    return query(Map.of(QueryContexts.PRIORITY_KEY, priority));
  }

  @Test
  void admissionIsOffByDefault()
  {
    final RecordingWalker inner = new RecordingWalker();
    final Broker broker = broker(inner, QualityConfig.defaults());
    for (int i = 0; i < 10; i++) {
      run(broker.walker, withPriority(-5), ResponseContext.createEmpty());
    }
    assertEquals(10, inner.ran.size());
    assertEquals(false, broker.admission.state().get("enabled"));
  }

  @Test
  void lowHighPriorityQualityShedsLowPriorityQueriesWithA429()
  {
    final RecordingWalker inner = new RecordingWalker();
    final QualityConfig config = config(Map.of(
        "admission", "ANSWER_QUALITY",
        "admissionWindowMs", 100
    ));
    final Broker broker = broker(inner, config);
    final BudgetedQuerySegmentWalker walker = broker.walker;
    // A mature run of a high-priority query measured quality 0.2, far below the target 0.9.
    final BudgetedQuery<?> measured = broker.budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, 100)), NOW);
    measured.measured(new AnswerQuality(0.2, 0.2, 1, 1, 5, 1));
    // The first request after the window's end evaluates the controller: the admitted share of low-priority queries
    // drops below 1.
    broker.admissionMillis.set(100);
    final QueryCapacityExceededException e = assertThrows(
        QueryCapacityExceededException.class,
        () -> run(walker, withPriority(-1), ResponseContext.createEmpty())
    );
    assertEquals(429, QueryCapacityExceededException.STATUS_CODE);
    assertTrue(e.getMessage().contains("admission control"), e.getMessage());
    assertTrue(inner.planned.isEmpty(), "a shed query is not planned");

    run(walker, withPriority(0), ResponseContext.createEmpty());
    assertEquals(1, inner.ran.size(), "high-priority queries are never shed");
    final Map<String, Object> state = broker.admission.state();
    assertEquals(1L, state.get("shedQueries"));
    assertTrue((double) state.get("lowPriorityAdmitFraction") < 1, state.toString());
    assertEquals(0.2, (double) state.get("highPrioritySignal"), 1e-9);
  }

  @Test
  void timeoutRateAdmissionCountsPartialAnswersOfHighPriorityQueries()
  {
    // Every sub-query is late: the budgeted query answers partially, which the baseline counts as a timeout.
    final LateWalker lateInner = new LateWalker();
    final Broker broker = broker(
        lateInner,
        config(Map.of("admission", "TIMEOUT_RATE", "admissionWindowMs", 100))
    );
    lateInner.budgetedQueries = broker.budgetedQueries;
    run(broker.walker, query(Map.of(QueryContextKeys.BUDGET_MS, 100)), ResponseContext.createEmpty());
    run(broker.walker, query(Map.of(QueryContextKeys.BUDGET_MS, 100)), ResponseContext.createEmpty());
    assertNull(broker.admission.state().get("highPrioritySignal"), "no window has closed yet");
    // The third ends in the next window, which closes the first.
    broker.admissionMillis.set(100);
    run(broker.walker, query(Map.of(QueryContextKeys.BUDGET_MS, 100)), ResponseContext.createEmpty());
    final Map<String, Object> state = broker.admission.state();
    assertEquals(0.0, (double) state.get("highPrioritySignal"), 1e-9, "both timed out: " + state);
    assertTrue((double) state.get("lowPriorityAdmitFraction") < 1, state.toString());
  }

  @Test
  void aPartialAnswerIsAFailureWhereTheQueryOrItsDataSourceRefusesOne()
  {
    final LateWalker lateInner = new LateWalker();
    final Broker broker = broker(lateInner, config(Map.of("wholeAnswerDataSources", List.of("ds"))));
    lateInner.budgetedQueries = broker.budgetedQueries;

    final QueryTimeoutException refused = assertThrows(
        QueryTimeoutException.class,
        () -> run(broker.walker, query(Map.of(QueryContextKeys.BUDGET_MS, 100)), ResponseContext.createEmpty())
    );
    assertTrue(refused.getMessage().contains("[1] of its [1] segments were late"), refused.getMessage());

    final ResponseContext allowed = ResponseContext.createEmpty();
    run(
        broker.walker,
        query(Map.of(QueryContextKeys.BUDGET_MS, 100, QueryContextKeys.ALLOW_PARTIAL, true)),
        allowed
    );
    assertTrue(CoverageKey.of(allowed).timedOut(), "a query may allow what its datasource refuses");

    final Broker lenient = broker(lateInner, QualityConfig.defaults());
    lateInner.budgetedQueries = lenient.budgetedQueries;
    assertThrows(
        QueryTimeoutException.class,
        () -> run(lenient.walker, query(Map.of(QueryContextKeys.BUDGET_MS, 100, QueryContextKeys.ALLOW_PARTIAL, "false")),
                  ResponseContext.createEmpty())
    );
  }

  /** Whether the Broker is idle enough to replay mature runs: every query through the walker counts while it runs. */
  @Test
  void everyQueryCountsInFlightWhileItsResultsAreReadAndItsArrivalIsNoted()
  {
    final List<Object> inFlightWhileRead = new ArrayList<>();
    final Broker[] broker = new Broker[1];
    final QuerySegmentWalker observing = new QuerySegmentWalker()
    {
      @Override
      public <T> QueryRunner<T> getQueryRunnerForIntervals(Query<T> query, Iterable<Interval> intervals)
      {
        return (queryPlus, context) -> new LazySequence<>(() -> {
          inFlightWhileRead.add(broker[0].replays.state().get("onlineQueriesInFlight"));
          return Sequences.empty();
        });
      }

      @Override
      public <T> QueryRunner<T> getQueryRunnerForSegments(Query<T> query, Iterable<SegmentDescriptor> specs)
      {
        return getQueryRunnerForIntervals(query, List.of());
      }
    };
    // Replays on: the arrivals are noted for the replay queue, which is off by default.
    broker[0] = new Broker(observing, config(Map.of("replayQueueSize", 32)), steppingClock(500));
    run(broker[0].walker, query(Map.of(QueryContextKeys.BUDGET_MS, 250)), ResponseContext.createEmpty());
    run(broker[0].walker, query(Map.of()), ResponseContext.createEmpty());
    assertEquals(List.of(1, 1), inFlightWhileRead, "budgeted, then not");
    final Map<String, Object> state = broker[0].replays.state();
    assertEquals(0, state.get("onlineQueriesInFlight"), "both done");
    assertTrue((double) state.get("meanInterArrivalMs") > 0, "two arrivals, a gap apart: " + state);
  }

  /**
   * Each query waits until its deadline (its one Historical is late) and then takes 40 ms to merge and send: once
   * enough have, later queries stop waiting 40 ms before their budget ends, and their answers leave within it.
   */
  @Test
  void queriesThatWaitUntilTheirDeadlineTeachLaterOnesToKeepAReserve()
  {
    final AtomicLong now = new AtomicLong(NOW);
    final List<Long> deadlines = new ArrayList<>();
    final Broker[] broker = new Broker[1];
    final QuerySegmentWalker lateUntilTheDeadline = new QuerySegmentWalker()
    {
      @Override
      public <T> QueryRunner<T> getQueryRunnerForIntervals(Query<T> query, Iterable<Interval> intervals)
      {
        return (queryPlus, context) -> {
          final BudgetedQuery<?> budgeted = broker[0].budgetedQueries.of(queryPlus.getQuery());
          deadlines.add(budgeted.deadlineMillis() - budgeted.startMillis());
          budgeted.late(List.of("2025-01-01T00:00:00.000Z/2025-01-02T00:00:00.000Z"));
          now.set(budgeted.deadlineMillis() + 40);
          return Sequences.empty();
        };
      }

      @Override
      public <T> QueryRunner<T> getQueryRunnerForSegments(Query<T> query, Iterable<SegmentDescriptor> specs)
      {
        return getQueryRunnerForIntervals(query, List.of());
      }
    };
    broker[0] = new Broker(lateUntilTheDeadline, QualityConfig.defaults(), now::get);
    for (int i = 0; i <= DeadlineReserve.MIN_SAMPLES; i++) {
      run(broker[0].walker, query(Map.of(QueryContextKeys.BUDGET_MS, 1000)), ResponseContext.createEmpty());
    }
    assertEquals(1000L, deadlines.get(0), "no reserve before any query waited until its deadline");
    assertEquals(1000L, deadlines.get(DeadlineReserve.MIN_SAMPLES - 1));
    final long last = deadlines.get(DeadlineReserve.MIN_SAMPLES);
    assertTrue(last >= 959 && last <= 961, "40 ms kept in reserve: " + deadlines);
  }
}
