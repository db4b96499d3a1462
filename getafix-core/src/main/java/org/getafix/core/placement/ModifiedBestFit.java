package org.getafix.core.placement;

import it.unimi.dsi.fastutil.ints.IntBidirectionalIterator;
import it.unimi.dsi.fastutil.ints.IntComparator;
import it.unimi.dsi.fastutil.ints.IntHeapPriorityQueue;
import it.unimi.dsi.fastutil.ints.IntRBTreeSet;

/**
 * Capacity-aware MODIFIEDBESTFIT (thesis Algorithm 3.1; Algorithm 2.1 when all weights are equal).
 *
 * <p>The total segment load is cut into one bin per node, in proportion to the node's weight (its estimated
 * capacity): {@code binCap_i = w_i · ΣC / Σw}. The thesis rounds this up (⌈⌉) because its loads are integer query
 * counts; with real-valued loads the ceiling only adds slack, and on the §2.2 example (12 units over 3 equal nodes)
 * both give 4, so we keep the exact value and compare with a tolerance instead.
 *
 * <p>Segments are taken from a max-heap by remaining load. Each goes whole to the bin whose remaining capacity
 * fits it most tightly; if no bin can take it whole, the bin with the most remaining capacity takes what it can (a
 * split) and the remainder goes back on the heap. That is what keeps replicas few: only a segment larger than every
 * free bin gets an extra replica.
 *
 * <p>Beyond the thesis, each new replica must respect the constraints: a node never holds two replicas of a
 * segment, never more bytes than its memory limit, a segment never more than maxReplicas replicas, and an extra
 * (load-driven) replica may only use memory that is not needed for the replica floor of the other segments (see
 * {@link Reserve}). Load that
 * cannot get a new replica is added to the segment's existing replicas, in proportion to their nodes' weights: the
 * nodes are then over their bin, which is the best available.
 *
 * <p>Cost: a radix sort of the segments, O(log splits) per re-queued remainder and O(log N) per bin choice, with a
 * red-black tree of the nodes keyed by remaining capacity; splits ≤ N + constraint-induced ones, since every split
 * fills a bin.
 */
final class ModifiedBestFit
{
  /**
   * How strictly memory is kept back for the replica floor when the load asks for an extra replica. The floor is
   * placed after the fit, so the fit must not spend the memory it needs; which check suffices depends on how
   * fragmented memory is, so the strategy tries them in order, strictest last, until the floor fits.
   */
  enum Reserve
  {
    /** The free bytes of all nodes together must still cover the bytes of all missing floor replicas. */
    BYTES,
    /**
     * As BYTES, and counting every segment as large as the largest, the free slots must still cover the missing
     * floor replicas: immune to fragmentation, pessimistic when sizes differ a lot.
     */
    SLOTS,
    /** No extra replicas at all: the load of a segment stays on its floor replicas. */
    NO_EXTRAS
  }

  /** Fraction of its memory under which a bin that cannot take a segment is closed; see {@link #usable}. */
  static final double NEARLY_FULL = 0.10;

  private final PlacementProblem p;
  private final Assignment a;
  private final double[] weight;
  private final double[] binRemaining;
  private final double[] remaining;
  private final double epsilon;
  private final long minSizeInFit;
  private final Reserve reserve;
  private final long largestSize;
  private double probe;
  private long floorReserve;
  private long totalFree;
  private long floorReplicasMissing;
  private long freeSlots;
  private boolean madeExtraReplicas;

  /**
   * Runs the fit into {@code assignment}.
   *
   * @param weight per-node weight (capacity, or 1 for Algorithm 2.1); a node with weight 0 gets no load
   * @return whether it made replicas beyond the floor, i.e. whether a stricter reserve could leave more memory
   */
  static boolean run(PlacementProblem problem, Assignment assignment, double[] weight, Reserve reserve)
  {
    final ModifiedBestFit fit = new ModifiedBestFit(problem, assignment, weight, reserve);
    fit.fit();
    return fit.madeExtraReplicas;
  }

