package org.getafix.quality;

import org.apache.druid.guice.http.DruidHttpClientConfig;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.emitter.core.NoopEmitter;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.topn.TopNQueryBuilder;
import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.quality.split.QualityProfile;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Controller-set budgets split among the queries pending on a controller, through {@link BudgetedQueries} as the
 * walker starts and ends queries. The controller's budget b is its initial one, the 100 ms target: nothing here feeds
 * it back.
 */
class BudgetSplitTest
{
  private static final long B = 100;
  private static final String TIMESERIES = "ds/timeseries";
  private static final String TOP_N = "ds/topN";
  /** 90% of the quality from the first 20% of the segments. */
  private static final QualityProfile SATURATING =
      QualityProfile.of(new double[]{0, 0.2, 1}, new double[]{0, 0.9, 1});

  /** Profiles as if learned: a topN saturates early, everything else is linear. */
  private static final class LearnedProfiles extends QualityProfiles
  {
    @Override
    QualityProfile profile(String queryClass)
    {
      return TOP_N.equals(queryClass) ? SATURATING : QualityProfile.LINEAR;
    }
  }

  /** The Broker's budgeted queries with {@code budgetSplit}, their split and the queries started, with their starts. */
  private static final class Broker
  {
    final BudgetSplit split;
    final BudgetedQueries queries;
    final List<BudgetedQuery<?>> pending = new ArrayList<>();

    Broker(String budgetSplit)
    {
      final QualityConfig config = new DefaultObjectMapper().convertValue(
          Map.of("controlledDataSources", List.of("ds"), "targetResponseTimeMs", B, "budgetSplit", budgetSplit),
          QualityConfig.class
      ).validate();
      final ServiceEmitter emitter = new ServiceEmitter("broker", "localhost", new NoopEmitter());
      final QualityMetrics metrics = new QualityMetrics(emitter);
      // Queries without an id are never sampled, so no mature run needs a toolchest here.
      final MatureRuns matureRuns =
          new MatureRuns(config, metrics, null, new DefaultObjectMapper(), new DruidHttpClientConfig());
      final QualityProfiles profiles = new LearnedProfiles();
      final Admission admission = new Admission(config, emitter, new QualityProfiles());
      this.split = new BudgetSplit(config, profiles);
      this.queries = new BudgetedQueries(
          config, admission, new BudgetControl(config, emitter), split, matureRuns, metrics, profiles,
          new RecentCoverage(), new DeadlineReserve(0.25),
          new Replays(config, metrics, matureRuns, () -> null, () -> 0L, Runnable::run, Runnable::run)
      );
    }

    /** Starts {@code query} at {@code now}; the budget it gets. */
    long start(Query<?> query, long now)
    {
      pending.removeIf(q -> q.startMillis() + q.budget().millis() <= now);
      final BudgetedQuery<?> budgeted = queries.start(query, now);
      pending.add(budgeted);
      final long n = pending.stream().filter(q -> q.budget().setBy() != null).count();
      final long committed = pending.stream()
                                    .filter(q -> q.budget().setBy() != null)
                                    .mapToLong(q -> q.startMillis() + q.budget().millis() - now)
                                    .sum();
      assertTrue(
          committed <= n * B || budgeted.budget().millis() == B / 4,
          "the " + n + " pending queries hold " + committed + " ms of B = " + n * B + " (only the floor may exceed it)"
      );
      return budgeted.budget().millis();
    }

    void end(int index)
    {
      queries.ended(pending.remove(index));
    }

    /** Teaches the split that {@code query}'s whole answers take {@code millis}, from a query with its own budget. */
    void wholeAnswer(Query<?> query, long millis)
    {
      final BudgetedQuery<?> own = queries.start(query.withOverriddenContext(Map.of(QueryContextKeys.BUDGET_MS, 5000)), 0);
      assertFalse(own.budget().split(), "a query's own budget is never split");
      queries.ended(own);
      split.onAnswered(own, List.of(), millis);
    }
  }

  private static Query<?> timeseries()
  {
    return Druids.newTimeseriesQueryBuilder()
                 .dataSource("ds")
                 .intervals("2025-01-01/2025-01-02")
                 .aggregators(new CountAggregatorFactory("rows"))
                 .build();
  }

  private static Query<?> topN()
  {
    return new TopNQueryBuilder().dataSource("ds")
                                 .intervals("2025-01-01/2025-01-02")
                                 .dimension("page")
                                 .metric("rows")
                                 .threshold(5)
                                 .aggregators(new CountAggregatorFactory("rows"))
                                 .build();
  }

  @Test
  void withTheSplitOffEveryQueryGetsItsControllersBudgetAsBefore()
  {
    final Broker broker = new Broker("NONE");
    broker.wholeAnswer(timeseries(), 20);
    for (int i = 0; i < 5; i++) {
      assertEquals(B, broker.start(timeseries(), 10 * i));
      assertEquals(B, broker.start(topN(), 10 * i));
    }
    for (BudgetedQuery<?> query : broker.pending) {
      assertFalse(query.budget().split());
      assertEquals(B, query.budget().controllerMillis());
    }
    assertTrue(broker.split.demands().isEmpty(), "nothing is learned with the split off");
  }

