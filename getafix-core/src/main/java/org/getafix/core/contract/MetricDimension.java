package org.getafix.core.contract;

import java.util.List;

/** The dimensions Getafix's metrics ({@link GetafixMetric}) carry besides Druid's own, by their emitted names. */
public final class MetricDimension
{
  /** The Druid tier Getafix plans (every Coordinator metric). */
  public static final String TIER = "tier";
  /** A Historical's host:port. */
  public static final String SERVER = "server";
  /** A Historical's measured tier: HOT, WARM or COLD. */
  public static final String GETAFIX_TIER = "getafixTier";
  /** The Broker's druid.broker.balancer.type. */
  public static final String POLICY = "policy";
  /** Why a routing pick fell back, or why a mature run failed. */
  public static final String REASON = "reason";
  /** The datasources of a budgeted query. */
  public static final String DATA_SOURCE = "dataSource";
  /** The query type of a budgeted query. */
  public static final String TYPE = "type";
  /** {@code controller} for a controller-set budget. */
  public static final String BUDGET_SOURCE = "budgetSource";
  /** The query lane of a controller-set budget. */
  public static final String LANE = "lane";
  /** The admission signal that shed a query. */
  public static final String SIGNAL = "signal";
  /** Why a memoised sub-answer was evicted: size or expired. */
  public static final String CAUSE = "cause";
  /** The Broker's druid.getafix.quality.redundancy, in lower case. */
  public static final String MODE = "mode";

  public static final List<String> ALL = List.of(
      TIER, SERVER, GETAFIX_TIER, POLICY, REASON, DATA_SOURCE, TYPE, BUDGET_SOURCE, LANE, SIGNAL, CAUSE, MODE
  );

  private MetricDimension()
  {
  }
}
