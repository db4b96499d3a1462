package org.getafix.quality;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.java.util.common.granularity.Granularities;
import org.apache.druid.java.util.emitter.core.Emitter;
import org.apache.druid.java.util.emitter.core.Event;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryLogic;
import org.apache.druid.query.QueryRunnerFactory;
import org.apache.druid.query.QueryRunnerFactoryConglomerate;
import org.apache.druid.query.QueryToolChest;
import org.apache.druid.query.Result;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.apache.druid.query.timeseries.TimeseriesQueryQueryToolChest;
import org.apache.druid.query.timeseries.TimeseriesResultValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class MatureRunsTest
{
  private static final DefaultObjectMapper MAPPER = new DefaultObjectMapper();

  /** Every query is a timeseries here. */
  private static final QueryRunnerFactoryConglomerate CONGLOMERATE = new QueryRunnerFactoryConglomerate()
  {
    @Override
    public <T, QueryType extends Query<T>> QueryRunnerFactory<T, QueryType> findFactory(QueryType query)
    {
      throw new UnsupportedOperationException();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, QueryType extends Query<T>> QueryToolChest<T, QueryType> getToolChest(QueryType query)
    {
      return (QueryToolChest<T, QueryType>) new TimeseriesQueryQueryToolChest();
    }

    @Override
    public <T, QueryType extends Query<T>> QueryLogic getQueryLogic(QueryType query)
    {
      return null;
    }
  };

  private MatureRuns runs;
  /** Metric name → values emitted, in order. */
  private final Map<String, List<Number>> metrics = new ConcurrentHashMap<>();
  private final Emitter capturing = new Emitter()
  {
    @Override
    public void start()
    {
    }

    @Override
    public void emit(Event event)
    {
      if (event instanceof ServiceMetricEvent) {
        final ServiceMetricEvent metric = (ServiceMetricEvent) event;
        assertEquals("ds", metric.getUserDims().get("dataSource"));
        assertEquals("timeseries", metric.getUserDims().get("type"));
        metrics.computeIfAbsent(metric.getMetric(), m -> new CopyOnWriteArrayList<>()).add(metric.getValue());
      }
    }

    @Override
    public void flush()
    {
    }

    @Override
    public void close()
    {
    }
  };

  @AfterEach
  void stop()
  {
    if (runs != null) {
      runs.stop();
    }
  }

  private MatureRuns runs(Map<String, Object> config)
  {
    runs = new MatureRuns(
        MAPPER.convertValue(config, QualityConfig.class),
        new ServiceEmitter("broker", "localhost", capturing),
        CONGLOMERATE,
        MAPPER
    );
    return runs;
  }

  private static TimeseriesQuery query(String id, Boolean mature)
  {
    final Map<String, Object> context = mature == null
                                         ? Map.of(QueryBudget.BUDGET_KEY, 100, "queryId", id)
                                         : Map.of(QueryBudget.BUDGET_KEY, 100, "queryId", id, MatureRuns.MATURE_KEY, mature);
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
    final Query<Result<TimeseriesResultValue>> sampled = runs.maybeSample(query("q1", true), 0);
    final MatureRuns.Run run = runs.runOf(sampled);
    assertNotNull(run);
    assertEquals("q1-mature", run.matureId);
    assertEquals(60_000, run.failTime);

    // Two servers answered in time (hours 0 and 1, and hour 1 again: the merge must add it up), one was late (hour 2).
    runs.memoise(run, "h1", List.of(hour(0, 5), hour(1, 2)));
    runs.memoise(run, "h2", List.of(hour(1, 3)));
    runs.late(run, CompletableFuture.completedFuture(List.of(hour(2, 7))));
    final List<Result<TimeseriesResultValue>> online = List.of(hour(0, 5), hour(1, 5));
    final Coverage coverage = Coverage.answered(2).plus(Coverage.late(List.of(Intervals.utc(0, 3_600_000))));
    runs.answered(sampled, online, coverage, 100, 120).join();

    final Map<String, Object> state = runs.state();
    assertEquals(1L, state.get("matureRunsCompleted"));
    assertEquals(0L, state.get("matureRunsFailed"));
    assertEquals(0L, state.get("memoEntries"), "a measured run's memo entries are dropped");
    @SuppressWarnings("unchecked")
    final Map<String, Object> quality =
        (Map<String, Object>) ((List<Map<String, Object>>) state.get("recent")).get(0).get("quality");
    assertEquals(3, quality.get("matureRows"), "hours 0, 1 (merged) and 2");
    assertEquals(2, quality.get("matchedRows"));
    assertEquals(2 / 3.0, (double) quality.get("quality"), 1e-9, "hours 0 and 1 exact, hour 2 missing: " + quality);
    // What the endpoint serves, with Druid's mapper.
    final JsonNode json = MAPPER.valueToTree(state);
    assertEquals(2 / 3.0, json.path("recent").path(0).path("quality").path("quality").asDouble(), 1e-9, json.toString());
    assertEquals(60_000, json.path("config").path("matureTimeoutMs").asLong(), json.toString());

    assertEquals(List.of(1), metrics.get("getafix/mature/started"));
    assertEquals(List.of(1), metrics.get("getafix/mature/completed"));
    assertEquals(2 / 3.0, metrics.get("getafix/quality/answer").get(0).doubleValue(), 1e-9);
    assertEquals(2 / 3.0, metrics.get("getafix/quality/coverage").get(0).doubleValue(), 1e-9);
    assertEquals(100L, metrics.get("getafix/budget/ms").get(0).longValue());
    assertEquals(120.0, metrics.get("getafix/rt/mean").get(0).doubleValue(), 1e-9, "the first response is the mean");
  }

  @Test
  void anEvictedMemoEntryOrAFailedLateSubQueryFailsTheMatureRun()
  {
    // Every entry weighs at least 1 byte in a memo of 1 byte: the second evicts the first.
    final MatureRuns runs = runs(Map.of("memoMaxBytes", 1, "memoMaxEntries", 1));
    final Query<Result<TimeseriesResultValue>> evicted = runs.maybeSample(query("q2", true), 0);
    runs.memoise(runs.runOf(evicted), "h1", List.of(hour(0, 5)));
    runs.memoise(runs.runOf(evicted), "h2", List.of(hour(1, 5)));
    runs.answered(evicted, List.of(), Coverage.answered(2), 100, 50).join();

    final Query<Result<TimeseriesResultValue>> lateFailed = runs.maybeSample(query("q3", true), 0);
    runs.late(runs.runOf(lateFailed), CompletableFuture.failedFuture(new IllegalStateException("timeout")));
    runs.answered(lateFailed, List.of(), Coverage.late(List.of()), 100, 50).join();

    assertEquals(2L, runs.state().get("matureRunsFailed"));
    assertEquals(0L, runs.state().get("matureRunsCompleted"));
    assertEquals(List.of(1, 1), metrics.get("getafix/mature/failed"));
  }

  @Test
  void aQueryCanDeclineOrAskForAMatureRunAndTheLimitHolds()
  {
    final MatureRuns runs = runs(Map.of("matureSampleRate", 0.0, "maxMatureRuns", 1));
    final TimeseriesQuery unsampled = query("q4", null);
    assertSame(unsampled, runs.maybeSample(unsampled, 0));
    final TimeseriesQuery declined = query("q5", false);
    assertSame(declined, runs.maybeSample(declined, 0));
    assertNotNull(runs.runOf(runs.maybeSample(query("q6", true), 0)));
    final TimeseriesQuery beyondLimit = query("q7", true);
    assertSame(beyondLimit, runs.maybeSample(beyondLimit, 0));
    assertEquals(1L, runs.state().get("matureRunsSkipped"));
    assertEquals(List.of(1), metrics.get("getafix/mature/skipped"));
    assertNull(runs.runOf(beyondLimit));
  }
}
