package org.getafix.localcluster.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Open-loop Poisson arrivals through a step in load: {@code ratePerSecond} until {@code stepMillis}, twice that until
 * {@code endMillis}, as the budget paper's load-step experiment sends its queries (Poisson, 200 then 400 queries per
 * second). Poisson rather than evenly spaced: bursts are what make a queue form below capacity, so the response time
 * of whole answers depends on the load throughout, not only past capacity. The times are drawn up front from a seed,
 * so a run's schedule can be told and repeated.
 *
 * @param ratePerSecond arrivals per second before the step; {@link #STEP_FACTOR} times as many after it
 * @param stepMillis    when the load steps up, from the start of the run
 * @param endMillis     when the arrivals end
 * @param seed          the random draws' seed
 */
public record ArrivalSchedule(double ratePerSecond, long stepMillis, long endMillis, long seed)
{
  /** The load step: the paper's 2×. */
  public static final double STEP_FACTOR = 2;

  public ArrivalSchedule
  {
    if (!(ratePerSecond > 0)) {
      throw new IllegalArgumentException("ratePerSecond must be positive, got " + ratePerSecond);
    }
    if (stepMillis <= 0 || endMillis <= stepMillis) {
      throw new IllegalArgumentException("need 0 < stepMillis < endMillis, got " + stepMillis + ", " + endMillis);
    }
  }

  /** How long the load runs after the step. */
  public long afterStepMillis()
  {
    return endMillis - stepMillis;
  }

  /** The arrival rate at {@code millis} into the run. */
  public double rateAt(double millis)
  {
    return millis < stepMillis ? ratePerSecond : STEP_FACTOR * ratePerSecond;
  }

  /**
   * Every arrival's time in milliseconds from the start of the run, ascending: exponential gaps at the rate of the
   * phase the last arrival is in. A gap that crosses the step is redrawn from the step at the new rate, which the
   * exponential's lack of memory makes exact.
   */
  public List<Double> arrivalMillis()
  {
    final SplittableRandom random = new SplittableRandom(seed);
    final List<Double> times = new ArrayList<>();
    double t = 0;
    while (true) {
      final double next = t + exponentialMillis(random, rateAt(t));
      if (t < stepMillis && next >= stepMillis) {
        t = stepMillis;
        continue;
      }
      if (next >= endMillis) {
        return times;
      }
      times.add(next);
      t = next;
    }
  }

  private static double exponentialMillis(SplittableRandom random, double perSecond)
  {
    // 1 - u is in (0, 1], so the logarithm is finite.
    return -Math.log(1 - random.nextDouble()) * 1000 / perSecond;
  }
}
