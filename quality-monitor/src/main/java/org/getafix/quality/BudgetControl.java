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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Controller-set budgets: one {@link FeedbackBudgetController} per datasource in
 * {@code druid.getafix.quality.controlledDataSources} and per lane in {@code controlledLanes}. A query on one of them
 * that does not ask for a budget itself gets the controller's current budget (its lane's if it has a controlled lane,
 * else its datasource's), and its response time feeds that controller back once it is answered. A query's own
 * {@value QueryBudget#BUDGET_KEY} wins, and its response time is not fed back: a budget the controller did not choose
 * says nothing about the one it would.
 */
public class BudgetControl
{
  /** Prefix of a lane controller's key in {@link #state()}, beside the datasources' keys. */
  static final String LANE_PREFIX = "lane:";

  private final Map<String, FeedbackBudgetController> controllers;
  private final Map<String, FeedbackBudgetController> laneControllers;
  private final ServiceEmitter emitter;

  @Inject
  public BudgetControl(QualityConfig config, ServiceEmitter emitter)
  {
    final BudgetControlConfig controlConfig = config.budgetControlConfig();
    this.controllers = controllers(controlConfig, config.getControlledDataSources());
    this.laneControllers = controllers(controlConfig, config.getControlledLanes());
    this.emitter = emitter;
  }

  private static Map<String, FeedbackBudgetController> controllers(
      @Nullable BudgetControlConfig controlConfig,
      List<String> names
  )
  {
    final ImmutableMap.Builder<String, FeedbackBudgetController> builder = ImmutableMap.builder();
    if (controlConfig != null) {
      names.stream().distinct().forEach(name -> builder.put(name, new FeedbackBudgetController(controlConfig)));
    }
    return builder.build();
  }

  /**
   * The controller of {@code query}'s lane if that lane is controlled, else of its datasource; null if neither is, or
   * if the query is not of a type whose answer quality is measured (timeseries, topN, groupBy, scan): the Broker's own
   * metadata queries (e.g. segmentMetadata for its SQL schema) keep running whole.
   */
  @Nullable
  FeedbackBudgetController controllerOf(Query<?> query)
  {
    if (QueryType.find(query.getType()).isEmpty()) {
      return null;
    }
    final String lane = query.context().getLane();
    if (lane != null && laneControllers.containsKey(lane)) {
      return laneControllers.get(lane);
    }
    final Set<String> tables = query.getDataSource().getTableNames();
    return tables.size() == 1 ? controllers.get(tables.iterator().next()) : null;
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
                          .setDimensionIfNotNull("lane", query.context().getLane())
                          .setMetric(metric, value)
    );
  }

  /**
   * Per controlled datasource (by name) and lane (by {@value #LANE_PREFIX} and name): its budget now, the response-time
   * estimate it steers, its mode and target.
   */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    final Map<String, FeedbackBudgetController> all = new LinkedHashMap<>(controllers);
    laneControllers.forEach((lane, controller) -> all.put(LANE_PREFIX + lane, controller));
    all.forEach((name, controller) -> {
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
      state.put(name, entry);
    });
    return state;
  }
}
