package org.getafix.core.placement;

import it.unimi.dsi.fastutil.ints.IntBidirectionalIterator;
import it.unimi.dsi.fastutil.ints.IntRBTreeSet;

/**
 * Scarlett as Getafix implemented it (thesis §4.1): popularity is the number of concurrent accesses to a segment,
 * which the caller passes as {@link SegmentLoad#load()}; a segment gets one replica per concurrent access
 * (⌈load⌉, clamped into [minReplicas, min(maxReplicas, nodes)]), with no network budget (as in the thesis); replicas
 * are dealt round-robin over the nodes in id order, most accessed segments first, skipping nodes that hold the
 * segment or lack memory. Each replica gets an equal share. Beyond the thesis, the replica floor of every segment is
 * dealt before any extra replica, so that a full cluster never loses a segment to the popular ones' copies.
 */
final class ScarlettStrategy implements PlacementStrategy
{
  @Override
  public String name()
  {
    return "scarlett";
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
    // Two deals: first every segment's floor, then the extra replicas of the popular ones, so that extra replicas
    // never take the memory an unpopular segment's only replica needs.
    int cursor = 0;
    for (boolean extras : new boolean[]{false, true}) {
      for (int s : order) {
        // Concurrent accesses are counts; the tolerance keeps 2.0000000001 (an averaged 2) at 2 replicas.
        final double accesses = Math.ceil(p.load[s] - 1e-9);
        final int wanted = (int) Math.max(minReplicas, Math.min(maxReplicas, Math.min(accesses, p.nodeCount)));
        final int target = extras ? wanted : minReplicas;
        final double share = p.load[s] / wanted;
        while (a.replicaCount[s] < target) {
          final int n = nextNode(a, ring, s, cursor, minSize);
          if (n < 0) {
            a.reportShortfall(s, wanted, ReplicaFloor.shortfallReason(p, a, s, wanted));
            break;
          }
          a.addReplica(s, n, share);
          cursor = n + 1;
        }
      }
    }
    return a.toPlan();
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

  @Override
  public String toString()
  {
    return name();
  }
}
