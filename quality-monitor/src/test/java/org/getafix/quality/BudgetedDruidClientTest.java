package org.getafix.quality;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.SettableFuture;
import org.apache.druid.client.DirectDruidClient;
import org.apache.druid.error.DruidException;
import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.guava.Sequence;
import org.apache.druid.java.util.emitter.core.NoopEmitter;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.java.util.http.client.Request;
import org.apache.druid.java.util.http.client.response.HttpResponseHandler;
import org.apache.druid.java.util.http.client.response.StatusResponseHolder;
import org.apache.druid.query.Druids;
import org.apache.druid.server.coordination.DruidServerMetadata;
import org.apache.druid.server.coordination.ServerType;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContexts;
import org.apache.druid.query.QueryPlus;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.Result;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.context.ResponseContext;
import org.apache.druid.query.spec.MultipleSpecificSegmentSpec;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.apache.druid.query.timeseries.TimeseriesResultValue;
import org.getafix.core.redundancy.DeadlineShares;
import org.getafix.core.redundancy.HedgePolicy;
import org.getafix.core.redundancy.HedgeSettings;
import org.getafix.core.redundancy.NodeLatencies;
import org.getafix.core.redundancy.RaceLosses;
import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.core.redundancy.UpfrontRedundancy;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.jboss.netty.channel.ChannelException;
import org.jboss.netty.handler.codec.http.HttpMethod;
import org.jboss.netty.handler.codec.http.HttpResponseStatus;
import org.joda.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.getafix.core.quality.control.DeadlineReserve;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
  /** Druid's default {@code druid.broker.http.numConnections}. */
  private static final int CONNECTIONS = 20;
  private static final String ANSWER = "[{\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"result\":{\"rows\":5}}]";
  private static final List<SegmentDescriptor> SEGMENTS = List.of(
      new SegmentDescriptor(Intervals.of("2025-01-01T00/2025-01-01T01"), "v1", 0),
      new SegmentDescriptor(Intervals.of("2025-01-01T01/2025-01-01T02"), "v1", 0)
  );

  private static final String PRIMARY = "historical:8083";
  private static final String OTHER = "other:8083";
  /** A server without history is hedged after 5 ms. */
  private static final HedgeSettings QUICK = new HedgeSettings(0.95, 1, 5, 20, 0.05, 10);
  /** A server without history is hedged after 10 s: never, within a test. */
  private static final HedgeSettings PATIENT = new HedgeSettings(0.95, 1, 10_000, 20, 0.05, 10);

  private static final QueryRunnerFactoryConglomerate CONGLOMERATE = new TimeseriesConglomerate();

  /**
   * A Historical whose every answer is a future the test completes, or, if it answers at once, the answer; records the
   * queries and the cancellations (DELETE requests, answered OK).
   */
  static final class StubHistorical implements HttpClient
  {
    final List<SettableFuture<InputStream>> answers = new ArrayList<>();
    final List<HttpResponseHandler<?, ?>> handlers = new ArrayList<>();
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> cancelled = new CopyOnWriteArrayList<>();
    /** Set: every cancellation waits for it, as Druid's client waits for a free connection in a full pool. */
    volatile CountDownLatch freeConnectionForCancels;
    /** Set: every query waits for it, as in a full pool. */
    volatile CountDownLatch freeConnectionForQueries;
    final AtomicInteger queriesWaitingForAConnection = new AtomicInteger();
    private final boolean answersAtOnce;

    StubHistorical()
    {
      this(false);
    }

    StubHistorical(boolean answersAtOnce)
    {
      this.answersAtOnce = answersAtOnce;
    }

    @Override
    public <I, F> ListenableFuture<F> go(Request request, HttpResponseHandler<I, F> handler)
    {
      return go(request, handler, Duration.ZERO);
    }

    @Override
    public <I, F> ListenableFuture<F> go(Request request, HttpResponseHandler<I, F> handler, Duration timeout)
    {
      final boolean cancel = HttpMethod.DELETE.equals(request.getMethod());
      final CountDownLatch connection = cancel ? freeConnectionForCancels : freeConnectionForQueries;
      if (connection != null) {
        if (!cancel) {
          queriesWaitingForAConnection.incrementAndGet();
        }
        try {
          connection.await();
        }
        catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new RuntimeException(e);
        }
        finally {
          if (!cancel) {
            queriesWaitingForAConnection.decrementAndGet();
          }
        }
      }
      return send(request, handler);
    }

    @SuppressWarnings("unchecked")
    private synchronized <I, F> ListenableFuture<F> send(Request request, HttpResponseHandler<I, F> handler)
    {
      if (HttpMethod.DELETE.equals(request.getMethod())) {
        cancelled.add(request.getUrl().getPath());
        return (ListenableFuture<F>) Futures.immediateFuture(new StatusResponseHolder(HttpResponseStatus.OK, new StringBuilder()));
      }
      requests.add(StringUtils.fromUtf8(request.getContent().array()));
      final SettableFuture<InputStream> answer = SettableFuture.create();
      answers.add(answer);
      handlers.add(handler);
      if (answersAtOnce) {
        answer(answer);
      }
      return (ListenableFuture<F>) answer;
    }

    /** Ends the answer to request {@code i} on the connection, as a Historical that cancelled the query does. */
    synchronized void endAnswer(int i)
    {
      handlers.get(i).exceptionCaught(null, new IOException("Query cancelled"));
    }
  }

  private final ExecutorService reader = Execs.multiThreaded(8, "test-reader-%d");
  private final ScheduledThreadPoolExecutor cancellation =
      new ScheduledThreadPoolExecutor(1, Execs.makeThreadFactory("test-cancel-%d"));
  private final StubHistorical historical = new StubHistorical();
  private final StubHistorical other = new StubHistorical(true);
  private final NodeLatencies latencies = new NodeLatencies(java.time.Duration.ofSeconds(30), System::nanoTime);
  private final RaceLosses raceLosses =
      new RaceLosses(new NodeLatencies(java.time.Duration.ofSeconds(30), System::nanoTime), RaceLosses.MIN_SAMPLES);
  private MatureRuns matureRuns;
  private QualityMetrics metrics;
  private BudgetedDruidClient<Result<TimeseriesResultValue>> primaryClient;
  private BudgetedQuery<Result<TimeseriesResultValue>> ranQuery;

  @AfterEach
  void stop()
  {
    reader.shutdownNow();
    cancellation.shutdownNow();
    if (matureRuns != null) {
      matureRuns.stop();
    }
  }

  private BudgetedQueries budgetedQueries()
  {
    final QualityConfig config = QualityConfig.defaults();
    final ServiceEmitter emitter = new ServiceEmitter("broker", "localhost", new NoopEmitter());
    metrics = new QualityMetrics(emitter);
    matureRuns = new MatureRuns(config, metrics, CONGLOMERATE, MAPPER, new DruidHttpClientConfig());
    final BudgetControl budgetControl = new BudgetControl(config, emitter);
    final Admission admission = new Admission(config, emitter, new QualityProfiles());
    final Replays replays =
        new Replays(config, metrics, matureRuns, () -> null, System::currentTimeMillis, Runnable::run, Runnable::run);
    final QualityProfiles profiles = new QualityProfiles();
    return new BudgetedQueries(config, admission, budgetControl, new BudgetSplit(config, profiles), matureRuns, metrics, profiles,
                                   new RecentCoverage(), new DeadlineReserve(0.25), replays);
  }

  private BudgetedDruidClient<Result<TimeseriesResultValue>> client(BudgetedQueries budgetedQueries)
  {
    return client(budgetedQueries, historical, PRIMARY, hedging(false, HedgeSettings.DEFAULTS, Map.of()));
  }

  private BudgetedDruidClient<Result<TimeseriesResultValue>> client(
      BudgetedQueries budgetedQueries,
      StubHistorical server,
      String host,
      Hedging hedging
  )
  {
    return client(budgetedQueries, server, host, hedging, CONNECTIONS);
  }

  private BudgetedDruidClient<Result<TimeseriesResultValue>> client(
      BudgetedQueries budgetedQueries,
      StubHistorical server,
      String host,
      Hedging hedging,
      int connectionsPerHistorical
  )
  {
    return new BudgetedDruidClient<>(
        CONGLOMERATE,
        new RequestCapture((query, future) -> {}),
        MAPPER,
        server,
        "http",
        host,
        new ServiceEmitter("broker", "localhost", new NoopEmitter()),
        cancellation,
        reader,
        budgetedQueries,
        matureRuns,
        hedging,
        connectionsPerHistorical,
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

  /** Hedging among {@code holders}, each holding every segment; the map may be filled after the clients are made. */
  private Hedging hedging(boolean enabled, HedgeSettings settings, Map<String, BudgetedDruidClient<?>> holders)
  {
    return hedging(enabled, settings, holders, (host, segment) -> true);
  }

  /** Hedging among {@code holders}, of which {@code holds} says which hold a segment. */
  private Hedging hedging(
      boolean enabled,
      HedgeSettings settings,
      Map<String, BudgetedDruidClient<?>> holders,
      BiPredicate<String, SegmentDescriptor> holds
  )
  {
    return hedging(Map.of("hedging", enabled), settings, holders, holds);
  }

  /** Hedging among {@code holders} under the Broker's {@code properties} (druid.getafix.quality.*). */
  private Hedging hedging(
      Map<String, Object> properties,
      HedgeSettings settings,
      Map<String, BudgetedDruidClient<?>> holders,
      BiPredicate<String, SegmentDescriptor> holds
  )
  {
    final QualityConfig config = MAPPER.convertValue(properties, QualityConfig.class);
    return new Hedging(
        config,
        new HedgePolicy(settings, latencies, raceLosses),
        latencies,
        raceLosses,
        redundancy(config),
        holders(holders, holds),
        metrics
    );
  }

  private UpfrontRedundancy redundancy(QualityConfig config)
  {
    return new UpfrontRedundancy(config.redundancySettings(), latencies, raceLosses, new Random(0));
  }

  /** {@code holders}, each holding the segments {@code holds} says, as the Broker's server view would tell. */
  private static Hedging.Holders holders(
      Map<String, BudgetedDruidClient<?>> holders,
      BiPredicate<String, SegmentDescriptor> holds
  )
  {
    return new Hedging.Holders()
    {
      @Override
      public List<DruidServerMetadata> of(String table, SegmentDescriptor segment)
      {
        return holders.keySet()
                      .stream()
                      .filter(host -> holds.test(host, segment))
                      .sorted()
                      .map(host -> new DruidServerMetadata(host, host, null, 0, ServerType.HISTORICAL, "_default_tier", 0))
                      .collect(Collectors.toList());
      }

      @Override
      public BudgetedDruidClient<?> clientOf(DruidServerMetadata server)
      {
        return holders.get(server.getHost());
      }
    };
  }

  /** The client of the primary Historical, whose segments {@link #other} (answering at once) holds too if asked. */
  private BudgetedDruidClient<Result<TimeseriesResultValue>> primary(
      BudgetedQueries budgetedQueries,
      boolean hedgingOn,
      HedgeSettings settings,
      boolean withAlternative
  )
  {
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final Hedging hedging = hedging(hedgingOn, settings, holders);
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, primary);
    if (withAlternative) {
      holders.put(OTHER, client(budgetedQueries, other, OTHER, hedging));
    }
    return primary;
  }

  /**
   * The client of the primary Historical, hedging quickly to {@link #other}, which holds the first segment but not the
   * second: a hedge of its sub-query is partial.
   */
  private BudgetedDruidClient<Result<TimeseriesResultValue>> primaryAloneHoldingTheSecondSegment(BudgetedQueries budgetedQueries)
  {
    final SegmentDescriptor onlyOnPrimary = SEGMENTS.get(1);
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final Hedging hedging =
        hedging(true, QUICK, holders, (host, segment) -> host.equals(PRIMARY) || !segment.equals(onlyOnPrimary));
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, primary);
    holders.put(OTHER, client(budgetedQueries, other, OTHER, hedging));
    return primary;
  }

  private static void eventually(BooleanSupplier condition, String what) throws InterruptedException
  {
    eventually(condition, what, 5_000);
  }

  private static void eventually(BooleanSupplier condition, String what, long withinMillis) throws InterruptedException
  {
    final long giveUp = System.currentTimeMillis() + withinMillis;
    while (!condition.getAsBoolean()) {
      assertTrue(System.currentTimeMillis() < giveUp, what);
      Thread.sleep(5);
    }
  }

  /** Waits past the 5 ms hedge points of {@link #QUICK}, on a machine that keeps up. */
  private static void pastTheHedgePoints() throws InterruptedException
  {
    Thread.sleep(30);
  }

  /**
   * Runs a sub-query of a query with a budget of a minute (which a test never reaches) on a new {@link #primary}
   * client, kept in {@link #primaryClient}, as the query is in {@link #ranQuery}.
   */
  private Sequence<Result<TimeseriesResultValue>> runWithinAMinute(boolean hedgingOn, HedgeSettings settings, boolean withAlternative)
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    primaryClient = primary(budgetedQueries, hedgingOn, settings, withAlternative);
    ranQuery = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    return run(primaryClient, ranQuery.stamped());
  }

  private static Sequence<Result<TimeseriesResultValue>> run(
      BudgetedDruidClient<Result<TimeseriesResultValue>> client,
      Query<Result<TimeseriesResultValue>> query
  )
  {
    return client.run(subQuery(query), DirectDruidClient.makeResponseContextForQuery());
  }

  @Test
  void anAnswerInTimeGoesOnAndItsSegmentsCountAsAnswered() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted =
        budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, false)), System.currentTimeMillis());
    final ResponseContext context = DirectDruidClient.makeResponseContextForQuery();
    final var results = client(budgetedQueries).run(subQuery(budgeted.stamped()), context);
    answer(historical.answers.get(0));
    assertEquals(1, results.toList().size());
    assertEquals(Coverage.answered(2), budgeted.coverage());
    eventually(
        () -> latencies.get(PRIMARY) != null && latencies.get(PRIMARY).count() == 1,
        "an unhedged budgeted sub-query's latency is learnt too"
    );
  }

  @Test
  void theHistoricalKeepsItsSegmentCacheAsTheQueryAskedWhileTheBrokersIsOff()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = client(budgetedQueries);
    final BudgetedQuery<Result<TimeseriesResultValue>> asDefault =
        budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, false)), System.currentTimeMillis());
    assertFalse(asDefault.stamped().context().getBoolean(QueryContexts.USE_CACHE_KEY, true), "the Broker's cache is off");
    client.run(subQuery(asDefault.stamped()), DirectDruidClient.makeResponseContextForQuery());
    assertTrue(historical.requests.get(0).contains("\"useCache\":true"), historical.requests.get(0));
    assertTrue(historical.requests.get(0).contains("\"populateCache\":true"), historical.requests.get(0));

    final BudgetedQuery<Result<TimeseriesResultValue>> refusing = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, false, QueryContexts.USE_CACHE_KEY, false)),
        System.currentTimeMillis()
    );
    client.run(subQuery(refusing.stamped()), DirectDruidClient.makeResponseContextForQuery());
    assertTrue(historical.requests.get(1).contains("\"useCache\":false"), historical.requests.get(1));
  }

  @Test
  void aStragglerIsCutAtTheDeadlineAndItsSegmentsCountAsLate() throws Exception
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
    eventually(
        () -> latencies.get(PRIMARY) != null && latencies.get(PRIMARY).quantile(0.5) >= STRAGGLER_BUDGET_MS * 0.9,
        "the cut sub-query is learnt with the time it had"
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

  /**
   * The client of {@link #historical} with splitting up to {@code maxSplit} parts, after {@code recentMillis} was its
   * latency for a full window of sub-queries.
   */
  private BudgetedDruidClient<Result<TimeseriesResultValue>> splitting(
      BudgetedQueries budgetedQueries,
      int maxSplit,
      double recentMillis
  )
  {
    return splitting(budgetedQueries, maxSplit, recentMillis, CONNECTIONS);
  }

  private BudgetedDruidClient<Result<TimeseriesResultValue>> splitting(
      BudgetedQueries budgetedQueries,
      int maxSplit,
      double recentMillis,
      int connectionsPerHistorical
  )
  {
    return splitting(budgetedQueries, Map.of("maxSplit", maxSplit), recentMillis, connectionsPerHistorical);
  }

  /** As above, under the Broker's {@code properties} (druid.getafix.quality.*). */
  private BudgetedDruidClient<Result<TimeseriesResultValue>> splitting(
      BudgetedQueries budgetedQueries,
      Map<String, Object> properties,
      double recentMillis,
      int connectionsPerHistorical
  )
  {
    for (int i = 0; i < HedgeSettings.DEFAULTS.minSamples(); i++) {
      latencies.record(PRIMARY, recentMillis);
    }
    final QualityConfig config = MAPPER.convertValue(properties, QualityConfig.class);
    final Hedging hedging = new Hedging(
        config,
        new HedgePolicy(HedgeSettings.DEFAULTS, latencies, raceLosses),
        latencies,
        raceLosses,
        redundancy(config),
        holders(Map.of(), (host, segment) -> true),
        metrics
    );
    return client(budgetedQueries, historical, PRIMARY, hedging, connectionsPerHistorical);
  }

  /**
   * A Historical expected to miss the deadline gets a sub-query as parts of consecutive segments; the part it answers
   * in time goes on and counts, the other is late.
   */
  @Test
  void aSubQueryToAHistoricalExpectedToMissTheDeadlineIsSplitAndItsPartsInTimeCount() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = splitting(budgetedQueries, 4, 10 * STRAGGLER_BUDGET_MS);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    final ResponseContext context = DirectDruidClient.makeResponseContextForQuery();
    final var results = client.run(subQuery(budgeted.stamped()), context);
    assertEquals(2, historical.requests.size(), "one part per segment, as there are fewer than 4: " + historical.requests);
    assertTrue(historical.requests.get(0).contains("2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z"), historical.requests.get(0));
    assertFalse(historical.requests.get(0).contains("2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z"), historical.requests.get(0));
    assertTrue(historical.requests.get(1).contains("2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z"), historical.requests.get(1));
    answer(historical.answers.get(0));

    assertEquals(1, results.toList().size(), "the part in time goes on");
    assertEquals(1, budgeted.coverage().answered());
    assertEquals(1, budgeted.coverage().late());
    assertEquals(List.of("2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z"), budgeted.coverage().missingIntervals());
  }

  @Test
  void aSampledSubQuerysPartsInTimeAreMemoisedAndTheLateOnesAnswerItsMatureRun() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = splitting(budgetedQueries, 4, 10 * STRAGGLER_BUDGET_MS);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, true)),
        System.currentTimeMillis()
    );
    final MatureRun run = budgeted.matureRun();
    final var results = run(client, budgeted.stamped());
    assertEquals(2, historical.requests.size());
    historical.requests.forEach(request -> assertTrue(request.contains("\"queryId\":\"q1-mature\""), request));
    answer(historical.answers.get(1));

    assertEquals(1, results.toList().size(), "the part in time goes on");
    assertEquals(1, budgeted.coverage().answered());
    assertEquals(1, run.memoised.size(), "the part in time is the mature run's for its segment");
    assertEquals(1, run.late.size(), "the late part keeps running for the mature run");
    assertFalse(historical.answers.get(0).isCancelled(), "and is not cancelled");

    answer(historical.answers.get(0));
    assertEquals(1, run.late.get(0).get(10, TimeUnit.SECONDS).size(), "its answer reaches the mature run");
  }

  /**
   * Each part holds a connection to the slow Historical until it answers; the parts take no more than half the pool,
   * counting what is open already, so that other sub-queries never wait for a connection behind them.
   */
  @Test
  void partsLeaveHalfTheBrokersConnectionsToTheHistoricalFree()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = splitting(budgetedQueries, 4, 10 * STRAGGLER_BUDGET_MS, 3);
    final BudgetedQuery<Result<TimeseriesResultValue>> first = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    client.run(subQuery(first.stamped()), DirectDruidClient.makeResponseContextForQuery());
    assertEquals(2, historical.requests.size(), "split in two: one connection spare of a pool of 3");
    assertEquals(2, client.getNumOpenConnections());

    final BudgetedQuery<Result<TimeseriesResultValue>> second = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    client.run(subQuery(second.stamped()), DirectDruidClient.makeResponseContextForQuery());
    assertEquals(3, historical.requests.size(), "the parts in flight hold the spare connection: not split");

    final BudgetedDruidClient<Result<TimeseriesResultValue>> single = splitting(budgetedQueries(), 4, 10 * STRAGGLER_BUDGET_MS, 1);
    final BudgetedQuery<Result<TimeseriesResultValue>> third = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    single.run(subQuery(third.stamped()), DirectDruidClient.makeResponseContextForQuery());
    assertEquals(4, historical.requests.size(), "a pool of one connection is never split");
  }

  @Test
  void nothingIsSplitForAHistoricalExpectedInTimeOrAQueryThatSaysSo()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> fast = splitting(budgetedQueries, 4, 10);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    run(fast, budgeted.stamped());
    assertEquals(1, historical.requests.size(), "a Historical expected in time gets the whole sub-query");

    final BudgetedDruidClient<Result<TimeseriesResultValue>> slow = splitting(budgetedQueries, 4, 100 * STRAGGLER_BUDGET_MS);
    final BudgetedQuery<Result<TimeseriesResultValue>> declining = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false, QueryContextKeys.SPLIT, 1)),
        System.currentTimeMillis()
    );
    run(slow, declining.stamped());
    assertEquals(2, historical.requests.size(), "getafixSplit 1 never splits");

    final BudgetedQuery<Result<TimeseriesResultValue>> whole = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false, QueryContextKeys.ALLOW_PARTIAL, false)),
        System.currentTimeMillis()
    );
    run(slow, whole.stamped());
    assertEquals(3, historical.requests.size(), "a query that refuses partial answers gains nothing from parts");
  }

  /**
   * Splitting always, a sub-query to a Historical expected in time goes as parts too, the second one priority lower;
   * a query's own getafixSplitWhen overrides the Broker's either way.
   */
  @Test
  void splittingAlwaysSplitsASubQueryToAHistoricalExpectedInTime()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> always =
        splitting(budgetedQueries, Map.of("splitWhen", "ALWAYS"), 10, CONNECTIONS);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    run(always, budgeted.stamped());
    assertEquals(2, historical.requests.size(), "one part per segment: " + historical.requests);
    assertTrue(historical.requests.get(0).contains("\"priority\":0"), historical.requests.get(0));
    assertTrue(historical.requests.get(1).contains("\"priority\":-1"), historical.requests.get(1));

    final BudgetedQuery<Result<TimeseriesResultValue>> declining = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false, QueryContextKeys.SPLIT_WHEN, "late")),
        System.currentTimeMillis()
    );
    run(always, declining.stamped());
    assertEquals(3, historical.requests.size(), "getafixSplitWhen LATE: a Historical in time gets the whole sub-query");

    final BudgetedDruidClient<Result<TimeseriesResultValue>> late =
        splitting(budgetedQueries, Map.of("splitWhen", "LATE"), 10, CONNECTIONS);
    final BudgetedQuery<Result<TimeseriesResultValue>> asking = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false, QueryContextKeys.SPLIT_WHEN, "Always")),
        System.currentTimeMillis()
    );
    run(late, asking.stamped());
    assertEquals(5, historical.requests.size(), "getafixSplitWhen ALWAYS on a Broker that splits when late");
  }

  /** Splitting always still takes no more than half the Broker's connections to the Historical. */
  @Test
  void splittingAlwaysLeavesHalfTheBrokersConnectionsFree()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> single =
        splitting(budgetedQueries, Map.of("splitWhen", "ALWAYS"), 10, 1);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    run(single, budgeted.stamped());
    assertEquals(1, historical.requests.size(), "a pool of one connection is never split");
  }

  @Test
  void aBadSplitTriggerIsRefusedWith400()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    for (Object bad : List.of("sometimes", "", 1, true)) {
      final DruidException e = assertThrows(
          DruidException.class,
          () -> budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, 1000, QueryContextKeys.SPLIT_WHEN, bad)), 0),
          String.valueOf(bad)
      );
      assertEquals(400, e.getStatusCode(), e.getMessage());
      assertTrue(e.getMessage().contains(QueryContextKeys.SPLIT_WHEN) && e.getMessage().contains("[LATE, ALWAYS]"), e.getMessage());
    }
    assertEquals(
        SubQuerySplit.Trigger.ALWAYS,
        Hedging.splitWhen(query(Map.of(QueryContextKeys.SPLIT_WHEN, " always ")).context(), SubQuerySplit.Trigger.LATE)
    );
    assertEquals(SubQuerySplit.Trigger.ALWAYS, Hedging.splitWhen(query(Map.of()).context(), SubQuerySplit.Trigger.ALWAYS));
  }

  @Test
  void aBadSplitIsRefusedWith400()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    for (Object bad : List.of(0, 65, -2, 2.5, "many", "", true)) {
      final DruidException e = assertThrows(
          DruidException.class,
          () -> budgetedQueries.start(query(Map.of(QueryContextKeys.BUDGET_MS, 1000, QueryContextKeys.SPLIT, bad)), 0),
          String.valueOf(bad)
      );
      assertEquals(400, e.getStatusCode(), e.getMessage());
      assertTrue(e.getMessage().contains(QueryContextKeys.SPLIT), e.getMessage());
    }
    assertEquals(3, Hedging.maxSplit(query(Map.of(QueryContextKeys.SPLIT, "3")).context(), 4));
    assertEquals(4, Hedging.maxSplit(query(Map.of()).context(), 4));
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
    assertEquals(1, historical.requests.size(), "one request, as Druid's client sends it");
    assertFalse(historical.requests.get(0).contains("getafix"), "nothing of ours in it: " + historical.requests.get(0));
  }

  @Test
  void aSlowPrimaryLosesToItsHedgeAndItsSegmentsCountOnce() throws Exception
  {
    final var results = runWithinAMinute(true, QUICK, true);
    assertEquals(1, results.toList().size(), "the hedge's answer goes on");
    assertEquals(1, other.requests.size());
    assertTrue(other.requests.get(0).contains("\"queryId\":\"q1-hedge-"), other.requests.get(0));
    assertTrue(historical.answers.get(0).isCancelled(), "the primary is cancelled");
    eventually(() -> historical.cancelled.contains("/druid/v2/q1"), "the primary's Historical is told to cancel");
    assertEquals(Coverage.answered(2), ranQuery.coverage());
    assertEquals(1L, metrics.state().get("hedgesSent"));
    assertEquals(1L, metrics.state().get("hedgesWon"));
    assertEquals(1, latencies.get(PRIMARY).count(), "the losing primary's elapsed time is learnt");
    assertEquals(1, latencies.get(OTHER).count());
  }

  /**
   * The losing primary's cancellation waits for a free connection to its Historical (Druid's client makes a request
   * wait so when the pool is full, as a straggler's fills with its slow sub-queries): the hedge's answer goes on all
   * the same, and the cancellation is sent once a connection is free.
   */
  @Test
  void aCancellationWaitingForAConnectionDoesNotHoldTheWinningAnswer() throws Exception
  {
    historical.freeConnectionForCancels = new CountDownLatch(1);
    try {
      final var results = runWithinAMinute(true, QUICK, true);
      final CompletableFuture<List<Result<TimeseriesResultValue>>> answer = CompletableFuture.supplyAsync(results::toList, reader);
      assertEquals(1, answer.get(30, TimeUnit.SECONDS).size(), "the hedge's answer goes on");
      assertEquals(1L, historical.freeConnectionForCancels.getCount(), "the cancellation was still waiting");
      assertFalse(historical.cancelled.contains("/druid/v2/q1"), "not sent yet");
    }
    finally {
      historical.freeConnectionForCancels.countDown();
    }
    eventually(() -> historical.cancelled.contains("/druid/v2/q1"), "the primary's Historical is told to cancel");
  }

  /**
   * The hedge waits for a free connection to its Historical, whose pool is full: the primary's answer, which comes
   * meanwhile, goes on all the same, and the hedge, once it could be sent, is cancelled.
   */
  @Test
  void aHedgeWaitingForAConnectionDoesNotHoldThePrimarysAnswer() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final StubHistorical full = new StubHistorical();
    full.freeConnectionForQueries = new CountDownLatch(1);
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final Hedging hedging = hedging(true, QUICK, holders);
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, primary);
    holders.put(OTHER, client(budgetedQueries, full, OTHER, hedging));
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    final var results = run(primary, budgeted.stamped());
    final CompletableFuture<List<Result<TimeseriesResultValue>>> answer = CompletableFuture.supplyAsync(results::toList, reader);
    try {
      eventually(() -> full.queriesWaitingForAConnection.get() == 1, "the hedge waits for a connection");
      answer(historical.answers.get(0));
      assertEquals(1, answer.get(30, TimeUnit.SECONDS).size(), "the primary's answer goes on");
      assertEquals(Coverage.answered(2), budgeted.coverage());
    }
    finally {
      full.freeConnectionForQueries.countDown();
    }
    eventually(() -> full.answers.size() == 1 && full.answers.get(0).isCancelled(), "the hedge, sent late, is cancelled");
    assertEquals(0L, metrics.state().get("hedgesWon"));
  }

  /**
   * Under a budget, a sub-query one of whose segments only its slow Historical holds is hedged for the other: at the
   * deadline the hedge's answer goes on, its segment counts as answered and the stranded one as late, and the primary
   * is cancelled.
   */
  @Test
  void underABudgetTheHedgesAnswerForWhatTheyHoldWhenThePrimaryMissesTheDeadline() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = primaryAloneHoldingTheSecondSegment(budgetedQueries);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    final var results = run(primary, budgeted.stamped());
    assertEquals(1, results.toList().size(), "the hedge's rows go on");
    assertEquals(1, other.requests.size());
    assertTrue(other.requests.get(0).contains("2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z"), other.requests.get(0));
    assertFalse(other.requests.get(0).contains("2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z"), "the stranded segment stays");
    assertEquals(1, budgeted.coverage().answered());
    assertEquals(1, budgeted.coverage().late());
    assertEquals(List.of("2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z"), budgeted.coverage().missingIntervals());
    eventually(() -> historical.cancelled.contains("/druid/v2/q1"), "the primary's Historical is told to cancel");
    assertEquals(1L, metrics.state().get("hedgesWon"));
  }

  /**
   * Under a budget, a slow primary's hedge goes in two parts, one to a holder that answers and one to a holder as slow
   * as the primary: at the deadline the part that answered goes on and its segment counts as answered, the other part
   * and the primary are cancelled; the slow holder's cut hedge counts toward its deadline share only.
   */
  @Test
  void underABudgetAHedgePartThatAnsweredCountsWhenAnotherPartMissesTheDeadline() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final StubHistorical slow = new StubHistorical();
    final String slowHost = "slow:8083";
    final SegmentDescriptor onlyOnSlow = SEGMENTS.get(1);
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final Hedging hedging = hedging(
        true,
        QUICK,
        holders,
        (host, segment) -> host.equals(PRIMARY) || host.equals(slowHost) == segment.equals(onlyOnSlow)
    );
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, primary);
    holders.put(OTHER, client(budgetedQueries, other, OTHER, hedging));
    holders.put(slowHost, client(budgetedQueries, slow, slowHost, hedging));
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    final var results = run(primary, budgeted.stamped());
    assertEquals(1, results.toList().size(), "the answered part's rows go on");
    assertEquals(1, other.requests.size());
    assertEquals(1, slow.requests.size());
    assertEquals(1, budgeted.coverage().answered());
    assertEquals(List.of("2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z"), budgeted.coverage().missingIntervals());
    eventually(() -> historical.cancelled.contains("/druid/v2/q1"), "the primary's Historical is told to cancel");
    eventually(() -> slow.answers.get(0).isCancelled(), "the part still out is cancelled");
    assertNull(latencies.get(slowHost), "the cut hedge is no latency sample");
    assertEquals(1L, metrics.state().get("hedgesWon"));
  }

  /**
   * A budgeted primary cut at the deadline counts toward its Historical's share of the time to the deadline, as an
   * unhedged budgeted sub-query does; one that loses to its hedge does not, since it says nothing of how close to the
   * deadline it would have come.
   */
  @Test
  void aBudgetedPrimaryCutAtTheDeadlineCountsTowardItsDeadlineShareAndOneThatLosesToItsHedgeDoesNot() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final Hedging hedging = hedging(true, QUICK, holders);
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, client);
    holders.put(OTHER, client(budgetedQueries, other, OTHER, hedging));
    for (int i = 0; i < DeadlineShares.MIN_SAMPLES; i++) {
      assertEquals(1, runBudgeted(budgetedQueries, client, 60_000).toList().size(), "the hedge's answer");
    }
    assertTrue(Double.isNaN(hedging.deadlineShare(PRIMARY)), "lost to hedges: " + hedging.deadlineShare(PRIMARY));

    holders.put(OTHER, client(budgetedQueries, new StubHistorical(), OTHER, hedging));
    for (int i = 0; i < DeadlineShares.MIN_SAMPLES; i++) {
      assertTrue(runBudgeted(budgetedQueries, client, STRAGGLER_BUDGET_MS).toList().isEmpty(), "nothing in time");
    }
    eventually(() -> hedging.deadlineShare(PRIMARY) >= SubQuerySplit.LATE_SHARE, "cut at the deadline every time");
  }

  private static Sequence<Result<TimeseriesResultValue>> runBudgeted(
      BudgetedQueries budgetedQueries,
      BudgetedDruidClient<Result<TimeseriesResultValue>> client,
      int budgetMs
  )
  {
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, budgetMs, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    return run(client, budgeted.stamped());
  }

  /**
   * A sampled sub-query is hedged too: its primary runs under the mature run's id, and the hedge that wins goes on online
   * and is memoised for the mature run, which then needs nothing late.
   */
  @Test
  void aSampledSubQuerysWinningHedgeIsMemoisedForItsMatureRun() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = primary(budgetedQueries, true, QUICK, true);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, true)),
        System.currentTimeMillis()
    );
    final MatureRun run = budgeted.matureRun();
    final var results = run(primary, budgeted.stamped());
    assertEquals(1, results.toList().size(), "the hedge's answer goes on");
    assertTrue(historical.requests.get(0).contains("\"queryId\":\"q1-mature\""), historical.requests.get(0));
    assertTrue(other.requests.get(0).contains("\"queryId\":\"q1-hedge-"), other.requests.get(0));
    assertEquals(Coverage.answered(2), budgeted.coverage());
    assertEquals(1, run.memoised.size(), "the hedge's answer is the mature run's for these segments");
    assertTrue(run.late.isEmpty(), "nothing late is left for the mature run");
    eventually(() -> historical.cancelled.contains("/druid/v2/q1-mature"), "the losing primary is cancelled");
    assertEquals(1L, metrics.state().get("hedgesWon"));
  }

  /**
   * A sampled sub-query whose hedges cannot answer for all of its segments: at the deadline the hedge's rows go on
   * online, and the primary is not cancelled but answers the mature run late.
   */
  @Test
  void aSampledSubQuerysPrimaryMissingTheDeadlineAnswersItsMatureRun() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = primaryAloneHoldingTheSecondSegment(budgetedQueries);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, STRAGGLER_BUDGET_MS, QueryContextKeys.MATURE, true)),
        System.currentTimeMillis()
    );
    final MatureRun run = budgeted.matureRun();
    final var results = run(primary, budgeted.stamped());
    assertEquals(1, results.toList().size(), "the hedge's rows go on");
    assertEquals(1, budgeted.coverage().answered());
    assertEquals(1, budgeted.coverage().late());
    assertTrue(run.memoised.isEmpty(), "a partial answer is not the mature run's");
    assertEquals(1, run.late.size(), "the primary keeps running for the mature run");
    assertFalse(historical.answers.get(0).isCancelled(), "the primary is not cancelled");
    assertFalse(historical.cancelled.contains("/druid/v2/q1-mature"), "nor told to cancel");

    answer(historical.answers.get(0));
    assertEquals(1, run.late.get(0).get(10, TimeUnit.SECONDS).size(), "its answer reaches the mature run");
  }

  /**
   * A Historical that has started its answer (groupBy does at once) is still told to cancel when its hedge wins, and
   * told again while the answer keeps coming.
   */
  @Test
  void aPrimaryThatStartedAnsweringIsToldToCancelWhenItsHedgeWins() throws Exception
  {
    // Hedged after a second, long after the primary's answer has started.
    final var results = runWithinAMinute(true, new HedgeSettings(0.95, 1, 1_000, 20, 0.05, 10), true);
    assertTrue(
        historical.answers.get(0).set(new PipedInputStream(new PipedOutputStream())),
        "the answer's first bytes came (the rest never will) before the hedge point"
    );
    assertEquals(1, results.toList().size(), "the hedge's answer goes on");
    eventually(() -> historical.cancelled.contains("/druid/v2/q1"), "the primary's Historical is told to cancel");
    // A slow Historical may not have registered the query when the first cancel came: it is told again.
    eventually(
        () -> historical.cancelled.stream().filter("/druid/v2/q1"::equals).count() >= 2,
        "the primary's Historical is told again while its answer is still coming"
    );
    assertEquals(1L, metrics.state().get("hedgesWon"));
  }

  /**
   * A slow Historical registers a query late, and a cancel that comes before does nothing: a primary cut before its
   * answer started is told again, though Druid's client has stopped reading it, and no more once its answer has ended.
   */
  @Test
  void aPrimaryCutBeforeItsAnswerStartedIsToldToCancelUntilItsAnswerEnds() throws Exception
  {
    final var results = runWithinAMinute(true, QUICK, true);
    assertEquals(1, results.toList().size(), "the hedge's answer goes on");
    assertTrue(historical.answers.get(0).isCancelled(), "the primary is cancelled");
    eventually(
        () -> historical.cancelled.stream().filter("/druid/v2/q1"::equals).count() >= 3,
        "the primary's Historical is told again while its answer may still come"
    );
    historical.endAnswer(0);
    // The cancel already due then finds the answer ended: it neither goes out nor comes again.
    eventually(() -> cancellation.getQueue().isEmpty(), "no cancel is due once the primary's answer has ended", 20_000);
    final long told = historical.cancelled.stream().filter("/druid/v2/q1"::equals).count();
    assertTrue(told <= 4, "told " + told + " times, though the answer had ended after the third");
  }

  /**
   * With Zoolander's redundancy, a sub-query to a Historical the model predicts to miss the bound goes to a fast holder
   * as well, at once and outside the hedge budget, and the copy that wins counts once; the same query without the mode
   * is hedged instead.
   */
  @Test
  void zoolanderCopiesASlowPrimarysSubQueryUpFrontAndTheCopyWinsOnce() throws Exception
  {
    for (int i = 0; i < 50; i++) {
      latencies.record(PRIMARY, 800);
      latencies.record(OTHER, 5);
    }
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = primary(budgetedQueries(), true, PATIENT, true);
    final var copied = run(client, query(Map.of(QueryContextKeys.REDUNDANCY, "Zoolander")));
    assertEquals(1, copied.toList().size(), "the copy's answer goes on");
    assertEquals(1, other.requests.size());
    assertTrue(historical.answers.get(0).isCancelled(), "the primary is cancelled");
    assertEquals(1L, metrics.state().get("copiesSent"));
    assertEquals(1L, metrics.state().get("copiesWon"));
    assertEquals(0L, metrics.state().get("hedgesSent"));

    final var hedged = run(client, query(Map.of()));
    assertEquals(1, hedged.toList().size(), "the hedge's answer goes on");
    assertEquals(1L, metrics.state().get("copiesSent"));
    assertEquals(1L, metrics.state().get("hedgesSent"));
  }

  @Test
  void anUnknownRedundancyModeIsRefusedWith400()
  {
    final DruidException e = assertThrows(
        DruidException.class,
        () -> Hedging.redundancyMode(query(Map.of(QueryContextKeys.REDUNDANCY, "always")).context(), UpfrontRedundancy.Mode.OFF)
    );
    assertEquals(400, e.getStatusCode());
    assertTrue(e.getMessage().contains(QueryContextKeys.REDUNDANCY), e.getMessage());
    assertEquals(
        UpfrontRedundancy.Mode.SPARE,
        Hedging.redundancyMode(query(Map.of(QueryContextKeys.REDUNDANCY, " spare ")).context(), UpfrontRedundancy.Mode.OFF)
    );
    assertEquals(
        UpfrontRedundancy.Mode.ZOOLANDER,
        Hedging.redundancyMode(query(Map.of()).context(), UpfrontRedundancy.Mode.ZOOLANDER)
    );
  }

  /** The netty failure of Druid's HTTP client when the Historical refuses the connection: it has died. */
  private static ChannelException refused()
  {
    return new ChannelException("Faulty channel in resource pool", new ConnectException("Connection refused"));
  }

  /** The client of the primary, {@link #other} holding its segments too, with failover as {@code failover} says. */
  private BudgetedDruidClient<Result<TimeseriesResultValue>> primaryFailingOver(BudgetedQueries budgetedQueries, boolean failover)
  {
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final Hedging hedging =
        hedging(Map.of("hedging", false, "failover", failover), PATIENT, holders, (host, segment) -> true);
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, primary);
    holders.put(OTHER, client(budgetedQueries, other, OTHER, hedging));
    return primary;
  }

  @Test
  void aSubQueryToAHistoricalThatCannotBeReachedFailsOverToAnotherHolder()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final ResponseContext context = DirectDruidClient.makeResponseContextForQuery();
    context.addRemainingResponse("q1", 1);
    final var results = primaryFailingOver(budgetedQueries, true).run(subQuery(query(Map.of())), context);
    historical.answers.get(0).setException(refused());
    assertEquals(1, results.toList().size(), "the other holder's answer goes on");
    assertEquals(1, other.requests.size());
    assertTrue(other.requests.get(0).contains("\"queryId\":\"q1\""), other.requests.get(0));
    assertEquals(1L, metrics.state().get("failoversSent"));
    assertEquals(0L, metrics.state().get("hedgesSent"));
    assertEquals(0, context.getRemainingResponses().get("q1"), "the sub-query is accounted for once");
  }

  @Test
  void aBudgetedSubQueryFailsOverAndItsSegmentsCountAsAnswered()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = primaryFailingOver(budgetedQueries, true);
    final BudgetedQuery<Result<TimeseriesResultValue>> budgeted = budgetedQueries.start(
        query(Map.of(QueryContextKeys.BUDGET_MS, 60_000, QueryContextKeys.MATURE, false)),
        System.currentTimeMillis()
    );
    final var results = run(primary, budgeted.stamped());
    historical.answers.get(0).setException(refused());
    assertEquals(1, results.toList().size());
    assertEquals(Coverage.answered(2), budgeted.coverage());
    assertEquals(1L, metrics.state().get("failoversSent"));
  }

  @Test
  void aHedgedSubQueryFailsOverAtOnceOutsideTheHedgeBudget()
  {
    final var results = runWithinAMinute(true, PATIENT, true);
    historical.answers.get(0).setException(refused());
    assertEquals(1, results.toList().size(), "the hedge's answer goes on long before the 10 s hedge point");
    assertEquals(1, other.requests.size());
    assertEquals(1L, metrics.state().get("failoversSent"));
    assertEquals(0L, metrics.state().get("hedgesSent"));
    assertEquals(0L, metrics.state().get("hedgesWon"));
    assertEquals(Coverage.answered(2), ranQuery.coverage());
  }

  @Test
  void nothingFailsOverWhenNoOtherServerHoldsTheSegmentsOrFailoverIsOff()
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final var alone = primary(budgetedQueries, false, PATIENT, false).run(
        subQuery(query(Map.of())), DirectDruidClient.makeResponseContextForQuery()
    );
    historical.answers.get(0).setException(refused());
    final RuntimeException aloneFailure = assertThrows(RuntimeException.class, alone::toList);
    assertTrue(Unreachable.isUnreachable(aloneFailure), "the Historical's own failure: " + aloneFailure);
    final var off = primaryFailingOver(budgetedQueries, false).run(
        subQuery(query(Map.of())), DirectDruidClient.makeResponseContextForQuery()
    );
    historical.answers.get(1).setException(refused());
    assertThrows(RuntimeException.class, off::toList);
    assertTrue(other.requests.isEmpty());
    assertEquals(0L, metrics.state().get("failoversSent"));
  }

  /** A failover whose holder does not answer either gives up at the sub-query's fail time, as the Historical would. */
  @Test
  void aFailoverThatDoesNotAnswerTimesOutAtTheSubQuerysFailTime()
  {
    final StubHistorical silent = new StubHistorical();
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final Hedging hedging = hedging(Map.of("hedging", false), PATIENT, holders, (host, segment) -> true);
    final BudgetedDruidClient<Result<TimeseriesResultValue>> primary = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, primary);
    holders.put(OTHER, client(budgetedQueries, silent, OTHER, hedging));
    final var results = primary.run(
        QueryPlus.wrap(query(Map.of()).withOverriddenContext(
            Map.of(DirectDruidClient.QUERY_FAIL_TIME, System.currentTimeMillis() + 300)
        )),
        DirectDruidClient.makeResponseContextForQuery()
    );
    historical.answers.get(0).setException(refused());
    final RuntimeException timedOut = assertThrows(RuntimeException.class, results::toList);
    assertTrue(Timeouts.isTimeout(timedOut), "a timeout: " + timedOut);
    assertEquals(1, silent.requests.size(), "the failover went out");
  }

  /** A Historical that answered with an error would fail the same query anywhere: the error goes on, as in stock. */
  @Test
  void aHistoricalsOwnErrorDoesNotFailOver()
  {
    final var results = primaryFailingOver(budgetedQueries(), true).run(
        subQuery(query(Map.of())), DirectDruidClient.makeResponseContextForQuery()
    );
    historical.answers.get(0).setException(new IOException("Historical answered 500"));
    assertThrows(RuntimeException.class, results::toList);
    assertTrue(other.requests.isEmpty());
  }

  @Test
  void aFastPrimaryIsNotHedged()
  {
    final var results = runWithinAMinute(true, PATIENT, true);
    answer(historical.answers.get(0));
    assertEquals(1, results.toList().size());
    assertTrue(other.requests.isEmpty(), "no hedge is sent");
    assertEquals(0L, metrics.state().get("hedgesSent"));
    assertEquals(Coverage.answered(2), ranQuery.coverage());
    assertEquals(1, latencies.get(PRIMARY).count());
  }

  @Test
  void withHedgingOffNothingIsEverHedged() throws Exception
  {
    final var budgetedResults = runWithinAMinute(false, QUICK, true);
    final var stockResults = run(primaryClient, query(Map.of()));
    pastTheHedgePoints();
    historical.answers.forEach(BudgetedDruidClientTest::answer);
    assertEquals(1, budgetedResults.toList().size());
    assertEquals(1, stockResults.toList().size());
    assertTrue(other.requests.isEmpty(), "no hedge is sent");
    assertEquals(Coverage.answered(2), ranQuery.coverage());
    // The budgeted sub-query's latency is still learnt, for the queries that ask for hedging themselves
    // (getafixHedge); the unbudgeted one runs as in stock Druid.
    eventually(() -> latencies.size() == 1 && latencies.get(PRIMARY).count() == 1, "the budgeted latency is learnt");
  }

  @Test
  void aSubQueryWithoutAnotherHolderIsNotHedged() throws Exception
  {
    final var results = runWithinAMinute(true, QUICK, false);
    pastTheHedgePoints();
    answer(historical.answers.get(0));
    assertEquals(1, results.toList().size());
    assertTrue(other.requests.isEmpty());
    assertEquals(0L, metrics.state().get("hedgesSent"));
  }

  /** Hedges whose primaries answer first stay within the budget's ratio of the primaries plus its burst. */
  @Test
  void hedgesThatLoseStayWithinTheirBudget() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final HedgeSettings settings = new HedgeSettings(0.95, 1, 5, 20, 0.05, 2);
    final StubHistorical silent = new StubHistorical();
    final Map<String, BudgetedDruidClient<?>> holders = new HashMap<>();
    final Hedging hedging = hedging(true, settings, holders);
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = client(budgetedQueries, historical, PRIMARY, hedging);
    holders.put(PRIMARY, client);
    holders.put(OTHER, client(budgetedQueries, silent, OTHER, hedging));
    final int primaries = 40;
    for (int i = 0; i < primaries; i++) {
      run(client, query(Map.of()));
    }
    eventually(() -> silent.requests.size() >= settings.maxTokens(), "the burst of hedges goes out");
    pastTheHedgePoints();
    historical.answers.forEach(BudgetedDruidClientTest::answer);
    final long sent = (Long) metrics.state().get("hedgesSent");
    assertEquals(sent, silent.requests.size());
    assertTrue(sent >= settings.maxTokens(), "the burst goes out: " + sent);
    assertTrue(sent <= settings.hedgeRatio() * primaries + settings.maxTokens(), "at most ratio × primaries + burst: " + sent);
    assertEquals(0L, metrics.state().get("hedgesWon"));
  }

  /**
   * Behind a Historical that stays slow, hedges win and their primaries are cancelled: each hands its token back, so
   * every late sub-query may dodge the slow node, past the ratio that bounds the hedges that lose.
   */
  @Test
  void hedgesThatWinAreNotCappedByTheBudget() throws Exception
  {
    final BudgetedQueries budgetedQueries = budgetedQueries();
    final HedgeSettings settings = new HedgeSettings(0.95, 1, 5, 20, 0.05, 2);
    final BudgetedDruidClient<Result<TimeseriesResultValue>> client = primary(budgetedQueries, true, settings, true);
    final int primaries = 40;
    for (int i = 0; i < primaries; i++) {
      assertEquals(1, run(client, query(Map.of())).toList().size(), "the hedge's answer");
    }
    assertEquals((long) primaries, metrics.state().get("hedgesSent"));
    assertEquals((long) primaries, metrics.state().get("hedgesWon"));
  }
}
