package org.getafix.core.quality.control;

/**
 * Steers the budget (the total processing time granted to pending queries, budget paper §3) so that the response
 * time meets its target. Shaped like Netflix concurrency-limits' {@code Limit}: feed it every completed query with
 * {@link #onResponse}, read {@link #budget} when a query needs one. Implementations are thread-safe: query threads
 * call both methods concurrently, and neither throws.
 */
public interface BudgetController
{
  /**
   * Records one completed query. A NaN, infinite or negative response time is ignored (and counted in
   * {@link #rejectedResponses()}), never thrown.
   */
  void onResponse(double responseTimeMillis);

  /** The current budget, always within the configured [min, max]. */
  double budget();

  /** The controlled response-time statistic (mean or P90), NaN before the first response. */
  double responseTimeEstimate();

  /** Responses ignored as garbage since construction. */
  long rejectedResponses();

  /** The budget paper's feedback controller (integral, adaptive or hybrid) with {@code config}'s settings. */
  static BudgetController of(BudgetControlConfig config)
  {
    return new FeedbackBudgetController(config);
  }
}
