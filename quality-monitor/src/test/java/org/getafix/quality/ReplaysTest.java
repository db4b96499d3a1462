package org.getafix.quality;

import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.granularity.Granularities;
import org.apache.druid.java.util.common.guava.Sequences;
import org.apache.druid.java.util.common.guava.Yielder;
import org.apache.druid.java.util.common.guava.YieldingAccumulator;
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
import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.core.wire.QueryContextKeys;
import org.joda.time.Interval;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplaysTest
{
  private static final DefaultObjectMapper MAPPER = new DefaultObjectMapper();
  private static final String LATE_HOUR = "2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z";

  private final RecordingEmitter emitted = new RecordingEmitter();
  private final AtomicLong now = new AtomicLong();
  /** Replays and measurements, run when the test says. */
  private final List<Runnable> tasks = new ArrayList<>();
  /** Answers every replay whole: hours 0 and 1. */
  private final FullWalker walker = new FullWalker();
  private QualityConfig config;
  private QualityMetrics metrics;
  private MatureRuns matureRuns;
  private Replays replays;
  private BudgetedQueries budgetedQueries;

  /** Druid's walker as a replay finds it: it records the query and answers it whole, or fails it. */
  private static final class FullWalker implements QuerySegmentWalker
  {
    final List<Query<?>> ran = new ArrayList<>();
    RuntimeException failure;

    @Override
    @SuppressWarnings("unchecked")
    public <T> QueryRunner<T> getQueryRunnerForIntervals(Query<T> query, Iterable<Interval> intervals)
    {
      return (queryPlus, context) -> {
        ran.add(queryPlus.getQuery());
        if (failure != null) {
          throw failure;
        }
        return Sequences.simple((List<T>) List.of(hour(0, 5), hour(1, 7)));
      };
    }

    @Override
    public <T> QueryRunner<T> getQueryRunnerForSegments(Query<T> query, Iterable<SegmentDescriptor> specs)
    {
      throw new UnsupportedOperationException();
    }
  }

  /** Reads a result at a time, as Druid's query resource writes them. */
  private static final class OneAtATime extends YieldingAccumulator<Object, Result<TimeseriesResultValue>>
  {
    @Override
    public Object accumulate(Object accumulated, Result<TimeseriesResultValue> in)
    {
      this.yield();
      return in;
    }
  }

  @AfterEach
  void stop()
  {
    if (matureRuns != null) {
      matureRuns.stop();
    }
  }

  /** A Broker with one mature run at most and replays on (they are off by default), unless {@code properties} say. */
  private void broker(Map<String, Object> properties)
  {
    final Map<String, Object> settings = new HashMap<>(Map.of("maxMatureRuns", 1, "replayQueueSize", 32));
    settings.putAll(properties);
    config = MAPPER.convertValue(settings, QualityConfig.class).validate();
    final ServiceEmitter emitter = emitted.serviceEmitter();
    metrics = new QualityMetrics(emitter);
    matureRuns = new MatureRuns(
        config,
        metrics,
        new TimeseriesConglomerate(),
        MAPPER,
        MAPPER.convertValue(Map.of("numConnections", 100), DruidHttpClientConfig.class)
    );
    replays = new Replays(config, metrics, matureRuns, () -> walker, now::get, tasks::add, tasks::add);
    budgetedQueries = new BudgetedQueries(
        config,
        new Admission(config, emitter, new QualityProfiles()),
        new BudgetControl(config, emitter),
        new BudgetSplit(config, new QualityProfiles()),
        matureRuns,
        metrics,
        new QualityProfiles(),
        new RecentCoverage(),
        new DeadlineReserve(0.25),
        replays
    );
  }

  private static Result<TimeseriesResultValue> hour(int h, long rows)
  {
    return new Result<>(DateTimes.of("2025-01-01").plusHours(h), new TimeseriesResultValue(Map.of("rows", rows)));
  }

  /** A query that asks for a mature run, started now: it gets one if there is room, else it is skipped. */
  private BudgetedQuery<Result<TimeseriesResultValue>> sampled(String id)
  {
    final TimeseriesQuery query = Druids.newTimeseriesQueryBuilder()
                                        .dataSource("ds")
                                        .intervals("2025-01-01/2025-01-02")
                                        .granularity(Granularities.HOUR)
                                        .aggregators(new CountAggregatorFactory("rows"))
                                        .context(Map.of(QueryContextKeys.BUDGET_MS, 100, "queryId", id,
                                                        QueryContextKeys.MATURE, true))
                                        .build();
    return budgetedQueries.start(query, now.get());
  }

  /** Answers {@code query} online with hour 0 only: hour 1's segment was late. */
  private static void answerPartially(BudgetedQuery<Result<TimeseriesResultValue>> query)
  {
    query.answeredInTime(1);
    query.late(List.of(LATE_HOUR));
    query.answered(List.of(hour(0, 5)), 100);
  }

  /** Answers {@code query} online, whole, with hours 0 and 1. */
  private static void answerWhole(BudgetedQuery<Result<TimeseriesResultValue>> query)
  {
    query.answeredInTime(2);
    query.answered(List.of(hour(0, 5), hour(1, 7)), 100);
  }

  /**
   * Answers the query of a mature run whole (its one sub-answer memoised, nothing late) and waits until the run is
   * measured, at quality 1: its place among the mature runs is free again.
   */
  private void completeMatureRun(BudgetedQuery<Result<TimeseriesResultValue>> query)
  {
    final List<Result<TimeseriesResultValue>> rows = List.of(hour(0, 5), hour(1, 7));
    matureRuns.memoise(query.matureRun(), "h1", rows);
    answerWhole(query);
    matureRuns.measureWhenComplete(query, rows).join();
  }

  private void runTasks()
  {
    final List<Runnable> due = List.copyOf(tasks);
    tasks.clear();
    due.forEach(Runnable::run);
  }

  private Map<String, Object> state()
  {
    final ServiceEmitter emitter = emitted.serviceEmitter();
    return new QualityResource(
        config, metrics, matureRuns, replays, new BudgetControl(config, emitter),
        new BudgetSplit(config, new QualityProfiles()), new Admission(config, emitter, new QualityProfiles()), new QualityProfiles(), new DeadlineReserve(0.25), new RecentCoverage()
    ).state();
  }

  @SuppressWarnings("unchecked")
  private double sampledQuality()
  {
    final Object mean = ((Map<String, Object>) state().get("sampledQuality")).get("meanQuality");
    return mean == null ? Double.NaN : (double) mean;
  }

  @SuppressWarnings("unchecked")
  private List<MatureRunReport> recent()
  {
    return (List<MatureRunReport>) state().get("recent");
  }

  @Test
  void aSampledQueryBeyondTheLimitIsQueuedInsteadOfLost()
  {
    broker(Map.of());
    final BudgetedQuery<Result<TimeseriesResultValue>> first = sampled("q1");
    final BudgetedQuery<Result<TimeseriesResultValue>> second = sampled("q2");
    assertNotNull(first.matureRun());
    assertNull(second.matureRun(), "the limit is reached");
    answerPartially(second);

    final Map<String, Object> state = state();
    assertEquals(1L, state.get("matureRunsSkipped"));
    assertEquals(1L, state.get("replaysQueued"));
    assertEquals(1, state.get("replayQueue"));
    assertEquals(List.of(1), emitted.values("getafix/quality/replay/queued"));
    // The limit is still reached (q1's run is in flight), and that run counts as load: nothing starts.
    replays.tick();
    assertTrue(tasks.isEmpty());
    assertEquals(1, state().get("replayQueue"));
    assertEquals(0L, state().get("replaysStarted"));
  }

  @Test
  void aReplayStartsOnlyWhenTheBrokerIsIdleAndMeasuresTheOnlineAnswerAgainstTheWholeOne() throws IOException
  {
    broker(Map.of());
    replays.arrived(0);
    final BudgetedQuery<Result<TimeseriesResultValue>> first = sampled("q1");
    final BudgetedQuery<Result<TimeseriesResultValue>> second = sampled("q2");
    answerPartially(second);
    completeMatureRun(first);
    assertEquals(1.0, sampledQuality(), 1e-9, "q1's run stands for both samples of the moment");

    // A query in flight through the walker, its results half read: the Broker is busy.
    final QueryRunner<Result<TimeseriesResultValue>> counted =
        replays.counted((queryPlus, context) -> Sequences.simple(List.of(hour(0, 5), hour(1, 7))));
    final Yielder<Object> reading = counted.run(QueryPlus.wrap(second.query()), ResponseContext.createEmpty())
                                           .toYielder(null, new OneAtATime());
    assertEquals(1, state().get("onlineQueriesInFlight"));
    now.set(5_000);
    replays.tick();
    assertTrue(tasks.isEmpty(), "busy: the replay waits");
    reading.close();
    assertEquals(0, state().get("onlineQueriesInFlight"));

    // Idle: nothing in flight, and no query for 5 s, longer than a replay takes.
    replays.tick();
    assertEquals(1, tasks.size());
    assertEquals(1, state().get("replaysInFlight"), "a replay is one of the mature runs in flight");
    runTasks();

    final Query<?> replayed = walker.ran.get(0);
    assertEquals("q2-replay", replayed.getId());
    assertEquals(config.getMatureTimeoutMs(), replayed.context().getLong(QueryContexts.TIMEOUT_KEY));
    assertFalse(replayed.context().getBoolean(QueryContextKeys.HEDGE, true), "a replay is not hedged");
    assertNull(replayed.context().get(QueryContextKeys.QUERY_REF), "nor budgeted");

    final Map<String, Object> state = state();
    assertEquals(1L, state.get("replaysStarted"));
    assertEquals(1L, state.get("replaysCompleted"));
    assertEquals(0, state.get("replaysInFlight"));
    assertEquals(0, state.get("replayQueue"));
    final MatureRunReport report = recent().get(0);
    assertEquals("q2", report.queryId());
    assertTrue(report.replayed());
    assertFalse(recent().get(1).replayed(), "q1's was a mature run");
    assertEquals(0.5, report.quality().quality(), 1e-9, "hour 0 exact, hour 1 missing online");
    assertEquals(2, report.quality().matureRows());
    assertEquals(0.75, sampledQuality(), 1e-9, "(1 + 0.5) / 2");
    // A later moment's one sample, measured at 1: the first moment's runs each stand for one sample, not two.
    now.set(20_000);
    completeMatureRun(sampled("q5"));
    assertEquals((1 + 0.5 + 1) / 3, sampledQuality(), 1e-9, "the replayed sample stands for itself");
    assertEquals(List.of(1), emitted.values("getafix/quality/replay/started"));
    assertEquals(List.of(1), emitted.values("getafix/quality/replay/completed"));
    assertEquals(0.5, emitted.values("getafix/quality/answer").get(1).doubleValue(), 1e-9);
    final String json = MAPPER.copy().registerModule(new QualityJsonModule()).writeValueAsString(state);
    assertTrue(json.contains("\"replayed\":true"), json);
  }

  @Test
  void anExpiredReplayIsDroppedAndCounted()
  {
    broker(Map.of("replayExpiration", "PT1S"));
    replays.arrived(0);
    final BudgetedQuery<Result<TimeseriesResultValue>> first = sampled("q1");
    answerPartially(sampled("q2"));
    // q1's mature run stays in flight: the Broker is never idle.
    now.set(999);
    replays.tick();
    assertEquals(1, state().get("replayQueue"));
    now.set(1_000);
    replays.tick();
    assertNotNull(first.matureRun());
    assertTrue(tasks.isEmpty());
    assertTrue(walker.ran.isEmpty());
    final Map<String, Object> state = state();
    assertEquals(0, state.get("replayQueue"));
    assertEquals(Map.of("full", 0L, "expired", 1L), state.get("replaysDroppedByReason"));
    assertEquals(List.of(1), emitted.values("getafix/quality/replay/dropped"));
    assertEquals("expired", emitted.dimensions("getafix/quality/replay/dropped").get(0).get("reason"));
    assertEquals(0L, state.get("replaysStarted"));
  }

  @Test
  void aFullQueueDropsItsOldestReplay()
  {
    broker(Map.of("replayQueueSize", 1));
    replays.arrived(0);
    final BudgetedQuery<Result<TimeseriesResultValue>> first = sampled("q1");
    answerPartially(sampled("q2"));
    answerPartially(sampled("q3"));
    final Map<String, Object> state = state();
    assertEquals(2L, state.get("replaysQueued"));
    assertEquals(1, state.get("replayQueue"));
    assertEquals(Map.of("full", 1L, "expired", 0L), state.get("replaysDroppedByReason"));
    assertEquals("full", emitted.dimensions("getafix/quality/replay/dropped").get(0).get("reason"));
    completeMatureRun(first);
    now.set(5_000);
    replays.tick();
    runTasks();
    assertEquals(List.of("q3-replay"), walker.ran.stream().map(Query::getId).toList(), "q2 was the oldest");
  }

  @Test
  void aSkippedQueryThatAnsweredWholeIsMeasuredWithoutAReplay()
  {
    broker(Map.of());
    sampled("q1");
    answerWhole(sampled("q2"));
    assertEquals(0, state().get("replayQueue"), "nothing to replay");
    assertEquals(1, tasks.size(), "measured off the query thread");
    runTasks();
    final Map<String, Object> state = state();
    assertEquals(1L, state.get("replaysUnneeded"));
    assertEquals(0L, state.get("replaysQueued"));
    assertTrue(walker.ran.isEmpty());
    final MatureRunReport report = recent().get(0);
    assertEquals("q2", report.queryId());
    assertFalse(report.replayed());
    assertEquals(1.0, report.quality().quality(), 1e-9);
    assertEquals(2, report.quality().matureRows());
    assertEquals(1.0, sampledQuality(), 1e-9);
    assertEquals(List.of(1), emitted.values("getafix/quality/replay/unneeded"));
  }

  @Test
  void aReplayHoldsAPlaceAmongTheMatureRunsUntilItEnds()
  {
    broker(Map.of());
    replays.arrived(0);
    final BudgetedQuery<Result<TimeseriesResultValue>> first = sampled("q1");
    answerPartially(sampled("q2"));
    completeMatureRun(first);
    now.set(5_000);
    replays.tick();
    assertEquals(1, tasks.size(), "started, not yet run");
    assertNull(sampled("q3").matureRun(), "the replay takes the one place");
    assertEquals(2L, state().get("matureRunsSkipped"));
    runTasks();
    assertNotNull(sampled("q4").matureRun(), "the replay ended");
  }

  @Test
  void aFailedReplayIsCountedAndFreesItsPlace()
  {
    broker(Map.of());
    replays.arrived(0);
    final BudgetedQuery<Result<TimeseriesResultValue>> first = sampled("q1");
    answerPartially(sampled("q2"));
    completeMatureRun(first);
    walker.failure = new IllegalStateException("Historical gone");
    now.set(5_000);
    replays.tick();
    runTasks();
    final Map<String, Object> state = state();
    assertEquals(1L, state.get("replaysFailed"));
    assertEquals(0L, state.get("replaysCompleted"));
    assertEquals(0, state.get("replaysInFlight"));
    assertEquals(List.of(1), emitted.values("getafix/quality/replay/failed"));
    assertEquals(1.0, sampledQuality(), 1e-9, "a failed replay is a started sample without a measure, as a failed run");
  }

  @Test
  void withoutAQueueASkippedQueryStaysSkipped()
  {
    broker(Map.of("replayQueueSize", 0));
    sampled("q1");
    answerPartially(sampled("q2"));
    replays.arrived(0);
    now.set(5_000);
    replays.tick();
    final Map<String, Object> state = state();
    assertEquals(1L, state.get("matureRunsSkipped"));
    assertEquals(0L, state.get("replaysQueued"));
    assertEquals(0, state.get("replayQueue"));
    assertNull(state.get("meanInterArrivalMs"));
    assertTrue(tasks.isEmpty());
  }
}
