package org.getafix.core.quality.admission;

/**
 * Ubora's admission controller (§8) on time windows: at the end of each {@code windowMillis} window, a PID
 * controller compares the signal of that window (the mean answer quality of the high-priority queries sampled in it,
 * or their non-timeout rate) with the target and moves the fraction of low-priority queries admitted. Velocity form:
 * the fraction changes by K_P·Δe + K_I·e + K_D·Δ²e with e = signal − target, clamped to [min, 1]; the clamp is the
 * anti-windup. A window with no sample holds the fraction: nothing was learned, and an idle or unsampled stretch is
 * no evidence that quality recovered. Windows are tumbling and aligned on the first call, and a window is closed by
 * the first call at or after its end, so a sample always counts in the window it arrived in. Both the quality-guided
 * controller and the timeout-rate baseline are this class with a different {@link AdmissionConfig.Signal}.
 *
 * <p>Thread-safe: all methods synchronise on the instance; each is O(1).
 */
public final class PidAdmissionController implements AdmissionController
{
  private final AdmissionConfig config;
  private boolean started;
  private long windowStart;
  private int windowSamples;
  private double windowSum;
  private double signal = Double.NaN;

  private double previousError = Double.NaN;
  private double previousDelta;
  private double admitFraction = 1;
  private double credit;

  public PidAdmissionController(AdmissionConfig config)
  {
    this.config = config;
  }

  @Override
  public synchronized void onHighPriorityQuality(double quality, long nowMillis)
  {
    advance(nowMillis);
    if (config.signal() == AdmissionConfig.Signal.ANSWER_QUALITY && quality >= 0 && quality <= 1) {
      addSample(quality);
    }
  }

  @Override
  public synchronized void onHighPriorityCompleted(boolean timedOut, long nowMillis)
  {
    advance(nowMillis);
    if (config.signal() == AdmissionConfig.Signal.TIMEOUT_RATE) {
      addSample(timedOut ? 0 : 1);
    }
  }

  @Override
  public synchronized double lowPriorityAdmitFraction()
  {
    return admitFraction;
  }

  @Override
  public synchronized boolean admitLowPriority(long nowMillis)
  {
    advance(nowMillis);
    credit += admitFraction;
    if (credit >= 1) {
      credit -= 1;
      return true;
    }
    return false;
  }

  @Override
  public synchronized double signal()
  {
    return signal;
  }

  private void addSample(double value)
  {
    windowSum += value;
    windowSamples++;
  }

  /** Closes the window if {@code nowMillis} is past its end; later windows that passed unseen were empty. */
  private void advance(long nowMillis)
  {
    if (!started) {
      started = true;
      windowStart = nowMillis;
      return;
    }
    // A clock that went back counts as the current window rather than reopening an old one.
    final long elapsed = nowMillis - windowStart;
    if (elapsed < config.windowMillis()) {
      return;
    }
    if (windowSamples > 0) {
      evaluate(windowSum / windowSamples);
    }
    windowSamples = 0;
    windowSum = 0;
    windowStart += elapsed - elapsed % config.windowMillis();
  }

  private void evaluate(double windowSignal)
  {
    signal = windowSignal;
    final double error = windowSignal - config.target();
    final double delta = Double.isNaN(previousError) ? 0 : error - previousError;
    final double change = config.proportionalGain() * delta
                          + config.integralGain() * error
                          + config.derivativeGain() * (delta - previousDelta);
    previousError = error;
    previousDelta = delta;
    admitFraction = Math.max(config.minAdmitFraction(), Math.min(1, admitFraction + change));
  }
}
