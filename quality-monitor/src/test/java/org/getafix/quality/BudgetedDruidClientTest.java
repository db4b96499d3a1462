package org.getafix.quality;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.SettableFuture;
import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.emitter.core.NoopEmitter;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.HttpResponseHandler;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.Result;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.query.spec.MultipleSpecificSegmentSpec;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.apache.druid.query.timeseries.TimeseriesResultValue;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.joda.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-Historical client against a Historical stubbed at the HTTP client: each request gets a future the test
 * completes (an answer in time) or leaves pending (a straggler).
 */
class BudgetedDruidClientTest
{
  private static final DefaultObjectMapper MAPPER = new DefaultObjectMapper();
  /**
   * The budget of a query whose Historical never answers: long enough that the sub-query is sent before the
   * deadline on a slow machine, short enough to wait for.
   */
  private static final int STRAGGLER_BUDGET_MS = 2_000;
  private static final String ANSWER = "[{\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"result\":{\"rows\":5}}]";
  private static final List<SegmentDescriptor> SEGMENTS = List.of(
      new SegmentDescriptor(Intervals.of("2025-01-01T00/2025-01-01T01"), "v1", 0),
      new SegmentDescriptor(Intervals.of("2025-01-01T01/2025-01-01T02"), "v1", 0)
  );

  private static final QueryRunnerFactoryConglomerate CONGLOMERATE = new TimeseriesConglomerate();

  /** A Historical whose every answer is the given future; records the queries' ids. */
  private static final class StubHistorical implements HttpClient
  {
    final List<SettableFuture<InputStream>> answers = new ArrayList<>();
    final List<String> requests = new ArrayList<>();

    @Override
    public <I, F> ListenableFuture<F> go(Request request, HttpResponseHandler<I, F> handler)
    {
      return go(request, handler, Duration.ZERO);
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <I, F> ListenableFuture<F> go(Request request, HttpResponseHandler<I, F> handler, Duration timeout)
    {
      requests.add(StringUtils.fromUtf8(request.getContent().array()));
      final SettableFuture<InputStream> answer = SettableFuture.create();
      answers.add(answer);
      return (ListenableFuture<F>) answer;
    }
  }

  private final ExecutorService reader = Execs.multiThreaded(2, "test-reader-%d");
  private final StubHistorical historical = new StubHistorical();
  private MatureRuns matureRuns;

  @AfterEach
  void stop()
  {
    reader.shutdownNow();
    if (matureRuns != null) {
      matureRuns.stop();
    }
  }

  private BudgetedQueries budgetedQueries()
  {
    final QualityConfig config = QualityConfig.defaults();
    final ServiceEmitter emitter = new ServiceEmitter("broker", "localhost", new NoopEmitter());
    final QualityMetrics metrics = new QualityMetrics(emitter);
    matureRuns = new MatureRuns(config, metrics, CONGLOMERATE, MAPPER, new DruidHttpClientConfig());
    final BudgetControl budgetControl = new BudgetControl(config, emitter);
    final Admission admission = new Admission(config, emitter);
    return new BudgetedQueries(config, admission, budgetControl, matureRuns, metrics, new QualityProfiles());
  }

  private BudgetedDruidClient<Result<TimeseriesResultValue>> client(BudgetedQueries budgetedQueries)
  {
    return new BudgetedDruidClient<>(
        CONGLOMERATE,
        (query, future) -> {},
        MAPPER,
        historical,
        "http",
        "historical:8083",
        new ServiceEmitter("broker", "localhost", new NoopEmitter()),
        Execs.scheduledSingleThreaded("test-cancel-%d"),
        reader,
        budgetedQueries,
        matureRuns,
        System::currentTimeMillis
    );
  }

  private static TimeseriesQuery query(Map<String, Object> context)
  {
    final Map<String, Object> withId = new HashMap<>(context);
    withId.put("queryId", "q1");
    return Druids.newTimeseriesQueryBuilder()
                 .dataSource("ds")
                 .intervals(new MultipleSpecificSegmentSpec(SEGMENTS))
                 .aggregators(new CountAggregatorFactory("rows"))
                 .context(withId)
                 .build();
  }

  /** The sub-query to the Historical, as Druid's scatter-gather hands it over: with its fail time. */
  private static QueryPlus<Result<TimeseriesResultValue>> subQuery(Query<Result<TimeseriesResultValue>> query)
  {
    return QueryPlus.wrap(query.withOverriddenContext(Map.of(DirectDruidClient.QUERY_FAIL_TIME, Long.MAX_VALUE)));
  }

  private static void answer(SettableFuture<InputStream> future)
  {
    future.set(new ByteArrayInputStream(StringUtils.toUtf8(ANSWER)));
  }

  @Test
  void anAnswerInTimeGoesOnAndItsSegmentsCountAsAnswered()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted =
        budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, false)), System.currentTimeMillis());
    final ResponseContext context = DirectDruidClient.makeResponseContextForQuery();
    final var results = client(budgetedQueries).run(subQuery(budgeted.stamped()), context);
    answer(historical.answers.get(0));
    assertEquals(1, results.toList().size());
    assertEquals(Coverage.answered(2), budgeted.coverage());
  }

  @Test
  void aStragglerIsCutAtTheDeadlineAndItsSegmentsCountAsLate()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = client(budgetedQueries);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted =
        budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)), System.currentTimeMillis());
    final ResponseContext context = DirectDruidClient.makeResponseContextForQuery();
    final var results = client.run(subQuery(budgeted.stamped()), context);
    assertTrue(results.toList().isEmpty(), "nothing of a late server goes on");
    assertEquals(0, budgeted.coverage().answered());
    assertEquals(2, budgeted.coverage().late());
    assertEquals(
        List.of("2025-01-01T00:00:00.000Z/2025-01-01T02:00:00.000Z"),
        budgeted.coverage().missingIntervals()
    );
    assertTrue(
        historical.requests.get(0).contains("\"" + DirectDruidClient.QUERY_FAIL_TIME + "\":" + budgeted.deadlineMillis()),
        "the Historical is told to stop at the deadline: " + historical.requests.get(0)
    );
  }

  @Test
  void aSampledQuerysLateAnswerGoesToItsMatureRun() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = client(budgetedQueries);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted =
        budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, true)), System.currentTimeMillis());
    final MatureRun run = budgeted.matureRun();
    final ResponseContext context = DirectDruidClient.makeResponseContextForQuery();
    final var results = client.run(subQuery(budgeted.stamped()), context);
    assertTrue(results.toList().isEmpty());
    assertTrue(historical.requests.get(0).contains("\"queryId\":\"q1-mature\""), historical.requests.get(0));
    assertEquals(1, run.late.size(), "the late sub-query keeps running for the mature run");

    answer(historical.answers.get(0));
    assertEquals(1, run.late.get(0).get(10, TimeUnit.SECONDS).size(), "its answer reaches the mature run");
  }

  @Test
  void aQueryWithoutABudgetRunsAsInStockDruid()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(query(Map.of()), 0);
    assertNull(budgeted);
    final var results = client(budgetedQueries).run(subQuery(query(Map.of())), DirectDruidClient.makeResponseContextForQuery());
    answer(historical.answers.get(0));
    assertEquals(1, results.toList().size());
  }
}
