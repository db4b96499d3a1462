package org.getafix.simulator.workload;

import java.util.random.RandomGenerator;

/**
 * A Druid query type (timeseries, topN, groupBy) and its execution profile: the CPU seconds one per-segment
 * task takes, drawn per query from a log-normal with the given mean and coefficient of variation (a groupBy
 * over many dimensions is slower on every segment it touches, so the draw is per query, not per task).
 *
 * @param name           type name
 * @param weight         relative share in the base query mix
 * @param meanTaskMillis mean CPU milliseconds per segment at speed 1
 * @param cv             coefficient of variation of that cost; 0 for a fixed cost
 */
public record QueryType(String name, double weight, double meanTaskMillis, double cv)
{
  /** CPU seconds each task of a new query of this type takes. */
  public double drawTaskSeconds(RandomGenerator random)
  {
    final double mean = meanTaskMillis / 1000.0;
    if (cv == 0) {
      return mean;
    }
    final double sigma2 = Math.log(1 + cv * cv);
    final double mu = Math.log(mean) - sigma2 / 2;
    return Math.exp(mu + Math.sqrt(sigma2) * random.nextGaussian());
  }
}
