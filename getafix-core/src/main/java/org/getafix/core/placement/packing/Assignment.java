package org.getafix.core.placement.packing;

import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.plan.UnplacedSegment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan under construction, on int indices: replicas in flat arrays (one linked list per segment, newest first),
 * per segment a small record (see {@link #segments}), and per node its replica count, free memory and routed query
 * load. The phases (fit, floor, balancer) mutate it in turn; {@link #toPlan} turns it into the public
 * {@link PlacementPlan} once, at the end.
 */
final class Assignment
{
  private static final int NONE = -1;

  final PlacementProblem problem;

  // Replica r: segment repSegment[r] on node repNode[r], carrying repLoad[r] of the segment's load.
  int[] repSegment;
  int[] repNode;
  double[] repLoad;
  private int[] repNext;
  int replicaTotal;

  /**
   * Per segment s, {@link #FIELDS} ints from s × FIELDS: its replica count, its newest replica, and the nodes of its
   * two newest replicas. The floor and the balancer visit segments in an order unrelated to their numbering, where
   * every array read is a cache miss, and so is each step of a list walk: in one 16-byte record, which never
   * straddles a cache line, {@link #holds} costs one miss for a segment with up to two replicas, the usual case.
   */
  private final int[] segments;
  private static final int COUNT = 0;
  private static final int NEWEST = 1;
  private static final int NEWEST_NODE = 2;
  private static final int SECOND_NODE = 3;
  private static final int FIELDS = 4;
  final int[] nodeSegments;
  final long[] freeMemory;
  final double[] nodeLoad;
  private record Shortfall(int wanted, String reason)
  {
  }

  // Segment → replicas it wanted and why it did not get them; turned into UnplacedSegments with the final counts.
  private final Map<Integer, Shortfall> shortfalls = new LinkedHashMap<>();
  /** Whether some segment missed replicas for lack of memory (rather than of nodes). */
  boolean memoryShortfall;

  Assignment(PlacementProblem problem)
  {
    this.problem = problem;
    // The floor's replicas, plus room for the fit's splits (about one per node), so that the arrays rarely grow.
    final long expected = (long) problem.segmentCount * Math.max(1, Math.min(problem.constraints.minReplicas(),
                                                                             problem.nodeCount))
                          + 2L * problem.nodeCount + 16;
    final int initial = (int) Math.min(expected, Integer.MAX_VALUE - 16);
    repSegment = new int[initial];
    repNode = new int[initial];
    repLoad = new double[initial];
    repNext = new int[initial];
    segments = new int[problem.segmentCount * FIELDS];
    for (int s = 0; s < problem.segmentCount; s++) {
      segments[s * FIELDS + NEWEST] = NONE;
    }
    nodeSegments = new int[problem.nodeCount];
    freeMemory = problem.maxSize.clone();
    nodeLoad = new double[problem.nodeCount];
  }

  /** Adds a replica of segment {@code s} on node {@code n} carrying {@code load}; the caller checked eligibility. */
  int addReplica(int s, int n, double load)
  {
    ensureReplicaRoom(replicaTotal + 1);
    final int r = replicaTotal++;
    repSegment[r] = s;
    repNode[r] = n;
    repLoad[r] = load;
    link(s, r, n);
    nodeSegments[n]++;
    freeMemory[n] -= problem.size[s];
    nodeLoad[n] += load;
    return r;
  }

  /**
   * Books a replica without load of a segment of {@code bytes} on node {@code n}: counts it on the node, which is
   * all that later placement choices depend on, and leaves creating it to {@link #addBooked}.
   */
  void book(int n, long bytes)
  {
    nodeSegments[n]++;
    freeMemory[n] -= bytes;
  }

  /** A booked replica of segment {@code s} on node {@code n}, for {@link #addBooked}. */
  static long booking(int s, int n)
  {
    return ((long) s << 32) | n;
  }

  /**
   * Creates the booked replicas {@code bookings[0, count)}, without load. They are created in segment order, so
   * that each segment's list is updated front to back, not at random; the array is sorted in place.
   */
  void addBooked(long[] bookings, int count)
  {
    IndexSort.sort(bookings, count);
    ensureReplicaRoom(replicaTotal + count);
    for (int i = 0; i < count; i++) {
      final int s = (int) (bookings[i] >>> 32);
      final int n = (int) bookings[i];
      final int r = replicaTotal++;
      repSegment[r] = s;
      repNode[r] = n;
      repLoad[r] = 0;
      link(s, r, n);
    }
  }

  /** Makes replica r, on node n, the newest of segment s. */
  private void link(int s, int r, int n)
  {
    final int at = s * FIELDS;
    repNext[r] = segments[at + NEWEST];
    segments[at + NEWEST] = r;
    segments[at + SECOND_NODE] = segments[at + NEWEST_NODE];
    segments[at + NEWEST_NODE] = n;
    segments[at + COUNT]++;
  }

  private void ensureReplicaRoom(int replicas)
  {
    if (replicas > repSegment.length) {
      final int grown = Math.max(replicas, repSegment.length + (repSegment.length >> 1));
      repSegment = Arrays.copyOf(repSegment, grown);
      repNode = Arrays.copyOf(repNode, grown);
      repLoad = Arrays.copyOf(repLoad, grown);
      repNext = Arrays.copyOf(repNext, grown);
    }
  }

  void addLoad(int r, double load)
  {
    repLoad[r] += load;
    nodeLoad[repNode[r]] += load;
  }

  /** Moves replica {@code r} to node {@code to}, with its load; the caller checked eligibility. */
  void move(int r, int to)
  {
    final int from = repNode[r];
    final int s = repSegment[r];
    final long bytes = problem.size[s];
    final int at = s * FIELDS;
    if (segments[at + NEWEST] == r) {
      segments[at + NEWEST_NODE] = to;
    } else if (repNext[segments[at + NEWEST]] == r) {
      segments[at + SECOND_NODE] = to;
    }
    nodeSegments[from]--;
    freeMemory[from] += bytes;
    nodeLoad[from] -= repLoad[r];
    repNode[r] = to;
    nodeSegments[to]++;
    freeMemory[to] -= bytes;
    nodeLoad[to] += repLoad[r];
  }

  /** The first replica of segment {@code s}, or -1; continue with {@link #nextReplica}. */
  int firstReplica(int s)
  {
    return segments[s * FIELDS + NEWEST];
  }

  int replicaCount(int s)
  {
    return segments[s * FIELDS + COUNT];
  }

  int nextReplica(int r)
  {
    return repNext[r];
  }

  /** The node of {@link #firstReplica}{@code (s)}; meaningless for a segment without replicas. */
  int headNode(int s)
  {
    return segments[s * FIELDS + NEWEST_NODE];
  }

  /** Whether node {@code n} holds a replica of {@code s}: a walk over the segment's few replicas. */
  boolean holds(int s, int n)
  {
    final int at = s * FIELDS;
    final int count = segments[at + COUNT];
    if (count == 0) {
      return false;
    }
    if (segments[at + NEWEST_NODE] == n || (count > 1 && segments[at + SECOND_NODE] == n)) {
      return true;
    }
    if (count <= 2) {
      return false;
    }
    for (int r = repNext[repNext[segments[at + NEWEST]]]; r != NONE; r = repNext[r]) {
      if (repNode[r] == n) {
        return true;
      }
    }
    return false;
  }

  boolean fits(int s, int n)
  {
    return freeMemory[n] >= problem.size[s];
  }

  /**
   * Records that segment {@code s} wanted {@code wanted} replicas and why it may not get them; a later report for s
   * replaces an earlier one, and a report is dropped if a later phase gives the segment what it wanted.
   */
  void reportShortfall(int s, int wanted, String reason)
  {
    shortfalls.put(s, new Shortfall(wanted, reason));
  }

  /**
   * The public plan. A segment's shares are its replicas' loads over their sum; a segment that carries no load at
   * all has them split evenly. Segments without any replica are absent from the shares and present in unplaced.
   * Segments come in the problem's order, hottest first, so the rows are written front to back.
   */
  PlacementPlan toPlan()
  {
    int placed = 0;
    int widest = 0;
    for (int s = 0; s < problem.segmentCount; s++) {
      final int count = replicaCount(s);
      if (count > 0) {
        placed++;
        widest = Math.max(widest, count);
      }
    }
    final String[] segmentIds = new String[placed];
    final int[] rowStart = new int[placed + 1];
    final String[] nodeIds = new String[replicaTotal];
    final double[] nodeShares = new double[replicaTotal];
    // One row at a time, sorted by node index (node id order) by insertion: rows are short.
    final int[] rowNode = new int[widest];
    final double[] rowLoad = new double[widest];
    int row = 0;
    int k = 0;
    for (int s = 0; s < problem.segmentCount; s++) {
      final int count = replicaCount(s);
      if (count == 0) {
        continue;
      }
      double total = 0;
      int width = 0;
      for (int r = firstReplica(s); r != NONE; r = repNext[r]) {
        final int node = repNode[r];
        final double load = repLoad[r];
        int i = width++;
        while (i > 0 && rowNode[i - 1] > node) {
          rowNode[i] = rowNode[i - 1];
          rowLoad[i] = rowLoad[i - 1];
          i--;
        }
        rowNode[i] = node;
        rowLoad[i] = load;
        total += load;
      }
      for (int i = 0; i < width; i++) {
        nodeIds[k] = problem.nodeIds[rowNode[i]];
        nodeShares[k++] = total > 0 ? rowLoad[i] / total : 1.0 / count;
      }
      segmentIds[row] = problem.segmentIds[s];
      rowStart[++row] = k;
    }
    final List<UnplacedSegment> report = new ArrayList<>();
    for (Map.Entry<Integer, Shortfall> e : shortfalls.entrySet()) {
      final int s = e.getKey();
      final Shortfall shortfall = e.getValue();
      if (replicaCount(s) < shortfall.wanted()) {
        report.add(new UnplacedSegment(problem.segmentIds[s], replicaCount(s), shortfall.wanted(), shortfall.reason()));
      }
    }
    report.sort((x, y) -> x.segmentId().compareTo(y.segmentId()));
    return PlacementPlan.ofRows(segmentIds, rowStart, nodeIds, nodeShares, report);
  }
}
