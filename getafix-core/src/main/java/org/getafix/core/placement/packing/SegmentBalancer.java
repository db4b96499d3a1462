package org.getafix.core.placement.packing;

import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.ints.IntBidirectionalIterator;
import it.unimi.dsi.fastutil.ints.IntComparator;
import it.unimi.dsi.fastutil.ints.IntRBTreeSet;

import java.util.Arrays;

/**
 * The segment balancer (thesis §3.2): evens out segment counts (and so memory) after the fit, as long as query load
 * stays balanced within γ.
 *
 * <p>Every node above the average segment count (rounded up, plus {@link ModifiedBestFit#HOLD_SLACK} of it as
 * hysteresis) gives up its k least popular replicas, k being its excess over that. The re-assign list is sorted by increasing replica query load (routing share × segment load;
 * equal loads alternate between the source nodes), and each replica moves, with its share, to the node with the fewest segments that does not hold the segment, has
 * memory for it, and keeps the query-load imbalance 1 − min/max ≤ γ. A target must stay at or below the average
 * after the move, so the balancer never creates a new over-full node.
 *
 * <p>Query load of a node is measured relative to its capacity, load/capacity (utilisation), not in absolute terms:
 * on heterogeneous nodes the fit gives a strong node several times the load of a weak one on purpose, so the absolute
 * imbalance would be far above any γ from the start and block every move, while the relative one is ≈ 0 after the
 * fit and grows only when a move really unbalances the nodes. With uniform capacities the two are the same. Nodes
 * with capacity 0 carry no load and are left out of the imbalance; they may only take replicas without load. If the
 * imbalance is above γ already, a move is still accepted if it does not make it worse.
 *
 * <p>Beyond the thesis, the balancer avoids moving data: among the replicas of an over-full node it gives up first
 * those the node does not hold now (the fit put them there this round, so they are loads whatever their target),
 * and a replica goes back to a node that holds its segment now whenever that node qualifies as a target. A replica
 * the balancer moved in the last round is then left where it went.
 *
 * <p>γ = 0 disables balancing (thesis §4.4: "γ = 0% implies no balancing"). Cost: O(R log R) to choose and sort
 * the re-assign list and O(log N) per examined target; at most {@link #MAX_TARGETS_EXAMINED} targets are examined per
 * replica, so the balancer is never O(S·N).
 */
final class SegmentBalancer
{
  /**
   * Bound on targets tried per replica. The targets are tried fewest-segments first and most replicas on the list
   * carry no load (any target takes them), so a replica that 64 targets refuse is one whose load no light node can
   * take within γ.
   */
  static final int MAX_TARGETS_EXAMINED = 64;

  private final PlacementProblem p;
  private final Assignment a;
  private final double[] weight;
  private final double gamma;
  private final IntRBTreeSet bySegments;
  private final IntRBTreeSet byRelativeLoad;
  /**
   * Sources whose load-carrying replicas no target would take within γ. The re-assign list comes in increasing
   * load, so a later replica of such a source would move more load off it and be refused too: skipping them keeps
   * the cost of a saturated balancer at O(1) per replica instead of {@link #MAX_TARGETS_EXAMINED} imbalance checks.
   */
  private final boolean[] saturated;

  private SegmentBalancer(PlacementProblem p, Assignment a, double[] weight, double gamma)
  {
    this.p = p;
    this.a = a;
    this.weight = weight;
    this.gamma = gamma;
    this.saturated = new boolean[p.nodeCount];
    this.bySegments = new IntRBTreeSet((IntComparator) (x, y) -> {
      final int c = Integer.compare(a.nodeSegments[x], a.nodeSegments[y]);
      return c != 0 ? c : Integer.compare(x, y);
    });
    this.byRelativeLoad = new IntRBTreeSet((IntComparator) (x, y) -> {
      final int c = Double.compare(relativeLoad(x), relativeLoad(y));
      return c != 0 ? c : Integer.compare(x, y);
    });
  }

  /** @param weight per-node capacity the query load is normalised by */
  static void run(PlacementProblem p, Assignment a, double[] weight, double gamma)
  {
    if (gamma <= 0 || p.nodeCount < 2 || a.replicaTotal == 0) {
      return;
    }
    new SegmentBalancer(p, a, weight, gamma).balance();
  }

  private double relativeLoad(int n)
  {
    return a.nodeLoad[n] / weight[n];
  }

