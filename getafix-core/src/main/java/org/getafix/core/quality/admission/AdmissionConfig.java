package org.getafix.core.quality.admission;

import org.getafix.core.contract.QualityKnobs;

/**
 * Settings of a {@link PidAdmissionController}, validated on construction. Defaults follow Ubora §8 (target 0.9,
 * proportional weight 0.4), with a time window in place of its request count (see
 * {@link QualityKnobs#ADMISSION_WINDOW_MS}).
 *
 * @param signal           what the controller watches on high-priority queries
 * @param target           the setpoint of the signal (answer quality, or the fraction of queries that did not time
 *                         out), in (0, 1]
 * @param windowMillis     length of a window: the controller acts once per window, on that window's samples
 * @param proportionalGain K_P, ≥ 0
 * @param integralGain     K_I, ≥ 0
 * @param derivativeGain   K_D, ≥ 0
 * @param minAdmitFraction floor of the low-priority admit fraction, in [0, 1]
 */
public record AdmissionConfig(
    Signal signal,
    double target,
    long windowMillis,
    double proportionalGain,
    double integralGain,
    double derivativeGain,
    double minAdmitFraction
)
{
  public static final double DEFAULT_PROPORTIONAL_GAIN = 0.4;
  public static final double DEFAULT_INTEGRAL_GAIN = 0.5;

  /** The high-priority signal the admission of low-priority queries is steered by. */
  public enum Signal
  {
    /** Measured answer quality of sampled high-priority queries (Ubora's controller). */
    ANSWER_QUALITY,
    /** 1 − the timeout rate of high-priority queries: the cheap proxy Ubora compares against. */
    TIMEOUT_RATE
  }

  public AdmissionConfig
  {
    if (signal == null) {
      throw new IllegalArgumentException("admission signal must be set");
    }
    QualityKnobs.ADMISSION_TARGET.checkAs("admission target", target);
    QualityKnobs.ADMISSION_WINDOW_MS.checkAs("windowMillis", windowMillis);
    for (double gain : new double[]{proportionalGain, integralGain, derivativeGain}) {
      if (!(Double.isFinite(gain) && gain >= 0)) {
        throw new IllegalArgumentException("PID gains must be finite numbers >= 0, got [" + gain + "]");
      }
    }
    if (!(minAdmitFraction >= 0 && minAdmitFraction <= 1)) {
      throw new IllegalArgumentException("minAdmitFraction must be in [0, 1], got [" + minAdmitFraction + "]");
    }
  }

  /** Ubora's defaults for {@code signal}, with the default window. */
  public static AdmissionConfig defaults(Signal signal)
  {
    return new AdmissionConfig(signal, QualityKnobs.ADMISSION_TARGET.defaultValue(),
                               QualityKnobs.ADMISSION_WINDOW_MS.defaultValue(), DEFAULT_PROPORTIONAL_GAIN,
                               DEFAULT_INTEGRAL_GAIN, 0, 0);
  }
}
