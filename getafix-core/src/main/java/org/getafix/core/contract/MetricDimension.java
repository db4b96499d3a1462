package org.getafix.core.contract;

/** The dimensions Getafix's metrics ({@link GetafixMetric}) carry besides Druid's own, by their emitted names. */
public enum MetricDimension
{
  /** The Druid tier Getafix plans (every Coordinator metric). */
  TIER("tier"),
  /** A Historical's host:port. */
  SERVER("server"),
  /** A Historical's measured tier: HOT, WARM or COLD. */
  GETAFIX_TIER("getafixTier"),
  /** The Broker's druid.broker.balancer.type. */
  POLICY("policy"),
  /** Why a routing pick fell back, or why a mature run failed. */
  REASON("reason"),
  /** The routing table's version. */
  VERSION("version"),
  /** The datasources of a budgeted query. */
  DATA_SOURCE("dataSource"),
  /** The query type of a budgeted query. */
  TYPE("type"),
  /** {@code controller} for a controller-set budget. */
  BUDGET_SOURCE("budgetSource"),
  /** The query lane of a controller-set budget. */
  LANE("lane"),
  /** The admission signal that shed a query. */
  SIGNAL("signal"),
  /** Why a memoised sub-answer was evicted: size or expired. */
  CAUSE("cause");

  private final String dimensionName;

  MetricDimension(String dimensionName)
  {
    this.dimensionName = dimensionName;
  }

  /** The name emitters report, e.g. {@code server}. */
  public String dimensionName()
  {
    return dimensionName;
  }
}
