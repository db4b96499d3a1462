package org.getafix.core.quality.split;

/**
 * The budget paper's split for nonclairvoyant scheduling (§3.2.2, Figure 4): the first query of the FIFO queue gets
 * p = max(B / qLen, B − (qLen − 1)·w̄). Under heavy load equi-partitioning (B / qLen) wins and every waiting query
 * keeps a fair share of the budget; under light load reservation wins, which lets a long query finish when the
 * queries behind it can still get their mean demand w̄. The mean demand is measured online from completed queries
 * (an EWMA). Thread-safe: demand updates serialise on the instance, shares read one volatile double.
 */
public final class EqResv
{
  public static final double DEFAULT_ALPHA = 0.05;

  private final double alpha;
  private volatile double meanDemand = Double.NaN;

  /** @param alpha weight of a new service-demand observation in the w̄ EWMA, in (0, 1] */
  public EqResv(double alpha)
  {
    if (!(alpha > 0 && alpha <= 1)) {
      throw new IllegalArgumentException("service-demand EWMA alpha must be in (0, 1], got [" + alpha + "]");
    }
    this.alpha = alpha;
  }

  /**
   * Records the processing time a completed query needed (its full demand, e.g. measured on a mature run, or the
   * time of a query that finished inside its share). NaN, infinite or negative values are ignored.
   */
  public synchronized void recordDemand(double demand)
  {
    if (!(Double.isFinite(demand) && demand >= 0)) {
      return;
    }
    meanDemand = Double.isNaN(meanDemand) ? demand : meanDemand + alpha * (demand - meanDemand);
  }

  /** w̄, NaN before the first observation. */
  public double meanDemand()
  {
    return meanDemand;
  }

  /**
   * The share of {@code budget} for the first query of a queue of {@code queueLength}, with the measured w̄. Before
   * w̄ is known only equi-partitioning applies. Never throws: a NaN or negative budget counts as 0, a queue length
   * below 1 as 1.
   */
  public double share(double budget, int queueLength)
  {
    return share(budget, queueLength, meanDemand);
  }

  /** Figure 4 with an explicit w̄; same conventions as {@link #share(double, int)}. */
  public static double share(double budget, int queueLength, double meanDemand)
  {
    final double b = budget > 0 ? budget : 0;
    final int qLen = Math.max(1, queueLength);
    final double equiPartition = b / qLen;
    if (!(Double.isFinite(meanDemand) && meanDemand >= 0)) {
      return equiPartition;
    }
    final double reservation = b - (qLen - 1) * meanDemand;
    return Math.max(equiPartition, reservation);
  }
}
