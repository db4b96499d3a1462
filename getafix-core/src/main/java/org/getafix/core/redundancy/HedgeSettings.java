package org.getafix.core.redundancy;

/**
 * Settings of a {@link HedgePolicy}, validated on construction so a bad setting fails when the Broker starts.
 *
 * @param quantile             the quantile of a node's recent latencies after which its sub-query is hedged, in
 *                             (0, 1)
 * @param minDelayMillis       the earliest a sub-query is hedged, ≥ 0: a node whose window is idle-fast (a few
 *                             sub-millisecond answers) is not hedged at once
 * @param unknownLatencyMillis the latency assumed for a node with fewer than {@code minSamples} recent samples, both
 *                             as its hedge point and as its expected latency as an alternative, &gt; 0
 * @param minSamples           recent samples a node needs before its own quantile is trusted, ≥ 1
 * @param hedgeRatio           hedges allowed per primary sub-query in the long run, in (0, 1]: each primary adds
 *                             this much of a token, each hedge spends one
 * @param maxTokens            the token bucket's size, ≥ 1: the burst of hedges allowed after a quiet spell
 */
public record HedgeSettings(
    double quantile,
    double minDelayMillis,
    double unknownLatencyMillis,
    int minSamples,
    double hedgeRatio,
    double maxTokens
)
{
  public static final HedgeSettings DEFAULTS = new HedgeSettings(0.95, 10, 100, 20, 0.05, 10);

  public HedgeSettings
  {
    if (!(quantile > 0 && quantile < 1)) {
      throw new IllegalArgumentException("hedge quantile must be in (0, 1), got [" + quantile + "]");
    }
    if (!(Double.isFinite(minDelayMillis) && minDelayMillis >= 0)) {
      throw new IllegalArgumentException("minDelayMillis must be a finite number >= 0, got [" + minDelayMillis + "]");
    }
    if (!(Double.isFinite(unknownLatencyMillis) && unknownLatencyMillis > 0)) {
      throw new IllegalArgumentException(
          "unknownLatencyMillis must be a finite number > 0, got [" + unknownLatencyMillis + "]"
      );
    }
    if (minSamples < 1) {
      throw new IllegalArgumentException("minSamples must be >= 1, got [" + minSamples + "]");
    }
    if (!(hedgeRatio > 0 && hedgeRatio <= 1)) {
      throw new IllegalArgumentException("hedgeRatio must be in (0, 1], got [" + hedgeRatio + "]");
    }
    if (!(Double.isFinite(maxTokens) && maxTokens >= 1)) {
      throw new IllegalArgumentException("maxTokens must be a finite number >= 1, got [" + maxTokens + "]");
    }
  }
}
