package org.getafix.core.placement;

/**
 * Limits every plan must respect.
 *
 * @param minReplicas replica floor: every segment gets at least this many copies, even with zero popularity
 * @param maxReplicas replica cap per segment
 * @param gamma       load-imbalance bound of the segment balancer (thesis §3.2): a move is accepted only while
 *                    1 − min/max node query load stays ≤ gamma; 0 disables balancing
 * @param hotLoadShare  the hottest segments that together draw this fraction of the total load keep at least two
 *                      holders (when maxReplicas allows), so that Brokers have a choice where most queries go; the
 *                      second replica carries no planned load and only uses memory the floor left free. 0 (the
 *                      thesis) turns it off
 * @param hotMinNodeLoadShare a segment is hot only if it also draws at least this share of a mean node's load (the
 *                      total load over the nodes): below it one holder cannot become a hotspot, and a second copy
 *                      costs memory for no choice that matters. Without it, on a cluster of few Historicals the
 *                      hottest 90% of the load spans a third of the segments, most of them under 1% of a node each
 */
public record PlacementConstraints(
    int minReplicas,
    int maxReplicas,
    double gamma,
    double hotLoadShare,
    double hotMinNodeLoadShare
)
{
  /**
   * Floor 1, no cap, the thesis' γ, and the hot floor at 90% of the load for segments drawing at least 5% of a mean
   * node's load: on the simulator's thesis scenarios it brought Getafix-H's p99 under druid-default's at 0.54–0.55×
   * its memory (docs/benchmarks.md, issue 11).
   */
  public static final PlacementConstraints DEFAULT = new PlacementConstraints(1, Integer.MAX_VALUE, 0.20, 0.9, 0.08);

  /** The thesis' constraints: no hot floor. */
  public PlacementConstraints(int minReplicas, int maxReplicas, double gamma)
  {
    this(minReplicas, maxReplicas, gamma, 0.0);
  }

  /** A hot floor of {@code hotLoadShare} with the default {@link #hotMinNodeLoadShare}. */
  public PlacementConstraints(int minReplicas, int maxReplicas, double gamma, double hotLoadShare)
  {
    this(minReplicas, maxReplicas, gamma, hotLoadShare, DEFAULT.hotMinNodeLoadShare());
  }

  public PlacementConstraints
  {
    if (minReplicas < 1) {
      throw new IllegalArgumentException("minReplicas must be >= 1, got [" + minReplicas + "]");
    }
    if (maxReplicas < minReplicas) {
      throw new IllegalArgumentException(
          "maxReplicas must be >= minReplicas [" + minReplicas + "], got [" + maxReplicas + "]"
      );
    }
    if (!Double.isFinite(gamma) || gamma < 0 || gamma > 1) {
      throw new IllegalArgumentException("gamma must be in [0, 1], got [" + gamma + "]");
    }
    if (!Double.isFinite(hotLoadShare) || hotLoadShare < 0 || hotLoadShare > 1) {
      throw new IllegalArgumentException("hotLoadShare must be in [0, 1], got [" + hotLoadShare + "]");
    }
    if (!Double.isFinite(hotMinNodeLoadShare) || hotMinNodeLoadShare < 0 || hotMinNodeLoadShare > 1) {
      throw new IllegalArgumentException(
          "hotMinNodeLoadShare must be in [0, 1], got [" + hotMinNodeLoadShare + "]"
      );
    }
  }
}
