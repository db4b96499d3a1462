package org.getafix.simulator.workload;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Queries favour recent data (thesis §4.1: a start time and an interval length per query). The interval's
 * newest segment is {@code age} hours back with P(age) ∝ 1/(age+1)^s (YCSB's "skewed latest" shape), and the
 * interval covers a geometric number of hourly segments with the given mean. The default s = 1.4 and mean 4
 * over 500 segments give the published Yahoo skew; see docs/scenarios.md and SkewedLatestWorkloadTest.
 */
public final class SkewedLatestWorkload implements WorkloadGenerator
{
  private final double recencyExponent;
  private final double meanIntervalSegments;
  private double[] cumulative = new double[0];

  public SkewedLatestWorkload(double recencyExponent, double meanIntervalSegments)
  {
    if (!(recencyExponent >= 0) || !Double.isFinite(recencyExponent)) {
      throw new IllegalArgumentException("recencyExponent must be a finite number >= 0, got [" + recencyExponent + "]");
    }
    if (!(meanIntervalSegments >= 1) || !Double.isFinite(meanIntervalSegments)) {
      throw new IllegalArgumentException(
          "meanIntervalSegments must be a finite number >= 1, got [" + meanIntervalSegments + "]"
      );
    }
    this.recencyExponent = recencyExponent;
    this.meanIntervalSegments = meanIntervalSegments;
  }

  @Override
  public Interval next(RandomGenerator random, int queryableSegments)
  {
    ensureCapacity(queryableSegments);
    final double u = random.nextDouble() * cumulative[queryableSegments - 1];
    int age = Arrays.binarySearch(cumulative, 0, queryableSegments, u);
    age = age >= 0 ? age : Math.min(-age - 1, queryableSegments - 1);
    final int length = Math.min(geometric(random), queryableSegments - age);
    return new Interval(age, length);
  }

  private int geometric(RandomGenerator random)
  {
    if (meanIntervalSegments == 1) {
      return 1;
    }
    final double p = 1 / meanIntervalSegments;
    final double u = 1 - random.nextDouble();
    return 1 + (int) Math.floor(Math.log(u) / Math.log(1 - p));
  }

  private void ensureCapacity(int n)
  {
    if (cumulative.length >= n) {
      return;
    }
    final int size = Math.max(n, cumulative.length * 2);
    final double[] grown = new double[size];
    double sum = 0;
    for (int age = 0; age < size; age++) {
      sum += 1 / Math.pow(age + 1, recencyExponent);
      grown[age] = sum;
    }
    cumulative = grown;
  }
}
