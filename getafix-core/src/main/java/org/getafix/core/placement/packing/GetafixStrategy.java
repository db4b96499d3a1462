package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;

import java.util.Arrays;

/**
 * The Getafix family: ModifiedBestFit on per-node weights, the replica floor, and optionally the segment balancer.
 * Getafix-H weighs nodes by estimated capacity and balances; Getafix-B weighs them equally (Algorithm 2.1);
 * auto-tiering only weighs them by capacity without balancing. The capacity-aware ones leave no segment on stragglers
 * alone ({@link #moveOffStragglers}). Each may split segments as the thesis does or evenly
 * ({@link SplitPolicy}).
 */
public record GetafixStrategy(boolean capacityAware, boolean balance, SplitPolicy split, boolean hotFloor)
    implements PlacementStrategy
{
  /**
   * A node below this share of the median capacity is a straggler, which holds no segment alone: a scan there takes
   * over four times as long as on a typical node. A quarter-core node among 1.0 and 0.5 cores (half the median) is not
   * one; the 1.0-core node cut to 0.05 core (a fifth of the 0.25-core median) is.
   */
  static final double STRAGGLER_SHARE = 0.25;

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
    if (capacityAware) {
      moveOffStragglers(problem, assignment, weight);
      if (problem.constraints.backUpUnstable()) {
        backUpUnstable(problem, assignment, weight);
      }
    }
    return assignment.toPlan();
  }

  /**
   * Beyond the thesis: no segment is held by stragglers alone. The fit gives a straggler little load, but the floor and
   * the balancer even out segment counts over every node, a straggler too, so a node turned twenty times slower went on
   * holding a third of the segments that have one holder, and every query reading one of them waited for it (live,
   * with a 400 ms query timeout: 2.4 times stock Druid's failed queries, where stock's second replicas let the Broker
   * route around it). Each segment whose replicas are all on stragglers has one of them moved, with its load, to the
   * node with the fewest segments that is not a straggler and has room for it (Druid's load queues load it there before
   * they drop it from the straggler). The replica count is unchanged, and a segment nowhere else has room for stays.
   */
  static void moveOffStragglers(PlacementProblem problem, Assignment assignment, double[] weight)
  {
    final boolean[] straggler = stragglers(weight);
    boolean any = false;
    for (boolean b : straggler) {
      any |= b;
    }
    if (!any) {
      return;
    }
    for (int s = 0; s < problem.segmentCount; s++) {
      if (!heldOnlyBy(assignment, s, straggler)) {
        continue;
      }
      int to = -1;
      for (int n = 0; n < problem.nodeCount; n++) {
        if (!straggler[n]
            && assignment.freeMemory[n] >= problem.size[s]
            && !assignment.holds(s, n)
            && (to < 0 || assignment.nodeSegments[n] < assignment.nodeSegments[to])) {
          to = n;
        }
      }
      if (to >= 0) {
        assignment.move(assignment.firstReplica(s), to);
      }
    }
  }

  /**
   * Beyond the thesis: no segment is held by unstable nodes alone ({@link NodeCapacity#unstable}). Such a node keeps
   * its usual capacity estimate, so the fit gives it its usual share of segments with one holder; but during each of
   * its slow spells every query reading one of them waits for it, and neither the Broker's replica choice nor a
   * hedged sub-query has another holder to turn to. Live, a Historical whose CPU quota was cut to 0.02 core for 1.5 s
   * every 10 s held a third of the segments, most of them alone, and hedging lowered the p99 by 9% only.
   *
   * <p>Each such segment, hottest first, gets one more replica on a stable node that is not a straggler: a node that
   * holds it now if there is one (nothing to load), else the one with the fewest segments per unit of capacity that
   * has room, as the hot floor chooses (queries the backup takes during a slow spell then go to a strong node). The
   * replica carries no planned load (Brokers that route by the plan leave it alone while the segment's holder is well;
   * latency routing and hedging use it when it is not) and only takes memory the plan left free, within maxReplicas.
   * The cost is memory, one more replica of what the unstable nodes hold alone, and the loads to make them. Off by
   * default ({@link PlacementConstraints#backUpUnstable}): live, with a Historical stalling 1.5 s in every 10 s, it
   * did not lower the p99 (docs/benchmarks.md).
   */
  static void backUpUnstable(PlacementProblem problem, Assignment assignment, double[] weight)
  {
    final boolean[] unsuitable = stragglers(weight);
    boolean anyUnstable = false;
    boolean anyStable = false;
    for (int n = 0; n < problem.nodeCount; n++) {
      anyUnstable |= problem.unstable[n];
      unsuitable[n] |= problem.unstable[n] || weight[n] <= 0;
      anyStable |= !unsuitable[n];
    }
    if (!anyUnstable || !anyStable) {
      return;
    }
    for (int s = 0; s < problem.segmentCount; s++) {
      if (assignment.replicaCount(s) >= problem.constraints.maxReplicas()
          || !heldOnlyBy(assignment, s, problem.unstable)) {
        continue;
      }
      final int to = backupNode(problem, assignment, s, unsuitable, weight);
      if (to >= 0) {
        assignment.addReplica(s, to, 0.0);
      }
    }
  }

  /** Whether {@code s} has a replica and all of its replicas are on the given nodes. */
  private static boolean heldOnlyBy(Assignment assignment, int s, boolean[] nodes)
  {
    final int first = assignment.firstReplica(s);
    for (int r = first; r >= 0; r = assignment.nextReplica(r)) {
      if (!nodes[assignment.repNode[r]]) {
        return false;
      }
    }
    return first >= 0;
  }

  /**
   * A suitable node that holds {@code s} now, else the suitable one with the fewest segments per unit of weight that
   * has room; or -1.
   */
  private static int backupNode(
      PlacementProblem problem,
      Assignment assignment,
      int s,
      boolean[] unsuitable,
      double[] weight
  )
  {
    for (int i = 0; i < problem.holderCount(s); i++) {
      final int n = problem.holder(s, i);
      if (!unsuitable[n] && assignment.freeMemory[n] >= problem.size[s] && !assignment.holds(s, n)) {
        return n;
      }
    }
    int to = -1;
    for (int n = 0; n < problem.nodeCount; n++) {
      if (!unsuitable[n]
          && assignment.freeMemory[n] >= problem.size[s]
          && !assignment.holds(s, n)
          && (to < 0
              || (assignment.nodeSegments[n] + 1) * weight[to] < (assignment.nodeSegments[to] + 1) * weight[n])) {
        to = n;
      }
    }
    return to;
  }

  /**
   * The nodes whose capacity is below {@link #STRAGGLER_SHARE} of the median capacity of the nodes that have any (a
   * node of capacity 0, one that is draining, is below it too); none while fewer than three nodes have capacity, where
   * a median says little. The planning round's {@code PlanKeeper} asks too, so that a plan it keeps leaves no segment
   * on stragglers alone either.
   */
  public static boolean[] stragglers(double[] capacity)
  {
    final boolean[] straggler = new boolean[capacity.length];
    final double[] positive = Arrays.stream(capacity).filter(c -> c > 0).sorted().toArray();
    if (positive.length < 3) {
      return straggler;
    }
    final double median = positive.length % 2 == 1
                          ? positive[positive.length / 2]
                          : (positive[positive.length / 2 - 1] + positive[positive.length / 2]) / 2;
    for (int n = 0; n < capacity.length; n++) {
      straggler[n] = capacity[n] < STRAGGLER_SHARE * median;
    }
    return straggler;
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
