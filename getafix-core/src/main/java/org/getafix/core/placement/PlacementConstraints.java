package org.getafix.core.placement;

/**
 * Limits every plan must respect.
 *
 * @param minReplicas replica floor: every segment gets at least this many copies, even with zero popularity
 * @param maxReplicas replica cap per segment
 * @param gamma       load-imbalance bound of the segment balancer (thesis §3.2): a move is accepted only while
 *                    1 − min/max node query load stays ≤ gamma; 0 disables balancing
 */
public record PlacementConstraints(int minReplicas, int maxReplicas, double gamma)
{
  public static final PlacementConstraints DEFAULT = new PlacementConstraints(1, Integer.MAX_VALUE, 0.20);

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
  }
}
