package org.getafix.core.quality.admission;

/**
 * Decides how much low-priority load to admit so that high-priority queries keep their answer quality (Ubora §8).
 * Shaped like Netflix concurrency-limits' {@code Limiter}: feed it outcomes, ask it before running a query.
 * Implementations are thread-safe and never throw from these methods; invalid observations are ignored.
 */
public interface AdmissionController
{
  /** Counts one arriving request of either priority; the controller re-evaluates every N requests. */
  void onRequest();

  /** A measured answer quality (online vs mature) of a sampled high-priority query, in [0, 1]. */
  void onHighPriorityQuality(double quality);

  /** A completed high-priority query, and whether it hit its timeout/budget (returned partial). */
  void onHighPriorityCompleted(boolean timedOut);

  /** The fraction of low-priority queries currently admitted, in [min, 1]. */
  double lowPriorityAdmitFraction();

  /**
   * Whether to admit the next low-priority query. Deterministic: a credit counter admits exactly the current
   * fraction of them, spread evenly, rather than a coin flip.
   */
  boolean admitLowPriority();

  /** The high-priority signal the controller steers on (answer quality or non-timeout rate), NaN before any. */
  double signal();

  /** The PID controller of Ubora §8 with {@code config}'s settings. */
  static AdmissionController of(AdmissionConfig config)
  {
    return new PidAdmissionController(config);
  }
}
