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
 */
public record PlacementConstraints(int minReplicas, int maxReplicas, double gamma, double hotLoadShare)
{
  /**
   * Floor 1, no cap, the thesis' γ, and the hot floor at 90% of the load: on the simulator's thesis scenarios it
   * brought Getafix-H's p99 to or near druid-default's at 0.56× its memory (docs/benchmarks.md).
   */
  public static final PlacementConstraints DEFAULT = new PlacementConstraints(1, Integer.MAX_VALUE, 0.20, 0.9);

  /** The thesis' constraints: no hot floor. */
  public PlacementConstraints(int minReplicas, int maxReplicas, double gamma)
  {
    this(minReplicas, maxReplicas, gamma, 0.0);
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
  }
}
