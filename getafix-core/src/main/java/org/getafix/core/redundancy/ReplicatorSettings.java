package org.getafix.core.redundancy;

/**
 * Settings of a {@link PartialReplicator}, validated on construction.
 *
 * @param maxFactor       r_max, ≥ 1: the most copies of a sub-query on average (2 = every one replicated once)
 * @param step            how far one step of the search moves r, in (0, 1]
 * @param stabilityMargin the share of the aggregate capacity kept free, in [0, 1): r is kept to
 *                        λ·r·E[S] ≤ (1 − margin)·capacity
 * @param minVariability  the latency variability (a high percentile over the mean, the paper's w) below which
 *                        replication has no tail to mask and r steps down, ≥ 1
 * @param minImprovement  the relative drop of the target metric a step up must bring to be kept, in [0, 1)
 * @param retryPeriods    measurement periods after which a step up that did not help is tried again, ≥ 1 (the
 *                        paper runs its search once; load and interference change, so it is re-opened)
 */
public record ReplicatorSettings(
    double maxFactor,
    double step,
    double stabilityMargin,
    double minVariability,
    double minImprovement,
    int retryPeriods
)
{
  public static final ReplicatorSettings DEFAULTS = new ReplicatorSettings(2, 0.1, 0.2, 1.5, 0.02, 10);

  public ReplicatorSettings
  {
    if (!(Double.isFinite(maxFactor) && maxFactor >= 1)) {
      throw new IllegalArgumentException("maxFactor must be a finite number >= 1, got [" + maxFactor + "]");
    }
    if (!(step > 0 && step <= 1)) {
      throw new IllegalArgumentException("step must be in (0, 1], got [" + step + "]");
    }
    if (!(stabilityMargin >= 0 && stabilityMargin < 1)) {
      throw new IllegalArgumentException("stabilityMargin must be in [0, 1), got [" + stabilityMargin + "]");
    }
    if (!(Double.isFinite(minVariability) && minVariability >= 1)) {
      throw new IllegalArgumentException("minVariability must be a finite number >= 1, got [" + minVariability + "]");
    }
    if (!(minImprovement >= 0 && minImprovement < 1)) {
      throw new IllegalArgumentException("minImprovement must be in [0, 1), got [" + minImprovement + "]");
    }
    if (retryPeriods < 1) {
      throw new IllegalArgumentException("retryPeriods must be >= 1, got [" + retryPeriods + "]");
    }
  }
}
