package org.getafix.quality;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.query.Query;
import org.getafix.core.quality.QueryType;
import org.getafix.core.quality.control.BudgetControlConfig;
import org.getafix.core.quality.control.FeedbackBudgetController;

import javax.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Controller-set budgets: one {@link FeedbackBudgetController} per datasource in
 * {@code druid.getafix.quality.controlledDataSources}. A query on one of them that does not ask for a budget itself
 * gets the controller's current budget, and its response time feeds the controller back once it is answered. A
 * query's own {@value QueryBudget#BUDGET_KEY} wins, and its response time is not fed back: a budget the controller
 * did not choose says nothing about the one it would.
 */
public class BudgetControl
{
  private final Map<String, FeedbackBudgetController> controllers;
  private final ServiceEmitter emitter;

  @Inject
  public BudgetControl(QualityConfig config, ServiceEmitter emitter)
  {
    final BudgetControlConfig controlConfig = config.validate().budgetControlConfig();
    final ImmutableMap.Builder<String, FeedbackBudgetController> builder = ImmutableMap.builder();
    if (controlConfig != null) {
      config.getControlledDataSources()
            .stream()
            .distinct()
            .forEach(dataSource -> builder.put(dataSource, new FeedbackBudgetController(controlConfig)));
    }
    this.controllers = builder.build();
    this.emitter = emitter;
  }

  /**
   * The controller of {@code query}'s datasource, or null if it reads no single controlled table or is not of a type
   * whose answer quality is measured (timeseries, topN, groupBy, scan): the Broker's own metadata queries (e.g.
   * segmentMetadata for its SQL schema) keep running whole.
   */
  @Nullable
  FeedbackBudgetController controllerOf(Query<?> query)
  {
    final Set<String> tables = query.getDataSource().getTableNames();
    if (tables.size() != 1 || QueryType.find(query.getType()).isEmpty()) {
      return null;
    }
    return controllers.get(tables.iterator().next());
  }

  /** The budget {@code controller} grants a query now, whole milliseconds, at least 1. */
  static long budgetMillis(FeedbackBudgetController controller)
  {
    return Math.max(1, Math.round(controller.budget()));
  }

  /** A controller-budgeted query was answered after {@code elapsedMillis}: feeds the controller and emits its state. */
  void answered(Query<?> query, FeedbackBudgetController controller, long budgetMillis, long elapsedMillis)
  {
    controller.onResponse(elapsedMillis);
    emit(query, "getafix/budget/ms", budgetMillis);
    final double estimate = controller.responseTimeEstimate();
    if (Double.isFinite(estimate)) {
      emit(query, "getafix/rt/mean", estimate);
    }
  }

  private void emit(Query<?> query, String metric, Number value)
  {
    emitter.emit(
        ServiceMetricEvent.builder()
                          .setDimension("dataSource", String.join(",", query.getDataSource().getTableNames()))
                          .setDimension("type", query.getType())
                          .setDimension("budgetSource", "controller")
                          .setMetric(metric, value)
    );
  }

  /** Per controlled datasource: its budget now, the response-time estimate it steers, its mode and target. */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    controllers.forEach((dataSource, controller) -> {
      final BudgetControlConfig config = controller.config();
      final Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("budgetMs", controller.budget());
      final double estimate = controller.responseTimeEstimate();
      entry.put("responseTimeEstimateMs", Double.isFinite(estimate) ? estimate : null);
      entry.put("statistic", config.estimator());
      entry.put("mode", config.mode());
      entry.put("targetResponseTimeMs", config.targetMillis());
      entry.put("minBudgetMs", config.minBudget());
      entry.put("maxBudgetMs", config.maxBudget());
      entry.put("rejectedResponses", controller.rejectedResponses());
      state.put(dataSource, entry);
    });
    return state;
  }
}
