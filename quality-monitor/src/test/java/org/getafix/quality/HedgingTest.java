package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.java.util.emitter.core.NoopEmitter;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.SegmentDescriptor;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.spec.MultipleSpecificSegmentSpec;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.apache.druid.server.coordination.DruidServerMetadata;
import org.apache.druid.server.coordination.ServerType;
import org.getafix.core.redundancy.DeadlineShares;
import org.getafix.core.redundancy.HedgePolicy;
import org.getafix.core.redundancy.HedgeSettings;
import org.getafix.core.redundancy.NodeLatencies;
import org.getafix.core.redundancy.RaceLosses;
import org.getafix.core.redundancy.UpfrontRedundancy;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which holders a sub-query's segments would be hedged to. */
class HedgingTest
{
  private static final ObjectMapper MAPPER = new DefaultObjectMapper();
  private static final SegmentDescriptor FIRST = new SegmentDescriptor(Intervals.of("2025-01-01T00/2025-01-01T01"), "v1", 0);
  private static final SegmentDescriptor SECOND = new SegmentDescriptor(Intervals.of("2025-01-01T01/2025-01-01T02"), "v1", 0);

  private static final SegmentDescriptor THIRD = new SegmentDescriptor(Intervals.of("2025-01-01T02/2025-01-01T03"), "v1", 0);

  private final NodeLatencies latencies = new NodeLatencies(Duration.ofSeconds(30), System::nanoTime);
  private final RaceLosses raceLosses = new RaceLosses(new NodeLatencies(Duration.ofSeconds(30), System::nanoTime), 5);
  private final Map<String, BudgetedDruidClient<?>> clients = Map.of("a:8083", client("a:8083"), "b:8083", client("b:8083"), "c:8083", client("c:8083"));

  /** A client that is only compared here, never run. */
  private static BudgetedDruidClient<?> client(String host)
  {
    return new BudgetedDruidClient<>(new TimeseriesConglomerate(), new RequestCapture((query, future) -> {}), MAPPER,
                                     null, "http", host, null, null, null, null, null, null, 20, System::currentTimeMillis);
  }

  /** FIRST is on a, b and c; SECOND on a and c; THIRD on a only. */
  private Hedging hedging(boolean enabled)
  {
    final Hedging.Holders holders = new Hedging.Holders()
    {
      @Override
      public List<DruidServerMetadata> of(String table, SegmentDescriptor segment)
      {
        final List<String> hosts = segment.equals(FIRST)
                                   ? List.of("a:8083", "b:8083", "c:8083")
                                   : segment.equals(SECOND) ? List.of("a:8083", "c:8083") : List.of("a:8083");
        return hosts.stream()
                    .map(host -> new DruidServerMetadata(host, host, null, 0, ServerType.HISTORICAL, "_default_tier", 0))
                    .collect(Collectors.toList());
      }

      @Override
      public BudgetedDruidClient<?> clientOf(DruidServerMetadata server)
      {
        return clients.get(server.getHost());
      }
    };
    final QualityConfig config = MAPPER.convertValue(Map.of("hedging", enabled), QualityConfig.class);
    return new Hedging(
        config,
        new HedgePolicy(HedgeSettings.DEFAULTS, latencies, raceLosses),
        latencies,
        raceLosses,
        new UpfrontRedundancy(config.redundancySettings(), latencies, raceLosses, new Random(0)),
        holders,
        new QualityMetrics(new ServiceEmitter("broker", "localhost", new NoopEmitter()))
    );
  }

  private static TimeseriesQuery subQuery(List<SegmentDescriptor> segments)
  {
    return Druids.newTimeseriesQueryBuilder()
                 .dataSource("ds")
                 .intervals(new MultipleSpecificSegmentSpec(segments))
                 .aggregators(new CountAggregatorFactory("rows"))
                 .build();
  }

  /**
   * A Historical cut at every deadline, whose sub-queries had less and less time when sent: its mean latency falls
   * below a lone query's time left, while the share of their time its sub-queries took reads 1 once it is known.
   */
  @Test
  void aHistoricalCutAtEveryDeadlineIsSplitOnceKnownWhateverTheTimeItsSubQueriesHad()
  {
    final Hedging hedging = hedging(false);
    final TimeseriesQuery sub = subQuery(List.of(FIRST, SECOND))
        .withOverriddenContext(Map.of(QueryContextKeys.SPLIT, 4));
    for (int i = 0; i < DeadlineShares.MIN_SAMPLES - 1; i++) {
      hedging.recordBudgeted("a:8083", 200 + i, 200 + i, true);
    }
    assertTrue(Double.isNaN(hedging.deadlineShare("a:8083")), "not known before MIN_SAMPLES sub-queries");
    assertEquals(1, hedging.splitParts(sub, "a:8083", 400, 10), "latencies and share both unknown yet");
    hedging.recordBudgeted("a:8083", 260, 250, true);
    assertEquals(1.0, hedging.deadlineShare("a:8083"), 1e-12, "a sub-query past its deadline counts 1, not more");
    assertEquals(2, hedging.splitParts(sub, "a:8083", 400, 10), "two segments, two parts");
    hedging.recordBudgeted("b:8083", 0, 0, true);
    assertTrue(Double.isNaN(hedging.deadlineShare("b:8083")));
  }

