package org.getafix.core.quality.admission;

/**
 * Ubora's admission controller (§8): every {@code evaluationPeriod} requests, a PID controller compares the signal
 * (mean answer quality of the last {@code window} sampled high-priority queries, or their non-timeout rate) with
 * the target and moves the fraction of low-priority queries admitted. Velocity form: the fraction changes by
 * K_P·Δe + K_I·e + K_D·Δ²e with e = signal − target, clamped to [min, 1]; the clamp is the anti-windup. An
 * evaluation with no new sample since the last one holds the fraction (nothing was learned). Both the
 * quality-guided controller and the timeout-rate baseline are this class with a different
 * {@link AdmissionConfig.Signal}.
 *
 * <p>Thread-safe: all methods synchronise on the instance; each is O(1).
 */
public final class PidAdmissionController implements AdmissionController
{
  private final AdmissionConfig config;
  private final double[] samples;
  private int sampleCount;
  private int nextSample;
  private double sampleSum;
  private long samplesSinceEvaluation;

  private long requests;
  private double previousError = Double.NaN;
  private double previousDelta;
  private double admitFraction = 1;
  private double credit;

  public PidAdmissionController(AdmissionConfig config)
  {
    this.config = config;
    this.samples = new double[config.window()];
  }

  @Override
  public synchronized void onRequest()
  {
    if (++requests % config.evaluationPeriod() == 0) {
      evaluate();
    }
  }

  @Override
  public synchronized void onHighPriorityQuality(double quality)
  {
    if (config.signal() == AdmissionConfig.Signal.ANSWER_QUALITY && quality >= 0 && quality <= 1) {
      addSample(quality);
    }
  }

  @Override
  public synchronized void onHighPriorityCompleted(boolean timedOut)
  {
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
  public synchronized boolean admitLowPriority()
  {
    credit += admitFraction;
    if (credit >= 1) {
      credit -= 1;
      return true;
    }
    return false;
  }

  /** The mean of the window, NaN before the first sample. */
  @Override
  public synchronized double signal()
  {
    return sampleCount == 0 ? Double.NaN : sampleSum / sampleCount;
  }

  private void addSample(double value)
  {
    if (sampleCount == samples.length) {
      sampleSum -= samples[nextSample];
    } else {
      sampleCount++;
    }
    samples[nextSample] = value;
    sampleSum += value;
    nextSample = (nextSample + 1) % samples.length;
    samplesSinceEvaluation++;
  }

  private void evaluate()
  {
    if (samplesSinceEvaluation == 0) {
      return;
    }
    samplesSinceEvaluation = 0;
    final double error = sampleSum / sampleCount - config.target();
    final double delta = Double.isNaN(previousError) ? 0 : error - previousError;
    final double change = config.proportionalGain() * delta
                          + config.integralGain() * error
                          + config.derivativeGain() * (delta - previousDelta);
    previousError = error;
    previousDelta = delta;
    admitFraction = Math.max(config.minAdmitFraction(), Math.min(1, admitFraction + change));
  }
}