  private void balance()
  {
    final int evenShare = (int) ((a.replicaTotal + (long) p.nodeCount - 1) / p.nodeCount);
    // Hysteresis, as in the fit: a node gives up replicas only above the even share plus the fit's slack, so the
    // balancer does not shuffle replicas every round to correct a count that the next round's noise undoes.
    final int tolerated = evenShare + (int) (ModifiedBestFit.HOLD_SLACK * evenShare);
    final int[] reassign = reassignList(tolerated);
    if (reassign.length == 0) {
      return;
    }
    for (int n = 0; n < p.nodeCount; n++) {
      bySegments.add(n);
      if (weight[n] > 0) {
        byRelativeLoad.add(n);
      }
    }
    long roomiest = roomiestExamined(evenShare);
    for (int r : reassign) {
      final int from = a.repNode[r];
      if (a.nodeSegments[from] <= tolerated || (saturated[from] && a.repLoad[r] > 0)) {
        continue;
      }
      final int to = target(r, evenShare, roomiest);
      if (to >= 0) {
        bySegments.remove(from);
        bySegments.remove(to);
        byRelativeLoad.remove(from);
        byRelativeLoad.remove(to);
        a.move(r, to);
        bySegments.add(from);
        bySegments.add(to);
        if (weight[from] > 0) {
          byRelativeLoad.add(from);
        }
        if (weight[to] > 0) {
          byRelativeLoad.add(to);
        }
        roomiest = roomiestExamined(evenShare);
      }
    }
  }

  /**
   * The k least popular replicas of every node with k = its excess over {@code tolerated} (ties by segment id), those
   * the node does not hold now first,
   * sorted by increasing query load; equal loads alternate between the source nodes (by rank within the node, then
   * node id), so that the sources take turns: moving one node's whole excess first would use up γ on it and leave
   * the next over-full node as it was.
   */
  private int[] reassignList(int tolerated)
  {
    final int[] start = new int[p.nodeCount + 1];
    final int[] excess = new int[p.nodeCount];
    long total = 0;
    for (int n = 0; n < p.nodeCount; n++) {
      excess[n] = Math.max(0, a.nodeSegments[n] - tolerated);
      start[n + 1] = start[n] + (excess[n] > 0 ? a.nodeSegments[n] : 0);
      total += excess[n];
    }
    if (total == 0) {
      return IntArrays.EMPTY_ARRAY;
    }
    // Collect the replicas of over-full nodes walking segments in their numbering, which reads the per-segment
    // arrays front to back (id order would read them at random), and take on the way all that is read per segment
    // later: each replica's node, its popularity key (flagged if the node holds the segment now) and its id rank.
    final int entries = start[p.nodeCount];
    final int[] entryReplica = new int[entries];
    final int[] entryNode = new int[entries];
    final long[] entryPopularity = new long[entries];
    final long[] byId = new long[entries];
    int e = 0;
    for (int s = 0; s < p.segmentCount; s++) {
      for (int r = a.firstReplica(s); r >= 0; r = a.nextReplica(r)) {
        final int n = a.repNode[r];
        if (excess[n] > 0) {
          final int held = start[n + 1] - start[n];
          entryReplica[e] = r;
          entryNode[e] = n;
          // One bit of precision less for the flag; popularity keeps ~31 bits, plenty to rank replicas.
          entryPopularity[e] = (IndexSort.ascending(p.load[s], held) >>> 1)
                               | (p.holdsNow(s, n) ? 1L << (IndexSort.keyBits(held) - 1) : 0);
          byId[e] = IndexSort.withRank(p.idRank(s), e, entries);
          e++;
        }
      }
    }
    // Sort them by id rank (one radix sort; a segment's replicas keep the walk's order), then bucket them by node
    // (counting sort) so that each bucket is in id order, then stably sort each bucket by popularity: ties in
    // popularity are broken by id.
    IndexSort.sort(byId, entries);
    final int[] byNode = new int[entries];
    final long[] byNodePopularity = new long[entries];
    final int[] fill = start.clone();
    for (int i = 0; i < entries; i++) {
      final int k = IndexSort.rank(byId[i], entries);
      final int at = fill[entryNode[k]]++;
      byNode[at] = entryReplica[k];
      byNodePopularity[at] = entryPopularity[k];
    }
    for (int n = 0; n < p.nodeCount; n++) {
      if (excess[n] > 0) {
        final int held = start[n + 1] - start[n];
        final int[] replicas = Arrays.copyOfRange(byNode, start[n], start[n + 1]);
        IndexSort.sortStable(replicas, held, Arrays.copyOfRange(byNodePopularity, start[n], start[n + 1]));
        System.arraycopy(replicas, 0, byNode, start[n], held);
      }
    }
    // Lay the picks out by (rank within node, node), then stably sort by query load.
    final int[] reassign = new int[(int) total];
    final int[] active = new int[p.nodeCount];
    int activeCount = 0;
    for (int n = 0; n < p.nodeCount; n++) {
      if (excess[n] > 0) {
        active[activeCount++] = n;
      }
    }
    int k = 0;
    for (int rank = 0; activeCount > 0; rank++) {
      int kept = 0;
      for (int i = 0; i < activeCount; i++) {
        final int n = active[i];
        reassign[k++] = byNode[start[n] + rank];
        if (rank + 1 < excess[n]) {
          active[kept++] = n;
        }
      }
      activeCount = kept;
    }
    final long[] byLoad = new long[reassign.length];
    for (int i = 0; i < reassign.length; i++) {
      byLoad[i] = IndexSort.ascending(a.repLoad[reassign[i]], reassign.length);
    }
    IndexSort.sortStable(reassign, reassign.length, byLoad);
    return reassign;
  }

