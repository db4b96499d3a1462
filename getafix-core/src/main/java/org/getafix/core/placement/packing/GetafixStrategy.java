package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;

/**
 * The Getafix family: ModifiedBestFit on per-node weights, the replica floor, and optionally the segment balancer.
 * Getafix-H weighs nodes by estimated capacity and balances; Getafix-B weighs them equally (Algorithm 2.1);
 * auto-tiering only weighs them by capacity without balancing. Each may split segments as the thesis does or evenly
 * ({@link SplitPolicy}).
 */
public record GetafixStrategy(boolean capacityAware, boolean balance, SplitPolicy split, boolean hotFloor)
    implements PlacementStrategy
{
  /**
   * @param capacityAware whether nodes weigh their capacity (Getafix-H, auto-tiering only) or 1 (Getafix-B)
   * @param balance       whether the segment balancer evens out segment counts within the constraints' γ
   * @param split         how a segment no free bin takes whole is split
   * @param hotFloor      whether the hottest load share keeps two holders ({@link PlacementConstraints#hotLoadShare})
   */
  public GetafixStrategy
  {
    if (split == null) {
      throw new IllegalArgumentException("split must not be null");
    }
  }

  @Override
  public PlacementPlan plan(PlacementInput input)
  {
    final PlacementProblem problem = new PlacementProblem(input);
    final double[] weight = weights(problem);
    Assignment assignment = null;
    // Only when the extra replicas of popular segments took memory the floor then missed, re-plan keeping more
    // memory back; an input with room to spare is planned once.
    for (ModifiedBestFit.Reserve reserve : ModifiedBestFit.Reserve.values()) {
      assignment = new Assignment(problem);
      final boolean madeExtraReplicas = ModifiedBestFit.run(problem, assignment, weight, reserve, split);
      ReplicaFloor.run(problem, assignment, problem.constraints.minReplicas(), true);
      if (!madeExtraReplicas || !assignment.memoryShortfall) {
        break;
      }
    }
    if (balance) {
      SegmentBalancer.run(problem, assignment, weight, problem.constraints.gamma());
    }
    // Last, so that it only takes memory the plan left free.
    if (hotFloor && problem.constraints.maxReplicas() >= 2) {
      final int hot = hotCount(problem, problem.constraints.hotLoadShare(), problem.constraints.hotMinNodeLoadShare());
      ReplicaFloor.run(problem, assignment, 2, true, hot, false, weight);
    }
    return assignment.toPlan();
  }

  /**
   * How many of the hottest segments (a prefix of the fit's order) it takes to draw {@code share} of the load, stopping
   * at the first one that draws less than {@code minNodeShare} of a mean node's load.
   */
  static int hotCount(PlacementProblem problem, double share, double minNodeShare)
  {
    if (share <= 0 || problem.totalLoad <= 0) {
      return 0;
    }
    final double wanted = share * problem.totalLoad;
    final double leastHotLoad = minNodeShare * problem.totalLoad / problem.nodeCount;
    double drawn = 0;
    int count = 0;
    while (count < problem.loadedCount && drawn < wanted && problem.load[count] >= leastHotLoad) {
      drawn += problem.load[count++];
    }
    return count;
  }

  /**
   * Capacity for the capacity-aware variants, 1 for Getafix-B. A node with capacity 0 weighs 0 in both (it was
   * explicitly given no load, e.g. while it drains); if every node has capacity 0 there is no information at all and
   * all nodes weigh the same, rather than leaving the load nowhere.
   */
  private double[] weights(PlacementProblem problem)
  {
    final double[] weight = new double[problem.nodeCount];
    double total = 0;
    for (int n = 0; n < problem.nodeCount; n++) {
      weight[n] = problem.capacity[n] > 0 ? (capacityAware ? problem.capacity[n] : 1.0) : 0.0;
      total += weight[n];
    }
    if (total <= 0) {
      java.util.Arrays.fill(weight, 1.0);
    }
    return weight;
  }
}
