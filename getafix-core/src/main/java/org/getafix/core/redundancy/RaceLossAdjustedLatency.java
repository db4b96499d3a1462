package org.getafix.core.redundancy;

/**
 * A node's latencies with its lost races taken as misses. A sub-query that lost to a copy, a hedge or its deadline is
 * recorded with the time it ran until cancelled, a lower bound of its latency; a node whose sub-queries lose most of
 * their races reads as fast as the answers that beat it. Taking the lost share of the samples as beyond any bound
 * gives a lower bound of the true distribution: P(latency ≤ x) is at least the measured one less the lost share.
 * The mean and C_v² stay the measured ones, lower bounds too, which only make the M/G/1 queueing the model adds err
 * low.
 *
 * @param measured  the node's recorded latencies, lost races at their time until cancelled
 * @param lostShare the share of its recent sub-queries that lost, in [0, 1]
 */
record RaceLossAdjustedLatency(LatencyDistribution measured, double lostShare) implements LatencyDistribution
{
  /** {@code measured} as it is where the lost share is unknown or nil, else adjusted. */
  static LatencyDistribution of(LatencyDistribution measured, double lostShare)
  {
    return measured == null || !(lostShare > 0) ? measured
                                                : new RaceLossAdjustedLatency(measured, Math.min(1, lostShare));
  }

  @Override
  public double cdf(double millis)
  {
    return Math.max(0, measured.cdf(millis) - lostShare);
  }

  @Override
  public double quantile(double q)
  {
    return q + lostShare > 1 ? Double.POSITIVE_INFINITY : measured.quantile(q + lostShare);
  }

  @Override
  public double mean()
  {
    return measured.mean();
  }

  @Override
  public double scv()
  {
    return measured.scv();
  }

  @Override
  public long count()
  {
    return measured.count();
  }
}