  @Test
  void aLoneQueryGetsItsControllersBudgetWithEitherSplit()
  {
    for (String method : List.of("EQ_RESV", "MAX_QUALITY")) {
      final Broker broker = new Broker(method);
      broker.wholeAnswer(timeseries(), 20);
      assertEquals(B, broker.start(timeseries(), 0), method);
      broker.end(0);
      assertEquals(B, broker.start(topN(), 10), method + ": the first one ended");
      assertEquals(B, broker.start(timeseries(), 500), method + ": the second one's budget ran out");
      assertTrue(broker.pending.get(0).budget().split(), method);
    }
  }

  @Test
  void eqResvGivesANewQueryWhatTheOthersLeaveWhileTheirDemandsAreLow()
  {
    final Broker broker = new Broker("EQ_RESV");
    broker.wholeAnswer(timeseries(), 20);
    assertEquals(Map.of(TIMESERIES, 20.0), broker.split.demands());
    assertEquals(100, broker.start(timeseries(), 0));
    // B = 200, reservation 200 − 20 = 180, but the first still holds 100.
    assertEquals(100, broker.start(timeseries(), 0));
    // B = 300, reservation 300 − 2 × 20 = 260; the others hold 50 each, so 200 is free.
    assertEquals(200, broker.start(timeseries(), 50));
    // B = 400, reservation 400 − 3 × 20 = 340; the others hold 40 + 40 + 190.
    assertEquals(130, broker.start(timeseries(), 60));
    broker.end(2);
    // B = 400 again: the others hold 30 + 30 + 120, and the reservation is 340 still.
    assertEquals(220, broker.start(timeseries(), 70));
  }

  @Test
  void eqResvEquiPartitionsWhileTheOthersDemandsExceedB()
  {
    final Broker broker = new Broker("EQ_RESV");
    broker.wholeAnswer(timeseries(), 500);
    for (int i = 0; i < 5; i++) {
      assertEquals(B, broker.start(timeseries(), 10 * i), "query " + i);
    }
  }

  @Test
  void maxQualityGivesAClassThatSaturatesEarlyLessThanALinearOne()
  {
    final List<Long> budgets = new ArrayList<>();
    for (Query<?> third : List.of(timeseries(), topN())) {
      final Broker broker = new Broker("MAX_QUALITY");
      broker.wholeAnswer(timeseries(), 300);
      broker.wholeAnswer(topN(), 300);
      assertEquals(100, broker.start(timeseries(), 0));
      assertEquals(100, broker.start(timeseries(), 0));
      // B = 300, 200 of it free: a linear third query shares it equally; a topN buys 0.9 of its quality with its
      // first 60 ms, and the rest buys less per ms than the timeseries queries' linear profiles.
      budgets.add(broker.start(third, 50));
    }
    assertEquals(List.of(100L, 60L), budgets);
  }

  @Test
  void queriesOfOtherControllersAndQueriesWithTheirOwnBudgetsAreNotSplit()
  {
    final Broker broker = new Broker("MAX_QUALITY");
    broker.wholeAnswer(timeseries(), 300);
    broker.start(timeseries(), 0);
    final Query<?> other = Druids.newTimeseriesQueryBuilder()
                                 .dataSource("other")
                                 .intervals("2025-01-01/2025-01-02")
                                 .aggregators(new CountAggregatorFactory("rows"))
                                 .build();
    assertNull(broker.queries.start(other, 0), "no controller, no budget");
    final BudgetedQuery<?> own =
        broker.queries.start(timeseries().withOverriddenContext(Map.of(QueryContextKeys.BUDGET_MS, 777)), 0);
    assertEquals(777, own.budget().millis());
    assertFalse(own.budget().split());
  }

  @Test
  void whatThePendingQueriesHoldNeverExceedsBExceptByTheFloor()
  {
    for (String method : List.of("EQ_RESV", "MAX_QUALITY")) {
      final Broker broker = new Broker(method);
      broker.wholeAnswer(timeseries(), 40);
      broker.wholeAnswer(topN(), 250);
      final Random random = new Random(5);
      final Set<Long> budgets = new TreeSet<>();
      long now = 0;
      for (int i = 0; i < 2000; i++) {
        now += random.nextInt(30);
        if (!broker.pending.isEmpty() && random.nextInt(3) == 0) {
          broker.end(random.nextInt(broker.pending.size()));
        }
        final long budget = broker.start(random.nextBoolean() ? timeseries() : topN(), now);
        assertTrue(budget >= B / 4 && budget <= 4 * B, method + " gave " + budget);
        budgets.add(budget);
      }
      assertTrue(budgets.size() > 10 && budgets.contains(B / 4), method + " gave only " + budgets);
    }
  }
}
