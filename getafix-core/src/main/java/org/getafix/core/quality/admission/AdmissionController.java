package org.getafix.core.quality.admission;

/**
 * Decides how much low-priority load to admit so that high-priority queries keep their answer quality (Ubora §8).
 * Shaped like Netflix concurrency-limits' {@code Limiter}: feed it outcomes, ask it before running a query. Time is
 * passed in (milliseconds of any clock that does not go back): the controller acts once per time window, when the
 * first call after the window's end closes it. Implementations are thread-safe and never throw from these methods;
 * invalid observations are ignored.
 */
public interface AdmissionController
{
  /** A measured answer quality (online vs mature) of a sampled high-priority query, in [0, 1]. */
  void onHighPriorityQuality(double quality, long nowMillis);

  /** A completed high-priority query, and whether it hit its timeout/budget (returned partial). */
  void onHighPriorityCompleted(boolean timedOut, long nowMillis);

  /** The fraction of low-priority queries currently admitted, in [min, 1]. */
  double lowPriorityAdmitFraction();

  /**
   * Whether to admit the next low-priority query, arriving at {@code nowMillis}. Deterministic: a credit counter
   * admits exactly the current fraction of them, spread evenly, rather than a coin flip.
   */
  boolean admitLowPriority(long nowMillis);

  /**
   * The high-priority signal (answer quality or non-timeout rate) of the last window that had samples, the one the
   * controller last acted on; NaN before any.
   */
  double signal();

  /** The PID controller of Ubora §8 with {@code config}'s settings. */
  static AdmissionController of(AdmissionConfig config)
  {
    return new PidAdmissionController(config);
  }
}
