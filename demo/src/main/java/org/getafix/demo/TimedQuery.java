package org.getafix.demo;

import org.getafix.core.wire.Coverage;

/**
 * One measured query that answered, placed in its phase's time.
 *
 * @param seconds    phase second at which it was sent
 * @param latencyMs  time to its answer
 * @param coverage   what its answer covered, for a budgeted query; null for a query without a budget
 */
public record TimedQuery(double seconds, double latencyMs, Coverage coverage)
{
  /** Whether the budget cut part of the answer off. */
  public boolean partial()
  {
    return coverage != null && coverage.timedOut();
  }
}
