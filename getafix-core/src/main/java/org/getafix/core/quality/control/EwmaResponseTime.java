package org.getafix.core.quality.control;

/** Mean response time as an exponentially weighted moving average. Not thread-safe. */
public final class EwmaResponseTime implements ResponseTimeEstimator
{
  /** The budget paper's weight of a new response (§4.2). */
  public static final double DEFAULT_ALPHA = 0.05;

  private final double alpha;
  private double mean = Double.NaN;

  /** @param alpha weight of a new response, in (0, 1] */
  public EwmaResponseTime(double alpha)
  {
    if (!(alpha > 0 && alpha <= 1)) {
      throw new IllegalArgumentException("response-time EWMA alpha must be in (0, 1], got [" + alpha + "]");
    }
    this.alpha = alpha;
  }

  @Override
  public void record(double millis)
  {
    mean = Double.isNaN(mean) ? millis : mean + alpha * (millis - mean);
  }

  @Override
  public double estimate()
  {
    return mean;
  }
}
