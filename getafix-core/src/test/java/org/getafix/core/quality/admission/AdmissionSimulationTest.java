package org.getafix.core.quality.admission;

import com.netflix.concurrency.limits.limit.Gradient2Limit;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ubora's admission case study (§8) on a fluid model of a shared cluster, request by request. High-priority load
 * is fixed at 40% of capacity; low-priority demand follows a day: 10%, a 60% peak, a harder query mix during the
 * second half of the peak (every query needs 1.25× the work, like Ubora's shift to multi-word queries), then 10%
 * again. With effective utilisation ρ = (0.4 + admitted low) × mix:
 * <ul>
 *   <li>high-priority answer quality is 1 up to ρ = 0.7 and falls linearly to 0.2 at ρ = 1.3 (queries lose late
 *   segments); 20% of high-priority queries are sampled and measured, with noise σ = 0.05;</li>
 *   <li>a high-priority query times out with probability 1.5·(ρ − 0.5): timeouts start before quality suffers,
 *   because a timed-out query's partial answer is often already right (Ubora's reason to measure quality);</li>
 *   <li>response time is M/M/1-like, 10 ms / (1 − ρ), capped at ρ = 0.99, for the Gradient2 baseline.</li>
 * </ul>
 * The model is ours, made to have the property Ubora reports; it shows what each controller does with it, not that
 * a real cluster behaves this way.
 */
class AdmissionSimulationTest
{
  static final int TICKS = 200_000;
  static final double HIGH = 0.4;
  static final long MODEL_WINDOW_MILLIS = 100;

  /**
   * @param qualityOkShare share of requests served while high-priority quality was ≥ 0.9
   * @param lowAdmitted    mean admitted low-priority load (capacity units)
   * @param meanQuality    mean high-priority quality
   * @param beforePeak     admitted fraction at the end of the quiet morning
   * @param duringHardMix  admitted fraction in the middle of the hard-mix peak
   * @param atEnd          admitted fraction at the end of the quiet evening
   */
  record Outcome(double qualityOkShare, double lowAdmitted, double meanQuality, double beforePeak,
                 double duringHardMix, double atEnd)
  {
  }

  /** Chooses the admitted low-priority fraction, given what it observed. */
  interface Policy
  {
    void observe(boolean high, double quality, boolean sampled, boolean timedOut, double rttMillis, double inflight,
                 long nowNanos);

    double admitFraction(int tick);
  }

  static double lowDemand(int tick)
  {
    return tick < TICKS / 5 || tick >= 4 * TICKS / 5 ? 0.1 : 0.6;
  }

  static double mix(int tick)
  {
    return tick >= TICKS / 2 && tick < 4 * TICKS / 5 ? 1.25 : 1;
  }

  static double quality(double rho)
  {
    return Math.max(0, Math.min(1, 1 - (rho - 0.7) * 0.8 / 0.6));
  }

  static Outcome run(Policy policy, long seed)
  {
    final Random random = new Random(seed);
    long qualityOk = 0;
    double lowAdmitted = 0;
    double qualitySum = 0;
    final double[] fractions = new double[3];
    for (int tick = 0; tick < TICKS; tick++) {
      if (tick == TICKS / 5 - 1) {
        fractions[0] = policy.admitFraction(tick);
      } else if (tick == 13 * TICKS / 20) {
        fractions[1] = policy.admitFraction(tick);
      } else if (tick == TICKS - 1) {
        fractions[2] = policy.admitFraction(tick);
      }
      final double low = lowDemand(tick);
      final double admittedLow = low * policy.admitFraction(tick);
      final double rho = (HIGH + admittedLow) * mix(tick);
      final double meanQuality = quality(rho);
      final boolean high = random.nextDouble() < HIGH / (HIGH + low);
      final boolean sampled = high && random.nextDouble() < 0.2;
      final double measured = Math.max(0, Math.min(1, meanQuality + random.nextGaussian() * 0.05));
      final boolean timedOut = high && random.nextDouble() < 1.5 * (rho - 0.5);
      final double capped = Math.min(rho, 0.99);
      policy.observe(high, measured, sampled, timedOut, 10 / (1 - capped), capped / (1 - capped), tick * 1_000_000L);
      qualityOk += meanQuality >= 0.9 ? 1 : 0;
      qualitySum += meanQuality;
      lowAdmitted += admittedLow;
    }
    return new Outcome((double) qualityOk / TICKS, lowAdmitted / TICKS, qualitySum / TICKS, fractions[0],
                       fractions[1], fractions[2]);
  }

