package org.getafix.core.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan under construction, on int indices: replicas in flat arrays (one linked list per segment), and per node
 * its replica count, free memory and routed query load. The phases (fit, floor, balancer) mutate it in turn;
 * {@link #toPlan} turns it into the public {@link PlacementPlan} once, at the end.
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

  private final int[] firstReplica;
  final int[] replicaCount;
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
    final int initial = Math.max(16, problem.segmentCount + problem.segmentCount / 4);
    repSegment = new int[initial];
    repNode = new int[initial];
    repLoad = new double[initial];
    repNext = new int[initial];
    firstReplica = new int[problem.segmentCount];
    Arrays.fill(firstReplica, NONE);
    replicaCount = new int[problem.segmentCount];
    nodeSegments = new int[problem.nodeCount];
    freeMemory = problem.maxSize.clone();
    nodeLoad = new double[problem.nodeCount];
  }

  /** Adds a replica of segment {@code s} on node {@code n} carrying {@code load}; the caller checked eligibility. */
  int addReplica(int s, int n, double load)
  {
    if (replicaTotal == repSegment.length) {
      final int grown = repSegment.length + (repSegment.length >> 1);
      repSegment = Arrays.copyOf(repSegment, grown);
      repNode = Arrays.copyOf(repNode, grown);
      repLoad = Arrays.copyOf(repLoad, grown);
      repNext = Arrays.copyOf(repNext, grown);
    }
    final int r = replicaTotal++;
    repSegment[r] = s;
    repNode[r] = n;
    repLoad[r] = load;
    repNext[r] = firstReplica[s];
    firstReplica[s] = r;
    replicaCount[s]++;
    nodeSegments[n]++;
    freeMemory[n] -= problem.size[s];
    nodeLoad[n] += load;
    return r;
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
    final long bytes = problem.size[repSegment[r]];
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
    return firstReplica[s];
  }

  int nextReplica(int r)
  {
    return repNext[r];
  }

  /** Whether node {@code n} holds a replica of {@code s}: a walk over the segment's few replicas. */
  boolean holds(int s, int n)
  {
    for (int r = firstReplica[s]; r != NONE; r = repNext[r]) {
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
   */
  PlacementPlan toPlan()
  {
    int placed = 0;
    for (int s = 0; s < problem.segmentCount; s++) {
      if (replicaCount[s] > 0) {
        placed++;
      }
    }
    final String[] segmentIds = new String[placed];
    final int[] rowStart = new int[placed + 1];
    final String[] nodeIds = new String[replicaTotal];
    final double[] nodeShares = new double[replicaTotal];
    final int[] sortedReplica = new int[replicaTotal];
    int row = 0;
    int k = 0;
    for (int s = 0; s < problem.segmentCount; s++) {
      final int count = replicaCount[s];
      if (count == 0) {
        continue;
      }
      double total = 0;
      final int start = k;
      for (int r = firstReplica[s]; r != NONE; r = repNext[r]) {
        // Insertion by node index, which is node id order: rows are short.
        int i = k++;
        while (i > start && repNode[sortedReplica[i - 1]] > repNode[r]) {
          sortedReplica[i] = sortedReplica[i - 1];
          i--;
        }
        sortedReplica[i] = r;
        total += repLoad[r];
      }
      for (int i = start; i < k; i++) {
        final int r = sortedReplica[i];
        nodeIds[i] = problem.nodeIds[repNode[r]];
        nodeShares[i] = total > 0 ? repLoad[r] / total : 1.0 / count;
      }
      segmentIds[row] = problem.segmentIds[s];
      rowStart[++row] = k;
    }
    final List<UnplacedSegment> report = new ArrayList<>();
    for (Map.Entry<Integer, Shortfall> e : shortfalls.entrySet()) {
      final int s = e.getKey();
      final Shortfall shortfall = e.getValue();
      if (replicaCount[s] < shortfall.wanted()) {
        report.add(new UnplacedSegment(problem.segmentIds[s], replicaCount[s], shortfall.wanted(), shortfall.reason()));
      }
    }
    report.sort((x, y) -> x.segmentId().compareTo(y.segmentId()));
    return PlacementPlan.owning(new PlanShares(segmentIds, rowStart, nodeIds, nodeShares), replicaTotal, report);
  }
}
