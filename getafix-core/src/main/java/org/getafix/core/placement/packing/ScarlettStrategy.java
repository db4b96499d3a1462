package org.getafix.core.placement.packing;

import it.unimi.dsi.fastutil.ints.IntBidirectionalIterator;
import it.unimi.dsi.fastutil.ints.IntRBTreeSet;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.SegmentLoad;

/**
 * Scarlett as Getafix implemented it (thesis §4.1): popularity is the number of concurrent accesses to a segment,
 * which the caller passes as {@link SegmentLoad#load()}; a segment gets one replica per concurrent access, but never
 * fewer than the base replication: max(base, ⌈load⌉), clamped to maxReplicas and the node count, and at least
 * minReplicas. No network budget (as in the thesis); replicas are dealt round-robin over the nodes in id order, most
 * accessed segments first, skipping nodes that hold the segment or lack memory; a node that holds the segment now
 * keeps its replica. Each replica gets an equal share.
 *
 * <p>The base is the storage system's default replication factor: Scarlett (Ananthanarayanan et al., "Scarlett:
 * Coping with Skewed Content Popularity in MapReduce Clusters", EuroSys'11) only ever raises a popular file's
 * replication above HDFS's default of 3 and never lowers any file below it. Getafix is compared with Druid, whose
 * default is 2, so that is the base the strategy registry gives it.
 *
 * <p>Beyond the thesis, replicas are dealt in three rounds: every segment's floor (minReplicas), then its base, then
 * the extra replicas of the popular ones, so that a full cluster never loses a segment, nor a segment its base
 * replicas, to the popular ones' copies.
 */
public record ScarlettStrategy(int baseReplication) implements PlacementStrategy
{
  /** @throws IllegalArgumentException if baseReplication is below 1 */
  public ScarlettStrategy
  {
    if (baseReplication < 1) {
      throw new IllegalArgumentException("baseReplication must be >= 1, got [" + baseReplication + "]");
    }
  }

  @Override
  public PlacementPlan plan(PlacementInput input)
  {
    final PlacementProblem p = new PlacementProblem(input);
    final Assignment a = new Assignment(p);
    final int minReplicas = p.constraints.minReplicas();
    final int maxReplicas = p.constraints.maxReplicas();

    final int[] order = p.idOrder().clone();
    long minSize = Long.MAX_VALUE;
    final long[] byLoad = new long[p.segmentCount];
    for (int i = 0; i < p.segmentCount; i++) {
      minSize = Math.min(minSize, p.size[order[i]]);
      byLoad[i] = IndexSort.descending(p.load[order[i]], p.segmentCount);
    }
    IndexSort.sortStable(order, p.segmentCount, byLoad);
    // Nodes that can still take the smallest segment, in id order; the round-robin cursor walks them cyclically.
    final IntRBTreeSet ring = new IntRBTreeSet();
    for (int n = 0; n < p.nodeCount; n++) {
      if (a.freeMemory[n] >= minSize) {
        ring.add(n);
      }
    }
    // Three deals: every segment's floor, then its base, then the extra replicas of the popular ones, so that the
    // copies of popular segments never take the memory an unpopular segment's floor or base replicas need.
    int cursor = 0;
    for (int deal = 0; deal < 3; deal++) {
      for (int s : order) {
        // Concurrent accesses are counts; the tolerance keeps 2.0000000001 (an averaged 2) at 2 replicas.
        final double accesses = Math.max(baseReplication, Math.ceil(p.load[s] - 1e-9));
        final int wanted = (int) Math.max(minReplicas, Math.min(maxReplicas, Math.min(accesses, p.nodeCount)));
        final int target = deal == 0 ? Math.min(wanted, minReplicas)
                                     : deal == 1 ? Math.min(wanted, Math.max(minReplicas, baseReplication)) : wanted;
        final double share = p.load[s] / wanted;
        while (a.replicaCount(s) < target) {
          int n = currentHolder(p, a, s);
          if (n < 0) {
            n = nextNode(a, ring, s, cursor, minSize);
            if (n < 0) {
              a.reportShortfall(s, wanted, ReplicaFloor.shortfallReason(p, a, s, a.replicaCount(s), wanted));
              break;
            }
            cursor = n + 1;
          }
          a.addReplica(s, n, share);
        }
      }
    }
    return a.toPlan();
  }

  /**
   * A node that holds {@code s} now and can take a replica of it, or -1. Like the Getafix strategies (and Druid,
   * which only adds or drops replicas), Scarlett keeps replicas where they are and deals only the new ones: dealing
   * everything afresh every round would move most replicas each round, a cost no real deployment pays.
   */
  private static int currentHolder(PlacementProblem p, Assignment a, int s)
  {
    final int holders = p.holderCount(s);
    for (int i = 0; i < holders; i++) {
      final int n = p.holder(s, i);
      if (a.fits(s, n) && !a.holds(s, n)) {
        return n;
      }
    }
    return -1;
  }

  /** The first node at or after {@code cursor} (cyclically) that can take {@code s}, or -1. */
  private static int nextNode(Assignment a, IntRBTreeSet ring, int s, int cursor, long minSize)
  {
    int visited = 0;
    final int size = ring.size();
    IntBidirectionalIterator it = ring.iterator(cursor - 1);
    while (visited < size) {
      if (!it.hasNext()) {
        it = ring.iterator();
        if (!it.hasNext()) {
          return -1;
        }
      }
      final int n = it.nextInt();
      visited++;
      if (a.freeMemory[n] < minSize) {
        it.remove();
      } else if (a.fits(s, n) && !a.holds(s, n)) {
        return n;
      }
    }
    return -1;
  }
}
