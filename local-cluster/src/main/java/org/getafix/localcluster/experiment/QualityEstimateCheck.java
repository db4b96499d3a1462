package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The Broker's sampled-quality estimate (the quality endpoint's {@code sampledQuality}: the mean quality of the
 * sampled queries, the skipped ones weighed for by the measured runs of their 10 s) against the true mean quality of
 * the same queries, which the experiment knows from every answer's coverage.
 *
 * @param estimate      the estimated mean quality; NaN when nothing was measured
 * @param confidence95  the half-width of its 95% interval; NaN when the Broker gives none
 * @param measuredRuns  mature runs and replays behind it
 * @param effectiveRuns what they count for once weighed
 * @param truth         the true mean quality; NaN when unknown
 */
public record QualityEstimateCheck(
    double estimate,
    double confidence95,
    long measuredRuns,
    double effectiveRuns,
    double truth
)
{
  /** The estimate in the quality endpoint's {@code state}, against {@code truth}. */
  public static QualityEstimateCheck of(JsonNode state, double truth)
  {
    final JsonNode sampled = state.path("sampledQuality");
    return new QualityEstimateCheck(
        numberOrNaN(sampled.path("meanQuality")),
        numberOrNaN(sampled.path("confidence95")),
        sampled.path("measuredRuns").asLong(0),
        numberOrNaN(sampled.path("effectiveRuns")),
        truth
    );
  }

  /** The endpoint's JSON null (a figure it cannot give) and a missing field alike: NaN. */
  private static double numberOrNaN(JsonNode node)
  {
    return node.isNumber() ? node.asDouble() : Double.NaN;
  }

  /** Estimate − truth; NaN when either is unknown. */
  public double error()
  {
    return estimate - truth;
  }

  /** Whether the truth lies within the estimate's 95% interval; false when any of the three is unknown. */
  public boolean truthWithinInterval()
  {
    return Math.abs(error()) <= confidence95;
  }
}
