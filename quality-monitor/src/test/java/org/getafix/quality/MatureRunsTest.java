package org.getafix.quality;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.granularity.Granularities;
import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.Result;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.apache.druid.query.timeseries.TimeseriesResultValue;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.AfterEach;
import org.getafix.core.quality.control.DeadlineReserve;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MatureRunsTest
{
  private static final DefaultObjectMapper MAPPER = new DefaultObjectMapper();

  /** Every query is a timeseries here. */
  private static final QueryRunnerFactoryConglomerate CONGLOMERATE = new TimeseriesConglomerate();

  private MatureRuns runs;
  private QualityMetrics qualityMetrics;
  private final QualityProfiles profiles = new QualityProfiles();
  private QualityConfig config;
  private final RecordingEmitter emitted = new RecordingEmitter();

  @AfterEach
  void stop()
  {
    if (runs != null) {
      runs.stop();
    }
  }

  private MatureRuns runs(Map<String, Object> properties)
  {
    config = MAPPER.convertValue(properties, QualityConfig.class);
    final ServiceEmitter emitter = emitted.serviceEmitter();
    qualityMetrics = new QualityMetrics(emitter);
    runs = new MatureRuns(
        config,
        qualityMetrics,
        CONGLOMERATE,
        MAPPER,
        MAPPER.convertValue(Map.of("numConnections", 100), DruidHttpClientConfig.class)
    );
    return runs;
  }

  /** {@code query} started at 0 as a budgeted query, sampled by the mature runs under test. */
  private BudgetedQuery<Result<TimeseriesResultValue>> start(TimeseriesQuery query)
  {
    return new BudgetedQuery<>(
        query,
        "ref-" + query.getId(),
        QueryBudget.askedIn(query.context(), config.getMaxBudgetMs()),
        0,
        0,
        true,
        runs.sample(query, 0),
        false,
        List.of(qualityMetrics, profiles)
    );
  }

  /** Answers {@code query} online with {@code rows} after {@code elapsedMillis} and waits for its measurement. */
  private AnswerQuality answer(
      BudgetedQuery<Result<TimeseriesResultValue>> query,
      List<Result<TimeseriesResultValue>> rows,
      long elapsedMillis
  )
  {
    query.answered(rows, elapsedMillis);
    return runs.measureWhenComplete(query, rows).join();
  }

  /** What the quality endpoint shows. */
  private Map<String, Object> state()
  {
    final ServiceEmitter emitter = emitted.serviceEmitter();
    final Replays replays =
        new Replays(config, qualityMetrics, runs, () -> null, () -> 0L, Runnable::run, Runnable::run);
    return new QualityResource(
        config, qualityMetrics, runs, replays, new BudgetControl(config, emitter), new BudgetSplit(config, profiles),
        new Admission(config, emitter, new QualityProfiles()), profiles, new DeadlineReserve(0.25), new RecentCoverage()
    )
        .state();
  }

  @Test
  void matureRunsLeaveHalfOfTheBrokersConnectionsPerHistoricalToOnlineSubQueries()
  {
    assertEquals(8, MatureRuns.maxRuns(8, 20));
    assertEquals(10, MatureRuns.maxRuns(16, 20));
    assertEquals(5, MatureRuns.maxRuns(16, 10));
    assertEquals(1, MatureRuns.maxRuns(4, 1));
  }

  private static TimeseriesQuery query(String id, Boolean mature)
  {
    final Map<String, Object> context = mature == null
                                         ? Map.of(QueryContextKeys.BUDGET_MS, 100, "queryId", id)
                                         : Map.of(QueryContextKeys.BUDGET_MS, 100, "queryId", id, QueryContextKeys.MATURE, mature);
    return Druids.newTimeseriesQueryBuilder()
                 .dataSource("ds")
                 .intervals("2025-01-01/2025-01-02")
                 .granularity(Granularities.HOUR)
                 .aggregators(new CountAggregatorFactory("rows"))
                 .context(context)
                 .build();
  }

  private static Result<TimeseriesResultValue> hour(int h, long rows)
  {
    return new Result<>(DateTimes.of("2025-01-01").plusHours(h), new TimeseriesResultValue(Map.of("rows", rows)));
  }

  @Test
  void theMatureAnswerMergesTheMemoWithTheLateSubAnswersAndMeasuresTheOnlineOne()
  {
    final MatureRuns runs = runs(Map.of());
    final BudgetedQuery<Result<TimeseriesResultValue>> sampled = start(query("q1", true));
    final MatureRun run = sampled.matureRun();
    assertNotNull(run);
    assertEquals("q1-mature", run.matureId);
    assertEquals(60_000, run.failTime);

    // Two servers answered in time (hours 0 and 1, and hour 1 again: the merge must add it up), one was late (hour 2).
    runs.memoise(run, "h1", List.of(hour(0, 5), hour(1, 2)));
    runs.memoise(run, "h2", List.of(hour(1, 3)));
    run.late(CompletableFuture.completedFuture(List.of(hour(2, 7))));
    sampled.answeredInTime(2);
    sampled.late(List.of("2025-01-01T02:00:00.000Z/2025-01-01T03:00:00.000Z"));
    answer(sampled, List.of(hour(0, 5), hour(1, 5)), 120);

    final Map<String, Object> state = state();
    assertEquals(1L, state.get("matureRunsCompleted"));
    assertEquals(0L, state.get("matureRunsFailed"));
    assertEquals(0L, state.get("memoEntries"), "a measured run's memo entries are dropped");
    @SuppressWarnings("unchecked")
    final AnswerQuality quality = ((List<MatureRunReport>) state.get("recent")).get(0).quality();
    assertEquals(3, quality.matureRows(), "hours 0, 1 (merged) and 2");
    assertEquals(2, quality.matchedRows());
    assertEquals(2 / 3.0, quality.quality(), 1e-9, "hours 0 and 1 exact, hour 2 missing: " + quality);
    @SuppressWarnings("unchecked")
    final Map<String, Object> sampledQuality = (Map<String, Object>) state.get("sampledQuality");
    assertEquals(2 / 3.0, (double) sampledQuality.get("meanQuality"), 1e-9, "one run, nothing skipped: " + sampledQuality);
    // What the endpoint serves, with Druid's mapper and the quality monitor's formats.
    final JsonNode json = MAPPER.copy().registerModule(new QualityJsonModule()).valueToTree(state);
    assertEquals("q1", json.path("recent").path(0).path("queryId").asText(), json.toString());
    assertEquals(
        2,
        json.path("qualityProfiles").path("ds/timeseries").path("fractions").size(),
        "one measured run shapes no profile yet (linear), but names its class: " + json
    );
    assertEquals(3, json.path("recent").path(0).path("coverage").path("total").asInt(), json.toString());
    assertEquals(2 / 3.0, json.path("recent").path(0).path("quality").path("quality").asDouble(), 1e-9, json.toString());
    assertEquals(60_000, json.path("config").path("matureTimeoutMs").asLong(), json.toString());

    assertEquals(List.of(1), emitted.values("getafix/mature/started"));
    assertEquals(List.of(1), emitted.values("getafix/mature/completed"));
    assertEquals(2 / 3.0, emitted.values("getafix/quality/answer").get(0).doubleValue(), 1e-9);
    assertEquals(2 / 3.0, emitted.values("getafix/quality/coverage").get(0).doubleValue(), 1e-9);
    assertEquals(100L, emitted.values("getafix/budget/ms").get(0).longValue());
    assertEquals(120.0, emitted.values("getafix/rt/mean").get(0).doubleValue(), 1e-9, "the first response is the mean");
  }

  @Test
  void anEvictedMemoEntryOrAFailedLateSubQueryFailsTheMatureRun()
  {
    // An entry heavier than the whole memo (1 byte) is evicted as it is written.
    final MatureRuns runs = runs(Map.of("memoMaxBytes", 1, "memoMaxEntries", 1));
    final BudgetedQuery<Result<TimeseriesResultValue>> evicted = start(query("q2", true));
    runs.memoise(evicted.matureRun(), "h1", List.of(hour(0, 5)));
    evicted.answeredInTime(2);
    answer(evicted, List.of(), 50);

    final BudgetedQuery<Result<TimeseriesResultValue>> lateFailed = start(query("q3", true));
    lateFailed.matureRun().late(CompletableFuture.failedFuture(new IllegalStateException("timeout")));
    answer(lateFailed, List.of(), 50);

    // The eviction failed its run at once (on the measurer's thread, before the measurements joined above).
    final Map<String, Object> state = state();
    assertEquals(2L, state.get("matureRunsFailed"));
    assertEquals(0L, state.get("matureRunsCompleted"));
    assertEquals(1L, state.get("memoEvictions"));
    assertEquals(0L, state.get("memoBytes"));
    assertEquals(
        Map.of("evicted", 1L, "expired", 0L, "late", 1L, "merge", 0L, "abandoned", 0L),
        state.get("matureRunsFailedByReason")
    );
    assertEquals(List.of(1, 1), emitted.values("getafix/mature/failed"));
    assertEquals(List.of("evicted", "late"), dimension("getafix/mature/failed", "reason"));
    assertEquals(List.of(1), emitted.values("getafix/memo/evictions"));
    assertEquals(List.of("size"), dimension("getafix/memo/evictions", "cause"));
    assertEquals(List.of(0L), emitted.values("getafix/memo/bytes"));
  }

  @Test
  void theMemoStaysWithinItsBoundAndEachEvictionFailsItsRun()
  {
    // Every entry (a one-hour sub-answer, under 100 bytes as JSON) weighs 100: the memo holds 10 of them.
    final int runsStarted = 25;
    final MatureRuns runs = runs(Map.of("memoMaxBytes", 1000, "memoMaxEntries", 10, "maxMatureRuns", runsStarted));
    final List<BudgetedQuery<Result<TimeseriesResultValue>>> sampled = new ArrayList<>();
    for (int i = 0; i < runsStarted; i++) {
      final BudgetedQuery<Result<TimeseriesResultValue>> query = start(query("m" + i, true));
      sampled.add(query);
      runs.memoise(query.matureRun(), "h1", List.of(hour(i % 24, i)));
      assertTrue((Long) state().get("memoBytes") <= 1000, state().toString());
    }
    // A failed run keeps its place in maxMatureRuns until its late sub-queries end (they hold their connections).
    assertEquals(runsStarted, state().get("matureRunsInFlight"));
    // The measurer runs eviction failures and measurements in order: once a later measurement is in, so are they.
    final List<AnswerQuality> measured = new ArrayList<>();
    for (BudgetedQuery<Result<TimeseriesResultValue>> query : sampled) {
      query.answeredInTime(1);
      measured.add(answer(query, List.of(), 50));
    }
    final Map<String, Object> state = state();
    assertEquals(0L, state.get("memoBytes"), "measured and failed runs leave nothing in the memo");
    assertEquals(runsStarted - 10L, state.get("memoEvictions"), state.toString());
    assertEquals(runsStarted - 10L, ((Map<?, ?>) state.get("matureRunsFailedByReason")).get("evicted"), state.toString());
    assertEquals(runsStarted - 10L, state.get("matureRunsFailed"), state.toString());
    assertEquals(10L, state.get("matureRunsCompleted"), state.toString());
    assertEquals(10L, measured.stream().filter(Objects::nonNull).count(), "the runs whose memo survived are measured");
    assertEquals(0, state.get("matureRunsInFlight"), state.toString());
    assertTrue(emitted.values("getafix/memo/bytes").stream().allMatch(b -> b.longValue() <= 1000), emitted.events.toString());
    assertEquals(runsStarted - 10, emitted.values("getafix/memo/evictions").size());
  }

  private List<Object> dimension(String metric, String dimension)
  {
    return emitted.dimensions(metric).stream().map(d -> d.get(dimension)).toList();
  }

  @AfterEach
  void everyMetricNamesItsQuerysDataSourceAndType()
  {
    for (ServiceMetricEvent event : emitted.events) {
      assertEquals("ds", event.getUserDims().get("dataSource"), event.toString());
      assertEquals("timeseries", event.getUserDims().get("type"), event.toString());
    }
  }

  @Test
  void aQueryCanDeclineOrAskForAMatureRunAndTheLimitHolds()
  {
    final MatureRuns runs = runs(Map.of("matureSampleRate", 0.0, "maxMatureRuns", 1));
    assertNull(runs.sample(query("q4", null), 0));
    assertNull(runs.sample(query("q5", false), 0), "declined");
    assertNotNull(runs.sample(query("q6", true), 0));
    assertNull(runs.sample(query("q7", true), 0), "beyond the limit");
    assertEquals(1L, state().get("matureRunsSkipped"));
    @SuppressWarnings("unchecked")
    final Map<String, Object> sampled = (Map<String, Object>) state().get("sampledQuality");
    assertEquals(0L, sampled.get("measuredRuns"), "none measured yet: " + sampled);
    assertEquals(null, sampled.get("meanQuality"));
    assertEquals(List.of(1), emitted.values("getafix/mature/skipped"));
  }
}
