package org.getafix.core.placement.packing;

import it.unimi.dsi.fastutil.ints.IntBidirectionalIterator;
import it.unimi.dsi.fastutil.ints.IntComparator;
import it.unimi.dsi.fastutil.ints.IntHeapPriorityQueue;
import it.unimi.dsi.fastutil.ints.IntRBTreeSet;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;

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
 * <p>Beyond the thesis, with {@link SplitPolicy#EVEN} a segment larger than every free bin (a hot one) is split in
 * equal parts, and the remainder of a split goes where its routed share fits (see {@link #splitEvenly}), because
 * Brokers route a segment's queries evenly over its holders whatever the plan's shares say.
 *
 * <p>Beyond the thesis, each new replica must respect the constraints: a node never holds two replicas of a
 * segment, never more bytes than its memory limit, a segment never more than maxReplicas replicas, and an extra
 * (load-driven) replica may only use memory that is not needed for the replica floor of the other segments (see
 * {@link Reserve}). Load that
 * cannot get a new replica is added to the segment's existing replicas, in proportion to their nodes' weights: the
 * nodes are then over their bin, which is the best available.
 *
 * <p>Beyond the thesis too, the fit is sticky (see {@link #keep}): run from scratch every round, best fit sends a
 * mid-popularity segment to whichever bin happens to have the tightest room after the segments before it, which
 * shifts with every small change of popularity, so a third of the replicas moved every round and the cluster, busy
 * loading, lagged the plan. So the segments are first given, most popular first, to the bins of the nodes that hold
 * them now, as far as those bins go; only what does not fit there is then packed by the fit proper. Bins keep
 * their capacity-proportional size, so node loads, tiering and straggler avoidance are those of the plain fit, up
 * to the hysteresis: a node may carry up to {@link #HOLD_SLACK} more than its bin, and may be short of it by what
 * its segments lost in popularity until load moves in (new segments, or segments that must move anyway). A
 * negligible segment (see {@link #NEGLIGIBLE_NODE_LOAD_SHARE}) stays even on a full bin, within a wider bound.
 *
 * <p>Cost: the segments come sorted ({@link PlacementProblem}); O(log splits) per re-queued remainder and O(log N)
 * per bin choice, with a red-black tree of the nodes keyed by remaining capacity (see {@link Bins}); splits ≤ N +
 * constraint-induced ones, since every split fills a bin. A segment the sticky pass keeps costs O(1).
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

  /**
   * Hysteresis of the sticky pass, as a fraction of a bin: a segment stays whole on a node that holds it if it
   * overflows the node's bin by at most this much, and a node that holds a popular segment keeps a part of it only
   * if its bin has more than this much room left. Popularity is a noisy moving average; without a margin a segment
   * that grew by a hair would move (or grow a sliver replica), though its node's load would change by less than
   * the noise.
   */
  static final double HOLD_SLACK = 0.05;

  /**
   * A segment that draws at most this share of a mean node's load is negligible for placement: moving it changes a
   * node's load by less than the popularity estimate's noise, yet costs a load and a drop. The coldest segments of a
   * skewed workload are the last the sticky pass offers to their holders, when the bins are nearly full, so the noise
   * in the hotter segments' loads decided each round which of them fitted: on the live 3-Historical cluster 28 of 100
   * segments changed holders in a minute of a steady workload (74 loads). Such a segment stays on its holder as long
   * as the holder's bin overflows by no more than {@link #NEGLIGIBLE_OVERFLOW}. Below the default
   * {@link PlacementConstraints#hotMinNodeLoadShare}, so that by default no segment is both hot and negligible.
   */
  static final double NEGLIGIBLE_NODE_LOAD_SHARE = 0.03;

  /**
   * How far the negligible segments kept on a node may overflow its bin, as a fraction of the bin. Bounded so that a
   * node whose capacity drops (a straggler) still sheds its cold segments beyond twice its new bin, as it would if they
   * were all equally popular.
   */
  static final double NEGLIGIBLE_OVERFLOW = 1.0;

  private final PlacementProblem p;
  private final Assignment a;
  private final double[] weight;
  private final double[] binCapacity;
  private final double[] binRemaining;
  private final double[] remaining;
  private final double epsilon;
  /** The load at or below which a segment is negligible ({@link #NEGLIGIBLE_NODE_LOAD_SHARE}). */
  private final double negligibleLoad;
  private final long minSizeInFit;
  private final Reserve reserve;
  private final SplitPolicy split;
  private final long largestSize;
  private final Bins bins;
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
  static boolean run(
      PlacementProblem problem,
      Assignment assignment,
      double[] weight,
      Reserve reserve,
      SplitPolicy split
  )
  {
    final ModifiedBestFit fit = new ModifiedBestFit(problem, assignment, weight, reserve, split);
    fit.fit();
    return fit.madeExtraReplicas;
  }

  private ModifiedBestFit(
      PlacementProblem problem,
      Assignment assignment,
      double[] weight,
      Reserve reserve,
      SplitPolicy split
  )
  {
    this.p = problem;
    this.a = assignment;
    this.weight = weight;
    this.reserve = reserve;
    this.split = split;
    this.binCapacity = new double[problem.nodeCount];
    this.binRemaining = new double[problem.nodeCount];
    this.remaining = problem.load.clone();
    final double totalLoad = problem.totalLoad;
    long minSize = Long.MAX_VALUE;
    long maxSize = 0;
    for (int s = 0; s < problem.segmentCount; s++) {
      maxSize = Math.max(maxSize, problem.size[s]);
      if (problem.load[s] > 0) {
        minSize = Math.min(minSize, problem.size[s]);
      }
    }
    this.epsilon = problem.loadEpsilon;
    this.negligibleLoad = problem.nodeCount == 0 ? 0 : NEGLIGIBLE_NODE_LOAD_SHARE * totalLoad / problem.nodeCount;
    this.minSizeInFit = minSize;
    this.largestSize = maxSize;
    double totalWeight = 0;
    for (int n = 0; n < problem.nodeCount; n++) {
      totalWeight += weight[n];
    }
    for (int n = 0; n < problem.nodeCount; n++) {
      binCapacity[n] = totalWeight > 0 ? weight[n] * totalLoad / totalWeight : 0;
      binRemaining[n] = binCapacity[n];
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
    this.bins = new Bins();
  }

  private void fit()
  {
    if (epsilon <= 0) {
      return;
    }
    bins.reset();
    // The max-heap of the thesis, split in two for speed: the loaded segments, which the problem numbers in
    // decreasing load, and a heap for the remainders of split segments only (at most one per bin, plus
    // constraint-induced ones). Taking the larger head of the two yields the heap's order (up to loads equal to
    // ~9 digits, see IndexSort).
    final int loaded = p.loadedCount;
    final int[] sorted = new int[loaded];
    for (int s = 0; s < loaded; s++) {
      sorted[s] = s;
    }

    // The sticky pass, then the fit proper for the segments it left, still in decreasing load order.
    final int left = pack(sorted, loaded, true);
    shareOverflow();
    pack(sorted, left, false);
  }

  /**
   * The sticky pass lets nodes overflow their bins by up to the slack, so the room left for the fit proper exceeds
   * the load left by the total overflow. Best fit would fill the tightest rooms and leave that surplus as one hole,
   * on whichever node happens to have the most room; taking the overflow off every bin in proportion to its size
   * instead leaves the nodes that receive the moving segments short by the same small fraction.
   */
  private void shareOverflow()
  {
    double overflow = 0;
    double total = 0;
    for (int n = 0; n < p.nodeCount; n++) {
      overflow += Math.max(0, -binRemaining[n]);
      total += binCapacity[n];
    }
    if (overflow <= epsilon) {
      return;
    }
    for (int n = 0; n < p.nodeCount; n++) {
      binRemaining[n] -= overflow * binCapacity[n] / total;
    }
    bins.reset();
  }

  /**
   * Fits {@code order[0, count)}, in that order interleaved with the remainders of split segments. With
   * {@code sticky}, a segment is first offered to the nodes holding it (see {@link #keep}); the segments it
   * leaves untouched are moved to the front of {@code order}, in order.
   *
   * @return how many segments were left
   */
  private int pack(int[] order, int count, boolean sticky)
  {
    final IntComparator before = (x, y) -> {
      final int c = Double.compare(remaining[y], remaining[x]);
      return c != 0 ? c : p.compareSegments(x, y);
    };
    final IntHeapPriorityQueue requeued = new IntHeapPriorityQueue(before);
    int next = 0;
    int left = 0;
    while (next < count || !requeued.isEmpty()) {
      final boolean fromOrder = requeued.isEmpty()
                                || (next < count && before.compare(order[next], requeued.firstInt()) < 0);
      final int s = fromOrder ? order[next++] : requeued.dequeueInt();
      if (fromOrder && sticky) {
        switch (keep(s)) {
          case KEPT:
            continue;
          case LEFT:
            order[left++] = s;
            continue;
          default:
            break;
        }
      }
      if (remaining[s] > epsilon && step(s)) {
        requeued.enqueue(s);
      }
    }
    return left;
  }

  private enum Kept
  {
    /** All of the segment's load stays on nodes that hold it now. */
    KEPT,
    /** Nothing placed: the segment moves, and is packed after the segments that stay. */
    LEFT,
    /** What its holders keep is placed; the rest is fitted now, at the segment's rank in popularity. */
    POPULAR
  }

  /**
   * The sticky pass for segment {@code s}, which has no replica yet: keeps it whole on a node that holds it now and
   * whose bin it fits (with {@link #HOLD_SLACK}): the one routed the largest share of it now (see
   * {@link PlacementInput#currentShares()}: with two or more replicas, the one that carried its load, not a floor
   * replica), then the one it fits most tightly. A popular segment, with more load than the whole bin
   * of any of its holders, keeps what its holders' bins can take (largest first); the rest is fitted at its rank in
   * popularity, ahead of the less popular segments, as the plain fit would: so a segment that turned hot spreads to
   * the bins that are still empty, the strong nodes', and the segments they held make room and move, not the hot
   * one. A segment held nowhere (new, or its holders lost their capacity) counts as popular: it needs a place, and
   * with no current holders at all the fit is exactly the thesis' MODIFIEDBESTFIT.
   */
  private Kept keep(int s)
  {
    final int holders = p.holderCount(s);
    final double load = remaining[s];
    int tightest = -1;
    double tightestShare = 0;
    double largestHolderBin = 0;
    for (int i = 0; i < holders; i++) {
      final int h = p.holder(s, i);
      if (weight[h] <= 0 || !a.fits(s, h)) {
        continue;
      }
      largestHolderBin = Math.max(largestHolderBin, binCapacity[h]);
      final double share = p.holderShare(s, i);
      if (fitsWithSlack(h, load)
          && (tightest < 0 || share > tightestShare
              || (share == tightestShare && binRemaining[h] < binRemaining[tightest]))) {
        tightest = h;
        tightestShare = share;
      }
    }
    if (tightest < 0 && load <= negligibleLoad) {
      tightest = negligibleHolder(s, load);
    }
    if (tightest >= 0) {
      place(s, tightest, load);
      remaining[s] = 0;
      return Kept.KEPT;
    }
    if (load <= largestHolderBin * (1 + HOLD_SLACK)) {
      // It would fit a holder's bin, but the more popular segments kept there took the room.
      return Kept.LEFT;
    }
    if (split == SplitPolicy.EVEN && splitEvenly(s, true)) {
      return Kept.KEPT;
    }
    keepParts(s);
    return Kept.POPULAR;
  }

  /**
   * The holder that keeps negligible segment {@code s} although its bin is full: of the holders whose bin overflows by
   * no more than {@link #NEGLIGIBLE_OVERFLOW} with it, the one routed the largest share of it now; -1 if none.
   */
  private int negligibleHolder(int s, double load)
  {
    int kept = -1;
    double keptShare = 0;
    for (int i = 0; i < p.holderCount(s); i++) {
      final int h = p.holder(s, i);
      final double share = p.holderShare(s, i);
      if (weight[h] > 0 && a.fits(s, h)
          && load <= binRemaining[h] + NEGLIGIBLE_OVERFLOW * binCapacity[h] + epsilon
          && (kept < 0 || share > keptShare)) {
        kept = h;
        keptShare = share;
      }
    }
    return kept;
  }

  /**
   * Gives the holders of popular segment {@code s} as much of its load as their bins take, those with the largest
   * current share first, then the roomiest, the last of them up to the slack; a holder with no more than the slack left keeps no part (no sliver replicas).
   */
  private void keepParts(int s)
  {
    final int holders = p.holderCount(s);
    while (remaining[s] > epsilon && a.replicaCount(s) < p.constraints.maxReplicas()) {
      int roomiest = -1;
      double roomiestShare = 0;
      for (int i = 0; i < holders; i++) {
        final int h = p.holder(s, i);
        final double share = p.holderShare(s, i);
        if (weight[h] > 0 && binRemaining[h] > HOLD_SLACK * binCapacity[h] && a.fits(s, h) && !a.holds(s, h)
            && (roomiest < 0 || share > roomiestShare
                || (share == roomiestShare && binRemaining[h] > binRemaining[roomiest]))) {
          roomiest = h;
          roomiestShare = share;
        }
      }
      if (roomiest < 0 || (a.replicaCount(s) >= p.constraints.minReplicas() && !extraReplicasAllowed(s, 1))) {
        return;
      }
      final double part = fitsWithSlack(roomiest, remaining[s]) ? remaining[s] : binRemaining[roomiest];
      place(s, roomiest, part);
      remaining[s] -= part;
    }
  }

  /**
   * Splits segment {@code s}, which has no replica yet and is larger than the roomiest open bin, in equal parts over
   * as few nodes as can each take one, the roomiest bins. Equal parts, because that is how Brokers route: Druid's
   * connectionCount and random strategies spread a segment's queries about evenly over its holders, whatever the
   * plan's shares say. The thesis' split (fill the roomiest bin, re-queue the remainder) leaves a last sliver in
   * whichever bin fits it, often a weak node's small one, which is then routed a full 1/k of a hot segment: several
   * times its bin. A segment that fits an empty bin keeps the thesis' split, which fills a bin with each cut and so
   * makes at most one split per bin; an even split does not fill bins, and applied to the tail it would split
   * segment after segment.
   *
   * <p>In the sticky pass ({@code preferHolders}) the nodes holding s now are taken first where they can take a
   * part (with {@link #HOLD_SLACK}), and the number of parts is the one that loads s on the fewest new nodes, then
   * the smallest, starting from one part fewer than it has holders: a segment that cooled sheds a replica.
   *
   * @return whether it placed s; if not (too few nodes, the replica cap or memory), nothing changed
   */
  private boolean splitEvenly(int s, boolean preferHolders)
  {
    final double load = remaining[s];
    if (bins.isEmpty() || load <= binCapacity[bins.last()]) {
      return false;
    }
    final int maxParts = Math.min(p.constraints.maxReplicas() - a.replicaCount(s), p.nodeCount);
    final int holders = preferHolders ? p.holderCount(s) : 0;
    final int[] chosen = new int[Math.max(0, maxParts)];
    final int floorLeft = Math.max(0, p.constraints.minReplicas() - a.replicaCount(s));
    int bestParts = -1;
    int bestMoves = Integer.MAX_VALUE;
    // Even with every holder kept, k parts load k - holders new nodes: past that no larger k can do better.
    for (int k = Math.max(2, holders - 1); k <= maxParts && k - holders < bestMoves; k++) {
      if (!extraReplicasAllowed(s, k - floorLeft)) {
        break;
      }
      final int kept = choose(s, load / k, k, holders, chosen);
      if (kept >= 0 && k - kept < bestMoves) {
        bestParts = k;
        bestMoves = k - kept;
      }
    }
    if (bestParts < 0) {
      return false;
    }
    choose(s, load / bestParts, bestParts, holders, chosen);
    for (int i = 0; i < bestParts; i++) {
      place(s, chosen[i], load / bestParts);
    }
    remaining[s] = 0;
    return true;
  }

  /**
   * Chooses {@code k} nodes for parts of {@code part} of segment s, into {@code chosen}: of its first
   * {@code holders} current holders those that can take a part, then the roomiest open bins that can.
   *
   * @return how many of the chosen hold s now, or -1 if fewer than k nodes can take a part
   */
  private int choose(int s, double part, int k, int holders, int[] chosen)
  {
    int found = 0;
    for (int i = 0; i < holders && found < k; i++) {
      final int h = p.holder(s, i);
      if (weight[h] > 0 && a.fits(s, h) && !a.holds(s, h) && fitsWithSlack(h, part)) {
        chosen[found++] = h;
      }
    }
    final int kept = found;
    final IntBidirectionalIterator it = bins.from(Double.POSITIVE_INFINITY);
    while (found < k && it.hasPrevious()) {
      final int n = it.previousInt();
      if (binRemaining[n] < part - epsilon) {
        break;
      }
      if (usable(it, s, n) && !contains(chosen, found, n)) {
        chosen[found++] = n;
      }
    }
    return found == k ? kept : -1;
  }

  private static boolean contains(int[] values, int count, int value)
  {
    for (int i = 0; i < count; i++) {
      if (values[i] == value) {
        return true;
      }
    }
    return false;
  }

  private boolean fitsWithSlack(int n, double load)
  {
    return load <= binRemaining[n] + HOLD_SLACK * binCapacity[n] + epsilon;
  }

  /**
   * One step of the fit for what remains of segment {@code s}: the tightest bin that takes it whole, else the
   * roomiest bin takes what it can.
   *
   * @return whether a remainder is left, to be placed by a later step
   */
  private boolean step(int s)
  {
    final double load = remaining[s];
    if (a.replicaCount(s) >= p.constraints.maxReplicas()) {
      spreadOverHolders(s, load);
      return false;
    }
    if (a.replicaCount(s) >= p.constraints.minReplicas() && !extraReplicasAllowed(s, 1)) {
      a.reportShortfall(
          s,
          a.replicaCount(s) + 1,
          "its load wanted another replica, but the free memory is needed for other segments' minimum replicas"
      );
      spreadOverHolders(s, load);
      return false;
    }
    final int fit = tightestFitForRouting(s, load);
    if (fit >= 0) {
      place(s, fit, load);
      remaining[s] = 0;
      return false;
    }
    if (split == SplitPolicy.EVEN && a.replicaCount(s) == 0 && splitEvenly(s, false)) {
      return false;
    }
    final int largest = largestBin(s);
    if (largest >= 0 && binRemaining[largest] > epsilon) {
      final double part = binRemaining[largest];
      place(s, largest, part);
      // No bin fits the load whole, so part < load - epsilon: a real remainder is left.
      remaining[s] = load - part;
      return true;
    }
    // Every bin is full (or unusable for s). Existing replicas absorb the rest; a segment without one gets it on
    // the usable node with the most capacity left, over its bin.
    if (a.replicaCount(s) > 0) {
      spreadOverHolders(s, load);
    } else if (largest >= 0) {
      place(s, largest, load);
    }
    // else: no node with capacity has room for s; the floor phase may still find one with capacity 0.
    remaining[s] = 0;
    return false;
  }

  /**
   * With {@link SplitPolicy#EVEN}, the remainder of a split segment (one with replicas already) goes to the tightest
   * bin that can take the share Brokers will route to its new holder, 1/(k+1) of the segment's load, if there is
   * one: the thesis' tightest fit for the remainder alone would put a small remainder of a hot segment in a small
   * bin, whose node is then routed far more than its bin. Otherwise, and for a whole segment, the tightest fit.
   */
  private int tightestFitForRouting(int s, double load)
  {
    if (split == SplitPolicy.EVEN && a.replicaCount(s) > 0) {
      final double routed = p.load[s] / (a.replicaCount(s) + 1);
      if (routed > load) {
        final int fit = tightestFit(s, routed);
        if (fit >= 0) {
          return fit;
        }
      }
    }
    return tightestFit(s, load);
  }

  /** The usable bin with the least remaining capacity ≥ load, or -1. */
  private int tightestFit(int s, double load)
  {
    final IntBidirectionalIterator it = bins.from(load - epsilon);
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
  private int largestBin(int s)
  {
    if (bins.isEmpty()) {
      return -1;
    }
    double level = binRemaining[bins.last()];
    while (true) {
      final IntBidirectionalIterator it = bins.from(level);
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
      final IntBidirectionalIterator below = bins.from(level);
      if (!below.hasPrevious()) {
        return -1;
      }
      level = binRemaining[below.previousInt()];
    }
  }

  /**
   * Whether memory allows {@code extras} replicas of {@code s} beyond its floor. An extra replica is at most the
   * largest size, so it takes at most one slot.
   */
  private boolean extraReplicasAllowed(int s, int extras)
  {
    if (extras <= 0) {
      return true;
    }
    switch (reserve) {
      case BYTES:
        return totalFree - extras * p.size[s] >= floorReserve;
      case SLOTS:
        return totalFree - extras * p.size[s] >= floorReserve && freeSlots - extras >= floorReplicasMissing;
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
        bins.close(it, n);
      }
      return false;
    }
    return !a.holds(s, n);
  }

  private void place(int s, int n, double load)
  {
    if (a.replicaCount(s) < p.constraints.minReplicas()) {
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
    bins.changed(n, a.freeMemory[n] >= minSizeInFit);
  }

  private void addToReplica(int r, double load)
  {
    final int n = a.repNode[r];
    a.addLoad(r, load);
    binRemaining[n] -= load;
    bins.changed(n, bins.open[n]);
  }

  /** Adds {@code load} to the replicas of {@code s}, in proportion to their nodes' weights (evenly if all are 0). */
  private void spreadOverHolders(int s, double load)
  {
    double holderWeight = 0;
    for (int r = a.firstReplica(s); r >= 0; r = a.nextReplica(r)) {
      holderWeight += weight[a.repNode[r]];
    }
    for (int r = a.firstReplica(s); r >= 0; r = a.nextReplica(r)) {
      final double part = holderWeight > 0
                          ? load * weight[a.repNode[r]] / holderWeight
                          : load / a.replicaCount(s);
      addToReplica(r, part);
    }
  }

  /**
   * The open bins (nodes that may take load), by remaining capacity, then node id: a red-black tree over each
   * node's remaining capacity as it was when the node was filed. Nearly all placements are the sticky pass's,
   * which never search the tree, and re-filing the node at each would cost two tree updates per segment; so a
   * placement only marks its node stale, and stale nodes are re-filed when the tree is next searched. Searches see
   * the same tree as with eager updates.
   */
  private final class Bins
  {
    /** Whether the node should be in the tree: it has weight and room for the smallest loaded segment. */
    final boolean[] open = new boolean[p.nodeCount];
    /** Whether it is in the tree, under key {@link #filedKey}. */
    private final boolean[] filed = new boolean[p.nodeCount];
    private final double[] filedKey = new double[p.nodeCount];
    private final boolean[] stale = new boolean[p.nodeCount];
    private final int[] staleNodes = new int[p.nodeCount];
    private int staleCount;
    private double probe;
    // Index -1 stands for the probe value, to search the tree by capacity.
    private final IntRBTreeSet tree = new IntRBTreeSet((IntComparator) (x, y) -> {
      final int c = Double.compare(x < 0 ? probe : filedKey[x], y < 0 ? probe : filedKey[y]);
      return c != 0 ? c : Integer.compare(x, y);
    });

    /** Files every node afresh: at the start, and after every bin's remaining capacity changed. */
    void reset()
    {
      tree.clear();
      staleCount = 0;
      for (int n = 0; n < p.nodeCount; n++) {
        stale[n] = false;
        open[n] = weight[n] > 0 && a.freeMemory[n] >= minSizeInFit;
        filed[n] = open[n];
        filedKey[n] = binRemaining[n];
        if (open[n]) {
          tree.add(n);
        }
      }
    }

    /** Node {@code n}'s remaining capacity changed, and it should now be open or not. */
    void changed(int n, boolean nowOpen)
    {
      open[n] = nowOpen;
      if (!stale[n]) {
        stale[n] = true;
        staleNodes[staleCount++] = n;
      }
    }

    /** Closes node {@code n}, which iterator {@code it} just returned. */
    void close(IntBidirectionalIterator it, int n)
    {
      it.remove();
      open[n] = false;
      filed[n] = false;
    }

    private void refile()
    {
      for (int i = 0; i < staleCount; i++) {
        final int n = staleNodes[i];
        stale[n] = false;
        if (filed[n]) {
          tree.remove(n);
        }
        filedKey[n] = binRemaining[n];
        filed[n] = open[n];
        if (open[n]) {
          tree.add(n);
        }
      }
      staleCount = 0;
    }

    boolean isEmpty()
    {
      refile();
      return tree.isEmpty();
    }

    /** The open node with the most remaining capacity (the highest id among equals); the tree must not be empty. */
    int last()
    {
      refile();
      return tree.lastInt();
    }

    /** An iterator placed before every open node whose remaining capacity is at least {@code capacity}. */
    IntBidirectionalIterator from(double capacity)
    {
      refile();
      probe = capacity;
      return tree.iterator(-1);
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
