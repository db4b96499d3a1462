package org.getafix.core.redundancy;

/**
 * A node's latency distribution as the redundancy models read it, in milliseconds. Every value is NaN while the
 * distribution has no sample.
 */
public interface LatencyDistribution
{
  /** P(latency ≤ millis). */
  double cdf(double millis);

  /** The latency at quantile q, q in [0, 1]. */
  double quantile(double q);

  double mean();

  /** Squared coefficient of variation, variance / mean², the C_v² of the M/G/1 queueing delay. */
  double scv();

  /** Samples the distribution is estimated from. */
  long count();
}
