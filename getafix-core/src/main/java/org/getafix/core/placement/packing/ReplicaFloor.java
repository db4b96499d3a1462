package org.getafix.core.placement.packing;

import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.Arrays;

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
 * leaves the ranking for good, so memory-full nodes cost O(N log N) in total, not per segment. Cost: a radix sort
 * for the order plus O(log N) per replica.
 *
 * <p>Size order is unrelated to the segments' numbering, so at a million segments every per-segment array read in
 * that order is a cache miss. The floor therefore reads what it needs of each segment (size, replicas, current
 * holders) up front, in loops that do nothing else, where the processor overlaps the misses of many segments; and it
 * only books each new replica on its node as it goes (which is all that later choices depend on), creating the
 * replicas at the end in segment order ({@link Assignment#addBooked}).
 */
final class ReplicaFloor
{
  private final PlacementProblem p;
  private final Assignment a;
  private final int target;
  private final boolean preferCurrentHolders;
  private final boolean required;
  private final long evenShare;
  private final long sortedSizeLimit;
  private final Ranking ranking;
  /** Nodes left out of the ranking for the current segment only. */
  private final int[] skipped;
  // The segment being topped up: its size, the replicas it had, its first two current holders (most segments have
  // no more), and the nodes booked for it so far.
  private int segment;
  private long size;
  private int hadReplicas;
  private int headNode;
  private int holders;
  private int firstHolder;
  private int secondHolder;
  private final int[] booked;
  private int bookedCount;

  private ReplicaFloor(
      PlacementProblem p,
      Assignment a,
      int target,
      boolean preferCurrentHolders,
      long missing,
      long firstSize,
      boolean required,
      double[] weight
  )
  {
    this.required = required;
    this.p = p;
    this.a = a;
    this.target = target;
    this.preferCurrentHolders = preferCurrentHolders;
    this.evenShare = p.nodeCount == 0 ? 0 : (a.replicaTotal + missing + p.nodeCount - 1) / p.nodeCount;
    // Sizes beyond the sort key's width (terabytes) tie, so only bytes below it prove a node too full for the rest.
    this.sortedSizeLimit = IndexSort.clamped(Long.MAX_VALUE, p.segmentCount);
    this.booked = new int[Math.min(target, p.nodeCount)];
    this.ranking = new Ranking(a, p.nodeCount, firstSize, weight == null ? null : positive(weight));
    this.skipped = new int[p.nodeCount];
  }

  static void run(PlacementProblem p, Assignment a, int target, boolean preferCurrentHolders)
  {
    run(p, a, target, preferCurrentHolders, p.segmentCount, true, null);
  }

  /**
   * Tops up only the first {@code limit} segments in the fit's order (the hottest, see {@link PlacementProblem}).
   *
   * @param required whether a replica that finds no room is a shortfall; false for replicas that only add choice
   *                 (the hot floor), which are simply not made then
   * @param weight   per-node weight the segment counts are divided by when choosing a node (a node of weight 2 is
   *                 given twice the segments of a node of weight 1), or null for even counts
   */
  static void run(
      PlacementProblem p,
      Assignment a,
      int target,
      boolean preferCurrentHolders,
      int limit,
      boolean required,
      double[] weight
  )
  {
    // The needy segments by size, then id: (size, id rank) packed into longs, collected in segment order, which
    // reads the per-segment arrays front to back, and sorted once.
    final int segments = p.segmentCount;
    final long[] bySize = new long[segments];
    int count = 0;
    long missing = 0;
    for (int s = 0; s < limit; s++) {
      if (a.replicaCount(s) < target) {
        bySize[count++] = IndexSort.withRank(IndexSort.clamped(p.size[s], segments), p.idRank(s), segments);
        missing += target - a.replicaCount(s);
      }
    }
    if (count == 0) {
      return;
    }
    IndexSort.sort(bySize, count);
    final int[] idOrder = p.idOrder();
    final int[] needy = new int[count];
    for (int i = 0; i < count; i++) {
      needy[i] = idOrder[IndexSort.rank(bySize[i], segments)];
    }
    // The sort key is the size itself, unless it was clamped: one random read less per segment.
    final long[] sizes = new long[count];
    final long clampedSizes = IndexSort.clamped(Long.MAX_VALUE, segments);
    for (int i = 0; i < count; i++) {
      final long key = IndexSort.key(bySize[i], segments);
      sizes[i] = key < clampedSizes ? key : p.size[needy[i]];
    }
    final int[] replicas = new int[count];
    final int[] heads = new int[count];
    for (int i = 0; i < count; i++) {
      replicas[i] = a.replicaCount(needy[i]);
      heads[i] = a.headNode(needy[i]);
    }
    final int[] holderCounts = new int[count];
    final int[] firstHolders = new int[count];
    final int[] secondHolders = new int[count];
    if (preferCurrentHolders) {
      for (int i = 0; i < count; i++) {
        final int s = needy[i];
        holderCounts[i] = p.holderCount(s);
        firstHolders[i] = holderCounts[i] > 0 ? p.holder(s, 0) : -1;
        secondHolders[i] = holderCounts[i] > 1 ? p.holder(s, 1) : -1;
      }
    }

    final ReplicaFloor floor =
        new ReplicaFloor(p, a, target, preferCurrentHolders, missing, sizes[0], required, weight);
    final LongArrayList newReplicas = new LongArrayList(count);
    for (int i = 0; i < count; i++) {
      floor.segment = needy[i];
      floor.size = sizes[i];
      floor.hadReplicas = replicas[i];
      floor.headNode = heads[i];
      floor.holders = holderCounts[i];
      floor.firstHolder = firstHolders[i];
      floor.secondHolder = secondHolders[i];
      floor.bookedCount = 0;
      floor.topUp();
      for (int k = 0; k < floor.bookedCount; k++) {
        newReplicas.add(Assignment.booking(needy[i], floor.booked[k]));
      }
    }
    a.addBooked(newReplicas.elements(), newReplicas.size());
  }

  /** Books replicas of the current segment until it has {@link #target}, or reports why it cannot. */
  private void topUp()
  {
    while (hadReplicas + bookedCount < target) {
      int n = preferCurrentHolders ? currentHolderWithRoom() : -1;
      if (n >= 0) {
        book(n);
        continue;
      }
      n = leastLoaded();
      if (n < 0) {
        if (!required) {
          return;
        }
        a.reportShortfall(
            segment,
            target,
            shortfallReason(p, a, segment, hadReplicas + bookedCount, target)
        );
        return;
      }
      book(n);
    }
  }

  private void book(int n)
  {
    a.book(n, size);
    ranking.worsened(n);
    booked[bookedCount++] = n;
  }

  private boolean fits(int n)
  {
    return a.freeMemory[n] >= size;
  }

  /** Whether node {@code n} holds a replica of the current segment, booked or not. */
  private boolean holds(int n)
  {
    for (int k = 0; k < bookedCount; k++) {
      if (booked[k] == n) {
        return true;
      }
    }
    return hadReplicas > 0 && (headNode == n || (hadReplicas > 1 && a.holds(segment, n)));
  }

  /**
   * The nodes by segment count, then most free memory, then id, for the least-loaded choice: a tournament tree, in
   * which every inner slot holds the better of its two children, so the least-loaded node is at the root and a node
   * whose count or memory changed is re-ranked in log N steps over small arrays. It replaced a red-black tree that,
   * re-filing each node a replica went to, cost a third of a round at a million segments. A node can be left out
   * (it is too full, or holds the segment), which ranks it below every other.
   */
  private static final class Ranking
  {
    private final Assignment a;
    private final int leaves;
    private final int[] winner;
    private final boolean[] out;
    /** Null: even segment counts. */
    private final double[] weight;

    Ranking(Assignment a, int nodeCount, long firstSize, double[] weight)
    {
      this.a = a;
      this.weight = weight;
      this.leaves = Math.max(1, Integer.highestOneBit(Math.max(1, nodeCount - 1)) << 1);
      this.winner = new int[2 * leaves];
      this.out = new boolean[nodeCount];
      Arrays.fill(winner, -1);
      for (int n = 0; n < nodeCount; n++) {
        // A node without room for the smallest segment has room for none.
        out[n] = a.freeMemory[n] < firstSize;
        winner[leaves + n] = out[n] ? -1 : n;
      }
      for (int i = leaves - 1; i >= 1; i--) {
        winner[i] = better(winner[2 * i], winner[2 * i + 1]);
      }
    }

    /** The least-loaded node not left out, or -1. */
    int best()
    {
      return winner[1];
    }

    /** Re-ranks node {@code n} after it was put back in. */
    private void update(int n)
    {
      int i = leaves + n;
      winner[i] = out[n] ? -1 : n;
      for (i >>= 1; i >= 1; i >>= 1) {
        winner[i] = better(winner[2 * i], winner[2 * i + 1]);
      }
    }

    /**
     * Re-ranks node {@code n} after it became worse: a replica more (and less memory), or left out. Only the slots
     * it won can change, and a node wins few of them unless it is the least loaded, so most replicas of a segment
     * kept on its current holder cost a step or two instead of the whole path to the root.
     */
    void worsened(int n)
    {
      int i = leaves + n;
      winner[i] = out[n] ? -1 : n;
      for (i >>= 1; i >= 1 && winner[i] == n; i >>= 1) {
        winner[i] = better(winner[2 * i], winner[2 * i + 1]);
      }
    }

    void leaveOut(int n, boolean leftOut)
    {
      out[n] = leftOut;
      if (leftOut) {
        worsened(n);
      } else {
        update(n);
      }
    }

    private int better(int x, int y)
    {
      if (x < 0 || y < 0) {
        return x < 0 ? y : x;
      }
      int c = weight == null
              ? Integer.compare(a.nodeSegments[x], a.nodeSegments[y])
              : Double.compare((a.nodeSegments[x] + 1) * weight[y], (a.nodeSegments[y] + 1) * weight[x]);
      if (c == 0) {
        c = Long.compare(a.freeMemory[y], a.freeMemory[x]);
      }
      return c < 0 || (c == 0 && x < y) ? x : y;
    }
  }

  /** The weights with every node above 0, so that a node of weight 0 still ranks (last) when all others are full. */
  private static double[] positive(double[] weight)
  {
    double max = 0;
    for (double w : weight) {
      max = Math.max(max, w);
    }
    final double least = max > 0 ? max * 1e-6 : 1;
    final double[] result = new double[weight.length];
    for (int n = 0; n < weight.length; n++) {
      result[n] = Math.max(weight[n], least);
    }
    return result;
  }

  private int currentHolderWithRoom()
  {
    for (int i = 0; i < holders; i++) {
      final int n = i == 0 ? firstHolder : i == 1 ? secondHolder : p.holder(segment, i);
      if (a.nodeSegments[n] < evenShare && fits(n) && !holds(n)) {
        return n;
      }
    }
    return -1;
  }

  /** The least-loaded node that can take the current segment, or -1. */
  private int leastLoaded()
  {
    int chosen = -1;
    int skippedCount = 0;
    for (int n = ranking.best(); n >= 0; n = ranking.best()) {
      if (!fits(n) && a.freeMemory[n] < Math.min(size, sortedSizeLimit)) {
        // Segments come smallest first: no later segment fits here either.
        ranking.leaveOut(n, true);
      } else if (!fits(n) || holds(n)) {
        ranking.leaveOut(n, true);
        skipped[skippedCount++] = n;
      } else {
        chosen = n;
        break;
      }
    }
    for (int i = 0; i < skippedCount; i++) {
      ranking.leaveOut(skipped[i], false);
    }
    return chosen;
  }

  /** Why {@code s}, with {@code placed} replicas, cannot get more: too few nodes, too little memory, or both. */
  static String shortfallReason(PlacementProblem p, Assignment a, int s, int placed, int target)
  {
    final boolean memory = placed < Math.min(target, p.nodeCount);
    final String nodes = "only " + p.nodeCount + " nodes for " + target + " replicas";
    if (!memory) {
      return nodes;
    }
    a.memoryShortfall = true;
    final String bytes = "no node without a replica of it has " + p.size[s] + " bytes free";
    return p.nodeCount < target ? bytes + "; " + nodes : bytes;
  }
}
