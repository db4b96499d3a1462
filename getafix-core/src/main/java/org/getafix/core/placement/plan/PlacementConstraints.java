package org.getafix.core.placement.plan;

import org.getafix.core.contract.PlacementKnobs;

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
 * @param backUpUnstable every segment held only by unstable nodes ({@link NodeCapacity#unstable}) gets a second holder
 *                      on a stable node (when maxReplicas allows and memory is left), which carries no planned load
 *                      and is there for Brokers to route or hedge to while the unstable node is in a slow spell
 * @param minPlanGain   the gain a round's fresh plan must bring to replace the plan in force (see
 *                      {@code PlanKeeper} in the planning round's package); 0 adopts every round's plan
 * @param maxRebalanceDataPerHour the most data, as a share of the data set, the plan in force may load per hour to
 *                      rebalance ({@code PlanKeeper}): its repairs wait for it, and the holders of segments that grew
 *                      hot are charged to it. Load moved off a straggler or off a node far past the fresh plan's
 *                      peak, repairs in the first rounds of the first plan, new segments and segments of a node
 *                      that left or held by stragglers alone do not count
 */
public record PlacementConstraints(
    int minReplicas,
    int maxReplicas,
    double gamma,
    double hotLoadShare,
    double hotMinNodeLoadShare,
    boolean backUpUnstable,
    double minPlanGain,
    double maxRebalanceDataPerHour
)
{
  /**
   * The defaults of {@link PlacementKnobs}, except that replicas have no cap: a caller that does not know the
   * cluster's size plans without one.
   */
  public static final PlacementConstraints DEFAULT = new PlacementConstraints(
      PlacementKnobs.MIN_REPLICAS.defaultValue(),
      Integer.MAX_VALUE,
      PlacementKnobs.GAMMA.defaultValue(),
      PlacementKnobs.HOT_LOAD_SHARE.defaultValue(),
      PlacementKnobs.HOT_MIN_NODE_LOAD_SHARE.defaultValue(),
      PlacementKnobs.BACK_UP_UNSTABLE.defaultValue(),
      PlacementKnobs.MIN_PLAN_GAIN.defaultValue(),
      PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.defaultValue()
  );

  /** With unstable nodes backed up as by default. */
  public PlacementConstraints(
      int minReplicas,
      int maxReplicas,
      double gamma,
      double hotLoadShare,
      double hotMinNodeLoadShare
  )
  {
    this(
        minReplicas,
        maxReplicas,
        gamma,
        hotLoadShare,
        hotMinNodeLoadShare,
        PlacementKnobs.BACK_UP_UNSTABLE.defaultValue(),
        PlacementKnobs.MIN_PLAN_GAIN.defaultValue(),
        PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.defaultValue()
    );
  }

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
    PlacementKnobs.MIN_REPLICAS.check(minReplicas);
    final String maxReplicasProblem = PlacementKnobs.maxReplicasProblem(minReplicas, maxReplicas);
    if (maxReplicasProblem != null) {
      throw new IllegalArgumentException(maxReplicasProblem);
    }
    PlacementKnobs.GAMMA.check(gamma);
    PlacementKnobs.HOT_LOAD_SHARE.check(hotLoadShare);
    PlacementKnobs.HOT_MIN_NODE_LOAD_SHARE.check(hotMinNodeLoadShare);
    PlacementKnobs.MIN_PLAN_GAIN.check(minPlanGain);
    PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.check(maxRebalanceDataPerHour);
  }
}
