package org.getafix.quality;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.query.Query;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.quality.QueryType;
import org.getafix.core.quality.control.BudgetControlConfig;
import org.getafix.core.quality.control.BudgetController;
import org.getafix.core.wire.QueryContextKeys;

import javax.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Controller-set budgets: one {@link BudgetController} per datasource in
 * {@code druid.getafix.quality.controlledDataSources} and per lane in {@code controlledLanes}. A query on one of them
 * that does not ask for a budget itself gets the controller's current budget (its lane's if it has a controlled lane,
 * else its datasource's), or its share of it ({@link BudgetSplit}), and its response time feeds that controller back
 * once it is answered. A query's own {@value QueryContextKeys#BUDGET_MS} wins, and its response time is not fed back:
 * a budget the controller did not choose says nothing about the one it would.
 */
public class BudgetControl implements BudgetedQuery.Listener
{
  /** Prefix of a lane controller's key in {@link #state()}, beside the datasources' keys. */
  static final String LANE_PREFIX = "lane:";

  @Nullable
  private final BudgetControlConfig controlConfig;
  private final Map<String, BudgetController> controllers;
  private final Map<String, BudgetController> laneControllers;
  private final ServiceEmitter emitter;

  @Inject
  public BudgetControl(QualityConfig config, ServiceEmitter emitter)
  {
    this.controlConfig = config.budgetControlConfig();
    this.controllers = controllers(controlConfig, config.getControlledDataSources());
    this.laneControllers = controllers(controlConfig, config.getControlledLanes());
    this.emitter = emitter;
  }

  private static Map<String, BudgetController> controllers(@Nullable BudgetControlConfig controlConfig, List<String> names)
  {
    final ImmutableMap.Builder<String, BudgetController> builder = ImmutableMap.builder();
    if (controlConfig != null) {
      names.stream().distinct().forEach(name -> builder.put(name, BudgetController.of(controlConfig)));
    }
    return builder.build();
  }

  /**
   * The controller of {@code query}'s lane if that lane is controlled, else of its datasource; null if neither is, or
   * if the query is not of a type whose answer quality is measured (timeseries, topN, groupBy, scan): the Broker's own
   * metadata queries (e.g. segmentMetadata for its SQL schema) keep running whole.
   */
  @Nullable
  BudgetController controllerOf(Query<?> query)
  {
    if (controllers.isEmpty() && laneControllers.isEmpty()) {
      // Nothing controlled, the default: every query without a budget of its own asks this, and need read nothing.
      return null;
    }
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

  /**
   * A controller-budgeted query was answered: emits the controller's budget, and the query's share of it if it was
   * split.
   */
  @Override
  public void onAnswered(BudgetedQuery<?> budgeted, List<?> rows, long elapsedMillis)
  {
    final QueryBudget budget = budgeted.budget();
    if (budget.setBy() == null) {
      return;
    }
    emitter.emit(controllerDimensions(budgeted.query()).setMetric(GetafixMetric.BUDGET_MS.metricName(), budget.controllerMillis()));
    if (budget.split()) {
      emitter.emit(QualityMetrics.dimensions(budgeted.query())
                                 .setDimensionIfNotNull(MetricDimension.LANE, budgeted.query().context().getLane())
                                 .setMetric(GetafixMetric.BUDGET_SPLIT_MS.metricName(), budget.millis()));
    }
  }

  /**
   * A controller-budgeted answer went on to its client: feeds its controller the response time up to its last row,
   * and emits the controller's estimate.
   */
  @Override
  public void onDelivered(BudgetedQuery<?> budgeted, long elapsedMillis)
  {
    final BudgetController controller = budgeted.budget().setBy();
    if (controller == null) {
      return;
    }
    controller.onResponse(elapsedMillis);
    final double estimate = controller.responseTimeEstimate();
    if (Double.isFinite(estimate)) {
      emitter.emit(controllerDimensions(budgeted.query()).setMetric(GetafixMetric.RESPONSE_TIME_MEAN.metricName(), estimate));
    }
  }

  private static ServiceMetricEvent.Builder controllerDimensions(Query<?> query)
  {
    return QualityMetrics.dimensions(query)
                         .setDimension(MetricDimension.BUDGET_SOURCE, "controller")
                         .setDimensionIfNotNull(MetricDimension.LANE, query.context().getLane());
  }

  /**
   * Per controlled datasource (by name) and lane (by {@value #LANE_PREFIX} and name): its budget now, the response-time
   * estimate it steers, its mode and target.
   */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    final Map<String, BudgetController> all = new LinkedHashMap<>(controllers);
    laneControllers.forEach((lane, controller) -> all.put(LANE_PREFIX + lane, controller));
    all.forEach((name, controller) -> {
      final Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("budgetMs", controller.budget());
      final double estimate = controller.responseTimeEstimate();
      entry.put("responseTimeEstimateMs", Double.isFinite(estimate) ? estimate : null);
      entry.put("statistic", controlConfig.estimator());
      entry.put("mode", controlConfig.mode());
      entry.put("targetResponseTimeMs", controlConfig.targetMillis());
      entry.put("minBudgetMs", controlConfig.minBudget());
      entry.put("maxBudgetMs", controlConfig.maxBudget());
      entry.put("rejectedResponses", controller.rejectedResponses());
      state.put(name, entry);
    });
    return state;
  }
}