  @Test
  void eachSegmentGoesToItsFastestOtherHolder()
  {
    for (int i = 0; i < HedgeSettings.DEFAULTS.minSamples(); i++) {
      latencies.record("b:8083", 5);
      latencies.record("c:8083", 50);
    }
    final Hedging.Plan plan =
        hedging(true).plan(subQuery(List.of(FIRST, SECOND)), "a:8083", Double.POSITIVE_INFINITY, false);
    assertEquals(
        Map.of(clients.get("b:8083"), List.of(FIRST), clients.get("c:8083"), List.of(SECOND)),
        plan.groups
    );
    // a has no history yet, so its own p95 is the unknown-node latency; b answers in 5 ms, so a is late sooner, at
    // the minimum delay.
    assertEquals(HedgeSettings.DEFAULTS.minDelayMillis(), plan.hedgeAfterMillis);
  }

  /**
   * b loses its races: each of its sub-queries, cancelled when its hedge wins, is recorded with the few ms it ran, so
   * its latencies read faster than c's; it is still no hedge target once it has lost most of its recent races.
   */
  @Test
  void aHistoricalThatLosesMostOfItsRacesIsNoHedgeTarget()
  {
    final Hedging hedging = hedging(true);
    for (int i = 0; i < HedgeSettings.DEFAULTS.minSamples(); i++) {
      hedging.record("b:8083", 5, i % 4 != 0);
      hedging.record("c:8083", 50, false);
    }
    final Hedging.Plan plan = hedging.plan(subQuery(List.of(FIRST, SECOND)), "a:8083", Double.POSITIVE_INFINITY, false);
    assertEquals(Map.of(clients.get("c:8083"), List.of(FIRST, SECOND)), plan.groups);
    final Hedging.Plan ofC = hedging.plan(subQuery(List.of(FIRST)), "c:8083", Double.POSITIVE_INFINITY, false);
    assertEquals(Map.of(clients.get("a:8083"), List.of(FIRST)), ofC.groups, "b is no target of c's segments either");
  }

  /**
   * c was cut at its last deadlines: a budgeted sub-query of a, which may answer in part, hedges FIRST to b and keeps
   * SECOND, which only a and c hold; without a deadline, c is still SECOND's target.
   */
  @Test
  void aBudgetedSubQueryHedgesNothingToAHistoricalThatMissesItsDeadlines()
  {
    final Hedging hedging = hedging(true);
    for (int i = 0; i < DeadlineShares.MIN_SAMPLES; i++) {
      hedging.recordBudgeted("c:8083", 5, 5, true);
      hedging.recordBudgeted("b:8083", 50, 500, false);
    }
    final Hedging.Plan budgeted = hedging.plan(subQuery(List.of(FIRST, SECOND)), "a:8083", 1_000, true);
    assertEquals(Map.of(clients.get("b:8083"), List.of(FIRST)), budgeted.groups);
    assertEquals(List.of(SECOND), budgeted.stranded);
    assertNull(hedging.plan(subQuery(List.of(SECOND)), "a:8083", 1_000, true), "SECOND's only other holder is late");
    final Hedging.Plan unbudgeted =
        hedging.plan(subQuery(List.of(SECOND)), "a:8083", Double.POSITIVE_INFINITY, false);
    assertEquals(Map.of(clients.get("c:8083"), List.of(SECOND)), unbudgeted.groups);
  }

  @Test
  void noPlanWhenOffOrWhenASegmentHasNoOtherHolder()
  {
    assertNull(hedging(false).plan(subQuery(List.of(FIRST)), "a:8083", Double.POSITIVE_INFINITY, false));
    assertNull(hedging(true).plan(subQuery(List.of(FIRST, THIRD)), "a:8083", Double.POSITIVE_INFINITY, false));
    assertNull(hedging(true).plan(subQuery(List.of(FIRST, SECOND)), "c:8083", 1, false), "no holder answers within 1 ms");
  }

  @Test
  void aQueryThatMayAnswerInPartHedgesTheSegmentsThatHaveAnotherHolder()
  {
    final Hedging.Plan plan =
        hedging(true).plan(subQuery(List.of(FIRST, THIRD)), "a:8083", Double.POSITIVE_INFINITY, true);
    assertEquals(Map.of(clients.get("b:8083"), List.of(FIRST)), plan.groups);
    assertEquals(List.of(THIRD), plan.stranded, "only a holds THIRD");
    assertTrue(plan.isPartial());
    assertNull(
        hedging(true).plan(subQuery(List.of(THIRD)), "a:8083", Double.POSITIVE_INFINITY, true),
        "nothing to hedge"
    );
  }

  @Test
  void eachSubQuerysHedgesHaveTheirOwnIdSinceDruidCancelsById()
  {
    final Hedging hedging = hedging(true);
    final Query<?> query = subQuery(List.of(FIRST)).withId("q1");
    final String first = hedging.hedgeId(query);
    assertTrue(first.startsWith("q1-hedge-"), first);
    assertNotEquals(first, hedging.hedgeId(query));
  }

  @Test
  void aQueryContextOverridesTheBrokersSettingEitherWay()
  {
    final TimeseriesQuery query = subQuery(List.of(FIRST));
    final TimeseriesQuery asks = query.withOverriddenContext(Map.of(QueryContextKeys.HEDGE, true));
    final TimeseriesQuery declines = query.withOverriddenContext(Map.of(QueryContextKeys.HEDGE, "false"));
    assertNotNull(hedging(false).plan(asks, "a:8083", Double.POSITIVE_INFINITY, false), "asked for with the Broker's off");
    assertNull(hedging(true).plan(declines, "a:8083", Double.POSITIVE_INFINITY, false), "declined with the Broker's on");
    assertNotNull(hedging(true).plan(query, "a:8083", Double.POSITIVE_INFINITY, false), "the Broker's setting without one");
  }
}