  private ModifiedBestFit(PlacementProblem problem, Assignment assignment, double[] weight, Reserve reserve)
  {
    this.p = problem;
    this.a = assignment;
    this.weight = weight;
    this.reserve = reserve;
    this.binRemaining = new double[problem.nodeCount];
    this.remaining = new double[problem.segmentCount];
    double totalLoad = 0;
    long minSize = Long.MAX_VALUE;
    long maxSize = 0;
    for (int s = 0; s < problem.segmentCount; s++) {
      totalLoad += problem.load[s];
      maxSize = Math.max(maxSize, problem.size[s]);
      if (problem.load[s] > 0) {
        minSize = Math.min(minSize, problem.size[s]);
      }
    }
    // Loads below this are rounding residue of the floating-point cuts, not load worth a replica.
    this.epsilon = totalLoad * 1e-9;
    this.minSizeInFit = minSize;
    this.largestSize = maxSize;
    double totalWeight = 0;
    for (int n = 0; n < problem.nodeCount; n++) {
      totalWeight += weight[n];
    }
    for (int n = 0; n < problem.nodeCount; n++) {
      binRemaining[n] = totalWeight > 0 ? weight[n] * totalLoad / totalWeight : 0;
    }
    final int minReplicas = problem.constraints.minReplicas();
    for (int s = 0; s < problem.segmentCount; s++) {
      floorReserve = saturatedAdd(floorReserve, saturatedMultiply(problem.size[s], minReplicas));
    }
    floorReplicasMissing = (long) problem.segmentCount * minReplicas;
    for (int n = 0; n < problem.nodeCount; n++) {
      totalFree = saturatedAdd(totalFree, assignment.freeMemory[n]);
      freeSlots += slots(assignment.freeMemory[n]);
    }
  }

  private void fit()
  {
    if (epsilon <= 0) {
      return;
    }
    // Bins: nodes that can take load and at least the smallest loaded segment, by remaining capacity, then node id.
    // Index -1 stands for the probe value, to search the tree by capacity.
    final IntRBTreeSet bins = new IntRBTreeSet((IntComparator) (x, y) -> {
      final int c = Double.compare(x < 0 ? probe : binRemaining[x], y < 0 ? probe : binRemaining[y]);
      return c != 0 ? c : Integer.compare(x, y);
    });
    for (int n = 0; n < p.nodeCount; n++) {
      if (weight[n] > 0 && a.freeMemory[n] >= minSizeInFit) {
        bins.add(n);
      }
    }
    // The max-heap of the thesis, split in two for speed: the loaded segments sorted once by decreasing load, and a
    // heap for the remainders of split segments only (at most one per bin, plus constraint-induced ones). Taking
    // the larger head of the two yields the heap's order (up to loads equal to ~9 digits, see IndexSort).
    final IntComparator before = (x, y) -> {
      final int c = Double.compare(remaining[y], remaining[x]);
      return c != 0 ? c : p.compareSegments(x, y);
    };
    int loaded = 0;
    final int[] sorted = new int[p.segmentCount];
    for (int s : p.idOrder()) {
      remaining[s] = p.load[s];
      if (p.load[s] > epsilon) {
        sorted[loaded++] = s;
      }
    }
    final long[] byLoad = new long[loaded];
    for (int i = 0; i < loaded; i++) {
      byLoad[i] = IndexSort.descending(p.load[sorted[i]], loaded);
    }
    IndexSort.sortStable(sorted, loaded, byLoad);
    int next = 0;
    final IntHeapPriorityQueue requeued = new IntHeapPriorityQueue(before);
    final int maxReplicas = p.constraints.maxReplicas();
    final int minReplicas = p.constraints.minReplicas();

    while (next < loaded || !requeued.isEmpty()) {
      final int s = requeued.isEmpty() || (next < loaded && before.compare(sorted[next], requeued.firstInt()) < 0)
                    ? sorted[next++]
                    : requeued.dequeueInt();
      final double load = remaining[s];
      if (a.replicaCount[s] >= maxReplicas) {
        spreadOverHolders(bins, s, load);
        continue;
      }
      if (a.replicaCount[s] >= minReplicas && !extraReplicaAllowed(s)) {
        a.reportShortfall(
            s,
            a.replicaCount[s] + 1,
            "its load wanted another replica, but the free memory is needed for other segments' minimum replicas"
        );
        spreadOverHolders(bins, s, load);
        continue;
      }

      final int fit = tightestFit(bins, s, load);
      if (fit >= 0) {
        place(bins, s, fit, load);
        continue;
      }
      final int largest = largestBin(bins, s);
      if (largest >= 0 && binRemaining[largest] > epsilon) {
        final double part = binRemaining[largest];
        place(bins, s, largest, part);
        // No bin fits the load whole, so part < load - epsilon: a real remainder goes back on the heap.
        remaining[s] = load - part;
        requeued.enqueue(s);
        continue;
      }
      // Every bin is full (or unusable for s). Existing replicas absorb the rest; a segment without one gets it on
      // the usable node with the most capacity left, over its bin.
      if (a.replicaCount[s] > 0) {
        spreadOverHolders(bins, s, load);
      } else if (largest >= 0) {
        place(bins, s, largest, load);
      }
      // else: no node with capacity has room for s; the floor phase may still find one with capacity 0.
    }
  }