  /**
   * The most free memory among the nodes {@link #target} examines after the current holders: the first
   * {@link #MAX_TARGETS_EXAMINED} by segment count, as far as they are below the even share. Those are the nodes with
   * the fewest segments, on a tiered cluster the small ones, which are often out of memory already: a replica
   * larger than this is refused by all of them, and knowing that saves examining them for each of the (a hundred
   * thousand and more) replicas on the list. Changes only when a replica moves.
   */
  private long roomiestExamined(int evenShare)
  {
    long roomiest = -1;
    final IntBidirectionalIterator it = bySegments.iterator();
    for (int examined = 0; examined < MAX_TARGETS_EXAMINED && it.hasNext(); examined++) {
      final int n = it.nextInt();
      if (a.nodeSegments[n] + 1 > evenShare) {
        break;
      }
      roomiest = Math.max(roomiest, a.freeMemory[n]);
    }
    return roomiest;
  }

  /**
   * A node that holds the segment of replica {@code r} now and may take it back, else the node with the fewest
   * segments that may take it, or -1; {@code roomiest} is {@link #roomiestExamined}.
   */
  private int target(int r, int evenShare, long roomiest)
  {
    final int s = a.repSegment[r];
    final double before = a.repLoad[r] > 0 ? imbalance(-1, 0, -1, 0) : 0;
    final int holders = p.holderCount(s);
    for (int i = 0; i < holders; i++) {
      final int to = p.holder(s, i);
      if (a.nodeSegments[to] + 1 <= evenShare && accepts(r, to, before) == Verdict.YES) {
        return to;
      }
    }
    if (p.size[s] > roomiest) {
      // Every node below would refuse it for memory (not for imbalance, so the source is not saturated either).
      return -1;
    }
    boolean refusedForImbalance = false;
    final IntBidirectionalIterator it = bySegments.iterator();
    for (int examined = 0; examined < MAX_TARGETS_EXAMINED && it.hasNext(); examined++) {
      final int to = it.nextInt();
      if (a.nodeSegments[to] + 1 > evenShare) {
        // Sorted by segment count: every later node is at the even share already.
        break;
      }
      final Verdict verdict = accepts(r, to, before);
      if (verdict == Verdict.YES) {
        return to;
      }
      refusedForImbalance |= verdict == Verdict.IMBALANCE;
    }
    if (refusedForImbalance) {
      saturated[a.repNode[r]] = true;
    }
    return -1;
  }

  private enum Verdict
  {
    YES,
    /** Not this node: it holds the segment, lacks memory, or has no capacity for a replica with load. */
    NO,
    /** Not this node: the move would push the query-load imbalance above γ. */
    IMBALANCE
  }

  /** Whether node {@code to} may take replica {@code r}, given the imbalance {@code before} the move. */
  private Verdict accepts(int r, int to, double before)
  {
    final int s = a.repSegment[r];
    final int from = a.repNode[r];
    final double load = a.repLoad[r];
    if (to == from || !a.fits(s, to) || a.holds(s, to)) {
      return Verdict.NO;
    }
    if (load <= 0) {
      return Verdict.YES;
    }
    if (weight[to] <= 0) {
      return Verdict.NO;
    }
    final double after = imbalance(from, -load, to, load);
    return after <= gamma + 1e-12 || after <= before ? Verdict.YES : Verdict.IMBALANCE;
  }

  /**
   * 1 − min/max of the nodes' relative load, with {@code deltaX} added to node x's load and {@code deltaY} to y's
   * (x, y = -1 for none). Only the two changed nodes and the extremes of the tree are looked at: O(1) steps of a
   * tree iterator.
   */
  private double imbalance(int x, double deltaX, int y, double deltaY)
  {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    if (x >= 0 && weight[x] > 0) {
      final double u = (a.nodeLoad[x] + deltaX) / weight[x];
      min = Math.min(min, u);
      max = Math.max(max, u);
    }
    if (y >= 0 && weight[y] > 0) {
      final double u = (a.nodeLoad[y] + deltaY) / weight[y];
      min = Math.min(min, u);
      max = Math.max(max, u);
    }
    if (!byRelativeLoad.isEmpty()) {
      min = Math.min(min, extreme(true, x, y));
      max = Math.max(max, extreme(false, x, y));
    }
    if (!(max > 0)) {
      return 0;
    }
    return 1 - Math.max(0, min) / max;
  }

  /** The lowest (or highest) relative load among nodes other than x and y; the tree's ends are O(1) to reach. */
  private double extreme(boolean lowest, int x, int y)
  {
    final int end = lowest ? byRelativeLoad.firstInt() : byRelativeLoad.lastInt();
    if (end != x && end != y) {
      return relativeLoad(end);
    }
    final IntBidirectionalIterator it = byRelativeLoad.iterator(end);
    while (lowest ? it.hasNext() : it.hasPrevious()) {
      final int n = lowest ? it.nextInt() : it.previousInt();
      if (n != x && n != y && n != end) {
        return relativeLoad(n);
      }
    }
    return lowest ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
  }
}
