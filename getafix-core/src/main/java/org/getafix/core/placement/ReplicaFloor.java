package org.getafix.core.placement;

import it.unimi.dsi.fastutil.ints.IntBidirectionalIterator;
import it.unimi.dsi.fastutil.ints.IntComparator;
import it.unimi.dsi.fastutil.ints.IntRBTreeSet;

/**
 * Tops every segment up to a replica target with replicas that carry no query load: the replica floor of the
 * Getafix strategies (so that an unpopular segment stays loaded), and the whole of Druid's uniform replication.
 *
 * <p>Each replica goes to the node with the fewest segments, then the most free memory, then the lowest id, among
 * nodes that do not hold the segment and have room for it. With {@code preferCurrentHolders}, a node that holds the
 * segment now is taken first if it is not above the even share of segments, so that a stable workload does not
 * shuffle cold segments around every round.
 *
 * <p>Segments are handled smallest first: a node too full for one segment is then too full for every later one and
 * leaves the candidate tree for good, so memory-full nodes cost O(N log N) in total, not per segment. Cost: a radix
 * sort for the order plus O(log N) per replica.
 */
final class ReplicaFloor
{
  private ReplicaFloor()
  {
  }

  static void run(PlacementProblem p, Assignment a, int target, boolean preferCurrentHolders)
  {
    final int[] needy = new int[p.segmentCount];
    int count = 0;
    long missing = 0;
    for (int s : p.idOrder()) {
      if (a.replicaCount[s] < target) {
        needy[count++] = s;
        missing += target - a.replicaCount[s];
      }
    }
    if (count == 0) {
      return;
    }
    final long[] bySize = new long[count];
    for (int i = 0; i < count; i++) {
      bySize[i] = IndexSort.clamped(p.size[needy[i]], count);
    }
    IndexSort.sortStable(needy, count, bySize);
    // Sizes beyond the sort key's width (terabytes) tie, so only bytes below it prove a node too full for the rest.
    final long sortedSizeLimit = IndexSort.clamped(Long.MAX_VALUE, count);
    final long evenShare = p.nodeCount == 0 ? 0 : (a.replicaTotal + missing + p.nodeCount - 1) / p.nodeCount;

    final Candidates candidates = new Candidates(a);
    for (int n = 0; n < p.nodeCount; n++) {
      if (a.freeMemory[n] >= p.size[needy[0]]) {
        candidates.tree.add(n);
      }
    }

    for (int i = 0; i < count; i++) {
      final int s = needy[i];
      while (a.replicaCount[s] < target) {
        int n = preferCurrentHolders ? currentHolderWithRoom(p, a, s, evenShare) : -1;
        if (n >= 0) {
          // Left in the tree at its old position; see Candidates.
          a.addReplica(s, n, 0);
          continue;
        }
        n = leastLoaded(a, candidates, s, sortedSizeLimit);
        if (n < 0) {
          a.reportShortfall(s, target, shortfallReason(p, a, s, target));
          break;
        }
        candidates.tree.remove(n);
        a.addReplica(s, n, 0);
        candidates.snapshot(n);
        if (a.freeMemory[n] >= Math.min(p.size[s], sortedSizeLimit)) {
          candidates.tree.add(n);
        }
      }
    }
  }

  /**
   * The nodes by segment count, then most free memory, then id, for the least-loaded choice, over a snapshot of
   * those keys. A replica kept on a current holder does not update the tree: most replicas of a steady cluster stay
   * where they are, and each would otherwise cost two tree updates. A node's keys only grow (more segments, less
   * memory), so a stale node sits too early in the tree, and {@link #leastLoaded} re-files it when it gets there;
   * the choice is the same as with an always up-to-date tree.
   */
  private static final class Candidates
  {
    private final Assignment a;
    private final int[] segments;
    private final long[] free;
    final IntRBTreeSet tree;

    Candidates(Assignment a)
    {
      this.a = a;
      this.segments = a.nodeSegments.clone();
      this.free = a.freeMemory.clone();
      this.tree = new IntRBTreeSet((IntComparator) (x, y) -> {
        int c = Integer.compare(segments[x], segments[y]);
        if (c == 0) {
          c = Long.compare(free[y], free[x]);
        }
        return c != 0 ? c : Integer.compare(x, y);
      });
    }

    boolean stale(int n)
    {
      return segments[n] != a.nodeSegments[n] || free[n] != a.freeMemory[n];
    }

    /** Takes node {@code n}'s current keys; it must not be in the tree meanwhile. */
    void snapshot(int n)
    {
      segments[n] = a.nodeSegments[n];
      free[n] = a.freeMemory[n];
    }
  }

  private static int currentHolderWithRoom(PlacementProblem p, Assignment a, int s, long evenShare)
  {
    final int holders = p.holderCount(s);
    for (int i = 0; i < holders; i++) {
      final int n = p.holder(s, i);
      if (a.nodeSegments[n] < evenShare && a.fits(s, n) && !a.holds(s, n)) {
        return n;
      }
    }
    return -1;
  }

  private static int leastLoaded(Assignment a, Candidates candidates, int s, long sortedSizeLimit)
  {
    IntBidirectionalIterator it = candidates.tree.iterator();
    while (it.hasNext()) {
      final int n = it.nextInt();
      if (candidates.stale(n)) {
        candidates.tree.remove(n);
        candidates.snapshot(n);
        candidates.tree.add(n);
        // It moved further on; the nodes before it were refused already, but the walk restarts to stay simple.
        it = candidates.tree.iterator();
      } else if (!a.fits(s, n)) {
        if (a.freeMemory[n] < Math.min(a.problem.size[s], sortedSizeLimit)) {
          // Segments come smallest first: no later segment fits here either.
          it.remove();
        }
      } else if (!a.holds(s, n)) {
        return n;
      }
    }
    return -1;
  }

  /** Why {@code s} cannot get more replicas: too few nodes, too little memory, or both. */
  static String shortfallReason(PlacementProblem p, Assignment a, int s, int target)
  {
    final boolean memory = a.replicaCount[s] < Math.min(target, p.nodeCount);
    final String nodes = "only " + p.nodeCount + " nodes for " + target + " replicas";
    if (!memory) {
      return nodes;
    }
    a.memoryShortfall = true;
    final String bytes = "no node without a replica of it has " + p.size[s] + " bytes free";
    return p.nodeCount < target ? bytes + "; " + nodes : bytes;
  }
}
