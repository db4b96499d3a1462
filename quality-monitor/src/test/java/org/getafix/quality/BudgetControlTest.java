package org.getafix.quality;

import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.query.Druids;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryContexts;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.getafix.core.quality.control.BudgetController;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BudgetControlTest
{
  private final RecordingEmitter emitted = new RecordingEmitter();

  private BudgetControl control(Map<String, Object> properties)
  {
    final QualityConfig config = new DefaultObjectMapper().convertValue(properties, QualityConfig.class).validate();
    return new BudgetControl(config, emitted.serviceEmitter());
  }

  private static TimeseriesQuery query(String dataSource, Map<String, Object> context)
  {
    return Druids.newTimeseriesQueryBuilder()
                 .dataSource(dataSource)
                 .intervals("2025-01-01/2025-01-02")
                 .aggregators(new CountAggregatorFactory("rows"))
                 .context(context)
                 .build();
  }

  private static <T> BudgetedQuery<T> budgeted(Query<T> query, QueryBudget budget)
  {
    return new BudgetedQuery<>(query, "ref", budget, 0, 0, true, null, false, List.of());
  }

  @Test
  void aControlledLaneWinsOverItsDataSourceAndOnlyMeasuredQueryTypesAreControlled()
  {
    final BudgetControl control = control(Map.of(
        "controlledDataSources", List.of("ds", "ds"),
        "controlledLanes", List.of("reports")
    ));
    final BudgetController ofDataSource = control.controllerOf(query("ds", Map.of()));
    assertNotNull(ofDataSource);
    assertSame(ofDataSource, control.controllerOf(query("ds", Map.of(QueryContexts.LANE_KEY, "adhoc"))));
    final BudgetController ofLane = control.controllerOf(query("other", Map.of(QueryContexts.LANE_KEY, "reports")));
    assertNotNull(ofLane);
    assertNotSame(ofDataSource, ofLane);
    assertNull(control.controllerOf(query("other", Map.of())));
    assertNull(control.controllerOf(Druids.newSegmentMetadataQueryBuilder().dataSource("ds").build()));
    assertEquals(2, control.state().size(), "a datasource listed twice has one controller: " + control.state());
  }

  @Test
  void onlyAControllerSetBudgetFeedsItsControllerBack()
  {
    final BudgetControl control = control(Map.of(
        "controlledDataSources", List.of("ds"),
        "targetResponseTimeMs", 200,
        "controlMode", "INTEGRAL"
    ));
    final TimeseriesQuery query = query("ds", Map.of(QueryContexts.LANE_KEY, "adhoc"));
    final BudgetController controller = control.controllerOf(query);

    final QueryBudget asked = QueryBudget.askedIn(
        query.withOverriddenContext(Map.of(QueryContextKeys.BUDGET_MS, 250)).context(),
        300_000
    );
    control.onAnswered(budgeted(query, asked), List.of(), 900);
    control.onDelivered(budgeted(query, asked), 900);
    assertTrue(Double.isNaN(controller.responseTimeEstimate()), "a budget the controller did not set is not fed back");
    assertTrue(emitted.events.isEmpty());

    final QueryBudget set = QueryBudget.setBy(controller);
    assertEquals(200, set.millis(), "the controller starts at the target");
    final BudgetedQuery<?> controlled = budgeted(query, set);
    control.onAnswered(controlled, List.of(), 700);
    assertTrue(Double.isNaN(controller.responseTimeEstimate()), "the answer is fed back once it went on to its client");
    control.onDelivered(controlled, 900);
    assertEquals(900.0, controller.responseTimeEstimate(), 1e-9, "the time until the last row went on to the client");
    assertTrue(controller.budget() < 200, "a response slower than the target lowers the budget");
    assertEquals(List.of(200L), emitted.values("getafix/budget/ms"));
    assertEquals(List.of(900.0), emitted.values("getafix/rt/mean"));
    for (Map<String, Object> dimensions : emitted.dimensions("getafix/budget/ms")) {
      assertEquals("controller", dimensions.get("budgetSource"));
      assertEquals("adhoc", dimensions.get("lane"));
      assertEquals("ds", dimensions.get("dataSource"));
    }
    assertTrue(emitted.values("getafix/budget/split/ms").isEmpty(), "a budget that was not split");
  }

  @Test
  void aSplitBudgetReportsTheControllersBudgetAndTheQuerysShare()
  {
    final BudgetControl control = control(Map.of("controlledDataSources", List.of("ds"), "targetResponseTimeMs", 200));
    final TimeseriesQuery query = query("ds", Map.of(QueryContexts.LANE_KEY, "adhoc"));
    final BudgetController controller = control.controllerOf(query);
    final BudgetedQuery<?> split = budgeted(query, QueryBudget.splitFrom(controller, 200, 61.4));
    control.onAnswered(split, List.of(), 90);
    control.onDelivered(split, 90);
    assertEquals(90.0, controller.responseTimeEstimate(), 1e-9, "a split budget is the controller's: fed back");
    assertEquals(List.of(200L), emitted.values("getafix/budget/ms"));
    assertEquals(List.of(61L), emitted.values("getafix/budget/split/ms"));
    assertEquals(
        List.of(Map.of("dataSource", "ds", "type", "timeseries", "lane", "adhoc")),
        emitted.dimensions("getafix/budget/split/ms")
    );
  }
}
