package org.getafix.core.wire;

/**
 * The names a budgeted query carries in Druid's query context and response context: what a client sets, what the
 * Broker adds on the way to the Historicals, and where the answer states its {@link Coverage}.
 */
public final class QueryContextKeys
{
  /**
   * A query's time budget in milliseconds: a positive number, or a string holding one. The answer leaves the Broker
   * with what the Historicals sent by start + budget.
   */
  public static final String BUDGET_MS = "getafixBudgetMs";
  /** {@code true} asks for a mature run of a budgeted query, {@code false} declines one; absent: sampled. */
  public static final String MATURE = "getafixMature";
  /**
   * {@code false}: a budgeted query fails with a timeout (HTTP 504) rather than answer partially; {@code true}: it
   * may answer partially even on a datasource in {@code druid.getafix.quality.wholeAnswerDataSources}.
   */
  public static final String ALLOW_PARTIAL = "getafixAllowPartial";
  /**
   * {@code true} hedges the query's sub-queries (a sub-query still unanswered at its hedge point also goes to other
   * holders of its segments, and the first complete answer is used), {@code false} does not; absent: as {@code
   * druid.getafix.quality.hedging} says. With or without a budget.
   */
  public static final String HEDGE = "getafixHedge";
  /**
   * Which of the query's hedged sub-queries also go to another holder at once: {@code OFF}, {@code SPARE} or {@code
   * ZOOLANDER} (any case); absent: {@code druid.getafix.quality.redundancy}.
   */
  public static final String REDUNDANCY = "getafixRedundancy";
  /**
   * The most parts a budgeted sub-query is split into, so that the parts its Historical finishes in time count (a whole
   * number from 1, which never splits); absent: {@code druid.getafix.quality.maxSplit}.
   */
  public static final String SPLIT = "getafixSplit";
  /**
   * Which of the query's budgeted sub-queries are split into parts: {@code LATE} (those to a Historical expected to
   * miss the deadline) or {@code ALWAYS} (any case); absent: {@code druid.getafix.quality.splitWhen}.
   */
  public static final String SPLIT_WHEN = "getafixSplitWhen";
  /**
   * Added by the Broker: an unguessable reference that binds a budgeted query's sub-queries to the query on the
   * Broker that owns their deadline. A reference the Broker does not know does nothing.
   */
  public static final String QUERY_REF = "getafixQueryRef";
  /** The response-context entry (in {@code X-Druid-Response-Context}) that holds a budgeted answer's coverage. */
  public static final String COVERAGE = "getafixCoverage";

  private QueryContextKeys()
  {
  }
}