  static Policy pid(AdmissionConfig config)
  {
    final PidAdmissionController controller = new PidAdmissionController(config);
    return new Policy()
    {
      @Override
      public void observe(boolean high, double quality, boolean sampled, boolean timedOut, double rtt, double inflight,
                          long now)
      {
        final long nowMillis = now / 1_000_000;
        if (sampled) {
          controller.onHighPriorityQuality(quality, nowMillis);
        }
        if (high) {
          controller.onHighPriorityCompleted(timedOut, nowMillis);
        }
      }

      @Override
      public double admitFraction(int tick)
      {
        return controller.lowPriorityAdmitFraction();
      }
    };
  }

  /**
   * Netflix concurrency-limits' Gradient2 as a partitioned limiter would use it: every request reports its RTT and
   * the in-flight count; low-priority queries are admitted while the in-flight count (M/M/1: ρ / (1 − ρ)) stays
   * under the limit, i.e. up to ρ = limit / (1 + limit); high priority is never limited.
   */
  static Policy gradient2()
  {
    final Gradient2Limit limit = Gradient2Limit.newBuilder().initialLimit(20).maxConcurrency(200).build();
    return new Policy()
    {
      @Override
      public void observe(boolean high, double quality, boolean sampled, boolean timedOut, double rtt, double inflight,
                          long now)
      {
        limit.onSample(now, (long) (rtt * 1e6), (int) Math.ceil(inflight), false);
      }

      @Override
      public double admitFraction(int tick)
      {
        final double maxRho = limit.getLimit() / (1.0 + limit.getLimit());
        return Math.max(0, Math.min(1, (maxRho / mix(tick) - HIGH) / lowDemand(tick)));
      }
    };
  }

  /**
   * Ubora's settings (K_P = 0.4) with our defaults and the given setpoint, acting every 100 ms of the model: the
   * 100 requests (one a tick, a tick a millisecond) Ubora evaluates after.
   */
  static AdmissionConfig config(AdmissionConfig.Signal signal, double target)
  {
    final AdmissionConfig defaults = AdmissionConfig.defaults(signal);
    return new AdmissionConfig(signal, target, MODEL_WINDOW_MILLIS, defaults.proportionalGain(),
                               defaults.integralGain(), 0, 0);
  }

  @Test
  void qualityGuidedShedsDuringThePeakAndAdmitsEverythingOnceQualityRecovers()
  {
    final Outcome outcome = run(pid(config(AdmissionConfig.Signal.ANSWER_QUALITY, 0.95)), 1);
    assertEquals(1, outcome.beforePeak(), 0, outcome.toString());
    // Holding quality 0.95 under the hard mix needs ρ = 0.59, i.e. about a third of the 0.6 low-priority demand.
    assertTrue(outcome.duringHardMix() < 0.45, outcome.toString());
    assertEquals(1, outcome.atEnd(), 0, outcome.toString());
  }

  @Test
  void atEqualProtectionQualityGuidedAdmitsFarMoreLowPriorityThanTheTimeoutBaseline()
  {
    for (long seed = 1; seed <= 3; seed++) {
      final Outcome quality = run(pid(config(AdmissionConfig.Signal.ANSWER_QUALITY, 0.95)), seed);
      final Outcome timeouts = run(pid(config(AdmissionConfig.Signal.TIMEOUT_RATE, 0.9)), seed);
      assertTrue(quality.qualityOkShare() >= 0.95, quality.toString());
      assertTrue(timeouts.qualityOkShare() >= 0.95, timeouts.toString());
      assertTrue(quality.lowAdmitted() > 1.5 * timeouts.lowAdmitted(), quality + " vs " + timeouts);
    }
  }

  @Test
  void gradient2AdmitsMoreButDoesNotProtectAnswerQuality()
  {
    final Outcome gradient = run(gradient2(), 1);
    final Outcome quality = run(pid(config(AdmissionConfig.Signal.ANSWER_QUALITY, 0.95)), 1);
    assertTrue(gradient.lowAdmitted() > quality.lowAdmitted(), gradient + " vs " + quality);
    assertTrue(gradient.qualityOkShare() < 0.9, gradient.toString());
  }

  /** Prints the figures quoted in docs/quality.md. */
  @Test
  void report()
  {
    System.out.println("quality-guided, setpoint 0.95: " + run(pid(config(AdmissionConfig.Signal.ANSWER_QUALITY, 0.95)), 1));
    System.out.println("quality-guided, setpoint 0.90: " + run(pid(config(AdmissionConfig.Signal.ANSWER_QUALITY, 0.9)), 1));
    System.out.println("timeout-guided, setpoint 0.90: " + run(pid(config(AdmissionConfig.Signal.TIMEOUT_RATE, 0.9)), 1));
    System.out.println("Gradient2: " + run(gradient2(), 1));
  }
}
