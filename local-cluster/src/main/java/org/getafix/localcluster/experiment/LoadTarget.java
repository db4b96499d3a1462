package org.getafix.localcluster.experiment;

/**
 * What a load must keep to count as sustained in the budget paper's throughput comparison (§5.4): a mean response
 * time within the target, and a mean answer quality at or above the quality target. The same test as the simulator's
 * {@code SustainedLoad}, so that the live figure and the simulated one read alike.
 *
 * @param targetMillis  the response-time target T
 * @param qualityTarget the mean answer quality a load must keep, in (0, 1]
 */
public record LoadTarget(long targetMillis, double qualityTarget)
{
  /**
   * The response time may exceed T by this share: the budget controller holds the mean at T, so that its mean lies on
   * either side of T by the noise of the measurement; the simulator allows the same.
   */
  public static final double RESPONSE_TOLERANCE = 0.05;

  public LoadTarget
  {
    if (targetMillis <= 0) {
      throw new IllegalArgumentException("targetMillis must be positive, got " + targetMillis);
    }
    if (!(qualityTarget > 0 && qualityTarget <= 1)) {
      throw new IllegalArgumentException("qualityTarget must be in (0, 1], got " + qualityTarget);
    }
  }

  /** Whether a mean response time meets the target; NaN (nothing answered) does not. */
  public boolean timely(double meanMillis)
  {
    return meanMillis <= (1 + RESPONSE_TOLERANCE) * targetMillis;
  }

  /** Whether a mean answer quality meets the target; NaN (nothing offered) does not. */
  public boolean good(double meanQuality)
  {
    return meanQuality >= qualityTarget;
  }

  /** Whether {@code step} kept both targets. */
  public boolean meets(LoadStep step)
  {
    return timely(step.meanMillis()) && good(step.meanQuality());
  }
}