  /** The usable bin with the least remaining capacity ≥ load, or -1. */
  private int tightestFit(IntRBTreeSet bins, int s, double load)
  {
    probe = load - epsilon;
    final IntBidirectionalIterator it = bins.iterator(-1);
    while (it.hasNext()) {
      final int n = it.nextInt();
      if (usable(it, s, n)) {
        return n;
      }
    }
    return -1;
  }

  /**
   * The usable bin with the most remaining capacity (possibly none left), or -1; among equal capacities the lowest
   * node id, like every other tie. Walks down one capacity level at a time, each level in id order.
   */
  private int largestBin(IntRBTreeSet bins, int s)
  {
    if (bins.isEmpty()) {
      return -1;
    }
    double level = binRemaining[bins.lastInt()];
    while (true) {
      probe = level;
      final IntBidirectionalIterator it = bins.iterator(-1);
      // The probe sorts before every node at its level: next() walks the level in id order, previous() is the
      // greatest node below the level.
      while (it.hasNext()) {
        final int n = it.nextInt();
        if (binRemaining[n] != level) {
          break;
        }
        if (usable(it, s, n)) {
          return n;
        }
      }
      final IntBidirectionalIterator below = bins.iterator(-1);
      if (!below.hasPrevious()) {
        return -1;
      }
      level = binRemaining[below.previousInt()];
    }
  }

  /**
   * Whether memory allows a replica beyond the floor of {@code s}. An extra replica is at most the largest size,
   * so it takes at most one slot.
   */
  private boolean extraReplicaAllowed(int s)
  {
    switch (reserve) {
      case BYTES:
        return totalFree - p.size[s] >= floorReserve;
      case SLOTS:
        return totalFree - p.size[s] >= floorReserve && freeSlots - 1 >= floorReplicasMissing;
      default:
        return false;
    }
  }

  /** Free slots of a node with {@code free} bytes, each slot as large as the largest segment. */
  private long slots(long free)
  {
    return largestSize == 0 ? Integer.MAX_VALUE : free / largestSize;
  }

  /**
   * Whether bin {@code n} (at the iterator's position) may take a replica of {@code s}. A bin too full for s that
   * has less than {@link #NEARLY_FULL} of its memory left is closed for the rest of the fit (removed through the
   * iterator): best fit packs the many small tail segments into the same few bins, whose memory then runs out while
   * their load capacity does not, and re-skipping them for every later segment would cost O(N) per segment. What
   * load such a bin cannot take goes to the others; the floor and the balancer may still use its last bytes.
   */
  private boolean usable(IntBidirectionalIterator it, int s, int n)
  {
    if (!a.fits(s, n)) {
      if (a.freeMemory[n] < p.maxSize[n] * NEARLY_FULL) {
        it.remove();
      }
      return false;
    }
    return !a.holds(s, n);
  }

  private void place(IntRBTreeSet bins, int s, int n, double load)
  {
    bins.remove(n);
    if (a.replicaCount[s] < p.constraints.minReplicas()) {
      floorReserve -= p.size[s];
      floorReplicasMissing--;
    } else {
      madeExtraReplicas = true;
    }
    totalFree -= p.size[s];
    freeSlots -= slots(a.freeMemory[n]);
    a.addReplica(s, n, load);
    freeSlots += slots(a.freeMemory[n]);
    binRemaining[n] -= load;
    if (a.freeMemory[n] >= minSizeInFit) {
      bins.add(n);
    }
  }

  private void addToReplica(IntRBTreeSet bins, int r, double load)
  {
    final int n = a.repNode[r];
    final boolean wasBin = bins.remove(n);
    a.addLoad(r, load);
    binRemaining[n] -= load;
    if (wasBin) {
      bins.add(n);
    }
  }

  /** Adds {@code load} to the replicas of {@code s}, in proportion to their nodes' weights (evenly if all are 0). */
  private void spreadOverHolders(IntRBTreeSet bins, int s, double load)
  {
    double holderWeight = 0;
    for (int r = a.firstReplica(s); r >= 0; r = a.nextReplica(r)) {
      holderWeight += weight[a.repNode[r]];
    }
    for (int r = a.firstReplica(s); r >= 0; r = a.nextReplica(r)) {
      final double part = holderWeight > 0
                          ? load * weight[a.repNode[r]] / holderWeight
                          : load / a.replicaCount[s];
      addToReplica(bins, r, part);
    }
  }

  private static long saturatedAdd(long x, long y)
  {
    final long r = x + y;
    return ((x ^ r) & (y ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  private static long saturatedMultiply(long x, int y)
  {
    final long hi = Math.multiplyHigh(x, y);
    final long lo = x * y;
    return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
  }
}
