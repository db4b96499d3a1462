package org.getafix.core.quality.control;

/**
 * The response-time statistic a {@link BudgetController} steers: the controlled output y of the budget paper
 * (§3.1). Not thread-safe: the controller calls it under its own lock.
 */
public interface ResponseTimeEstimator
{
  /** Adds one completed query's response time; the caller has checked it is finite and ≥ 0. */
  void record(double millis);

  /** The current estimate in milliseconds, NaN before the first response. */
  double estimate();

  /** The estimators the budget paper uses (§4.2 and §4.7). */
  enum Kind
  {
    /** Mean response time as an EWMA, MRT = (1 − α)·MRT + α·r, α = 0.05 in the paper. */
    MEAN,
    /** The 90th percentile over the last 1000 responses. */
    P90
  }
}
