package org.getafix.core.quality.control;

/**
 * How long before its budget ends a budgeted query stops waiting for Historicals, so that its answer still leaves the
 * Broker within the budget. A query that waits until its deadline has work left after it: the Broker merges the
 * sub-answers and serialises the result. The reserve is a high percentile of that time over the recent queries that
 * waited until their deadline, capped at a share of the budget, so that a burst of slow merges cannot take the whole
 * budget from the Historicals. No reserve until {@link #MIN_SAMPLES} such queries have been seen.
 *
 * <p>Each measurement is taken against the deadline its query had, reserve and all; the time after the deadline
 * does not depend on where the deadline lies, so the reserve settles at that time's percentile.
 *
 * <p>Thread-safe.
 */
public final class DeadlineReserve
{
  public static final int MIN_SAMPLES = 10;
  private static final int WINDOW = 200;
  private static final double PERCENTILE = 95;

  private final double maxShare;
  private final WindowPercentileResponseTime afterDeadline = new WindowPercentileResponseTime(WINDOW, PERCENTILE);
  private long samples;

  /** @param maxShare the largest share of a budget kept in reserve, in [0, 1); 0 keeps none */
  public DeadlineReserve(double maxShare)
  {
    if (!(maxShare >= 0 && maxShare < 1)) {
      throw new IllegalArgumentException("the deadline reserve's share must be in [0, 1), got [" + maxShare + "]");
    }
    this.maxShare = maxShare;
  }

  /**
   * A query that waited until its deadline left the Broker {@code millis} after it. Ignores NaN and infinities; a
   * negative time (the answer left before the deadline) counts as 0.
   */
  public synchronized void recordAfterDeadline(double millis)
  {
    if (!Double.isFinite(millis)) {
      return;
    }
    afterDeadline.record(Math.max(0, millis));
    samples++;
  }

  /** The milliseconds a query with a budget of {@code budgetMillis} stops waiting before its budget ends. */
  public synchronized long reserveMillis(long budgetMillis)
  {
    if (samples < MIN_SAMPLES || budgetMillis <= 0) {
      return 0;
    }
    final long cap = (long) Math.floor(maxShare * budgetMillis);
    return Math.min(cap, (long) Math.ceil(afterDeadline.estimate()));
  }

  /** The recent time from deadline to answer that sets the reserve, in milliseconds; NaN before any. */
  public synchronized double afterDeadlineMillis()
  {
    return samples == 0 ? Double.NaN : afterDeadline.estimate();
  }
}
