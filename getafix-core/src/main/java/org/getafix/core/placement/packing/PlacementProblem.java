package org.getafix.core.placement.packing;

import it.unimi.dsi.fastutil.ints.IntArrays;
import org.getafix.core.placement.plan.NodeCapacity;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlanShares;
import org.getafix.core.placement.plan.SegmentLoad;

import java.util.List;
import java.util.Map;

/**
 * A {@link PlacementInput} turned into primitive arrays indexed by int, which is what the algorithms work on: no
 * string hashing or boxing in their inner loops. Nodes are indexed in node-id order, so every tie between nodes is
 * broken by id; ties between segments are broken by {@link #compareSegments}, a fixed function of the ids, so results
 * do not depend on the input order either.
 *
 * <p>Segments are renumbered in the order the fit visits them: the loaded ones (load above {@link #loadEpsilon})
 * first, by decreasing load, then the unloaded ones; ties in id order. At a million segments the per-segment arrays
 * are far larger than the caches, and the fit is the phase that reads them segment by segment, so in this order it
 * reads them front to back instead of at random; the plan is emitted in the same order, hottest segment first.
 */
final class PlacementProblem
{
  final PlacementConstraints constraints;
  final int segmentCount;
  final int nodeCount;
  final String[] segmentIds;
  final double[] load;
  final long[] size;
  /** Sum of all segment loads. */
  final double totalLoad;
  /** Loads up to this are rounding residue of the fit's floating-point cuts, not load worth a replica. */
  final double loadEpsilon;
  /** Segments [0, loadedCount) carry more than {@link #loadEpsilon}, in the fit's order. */
  final int loadedCount;
  final String[] nodeIds;
  final double[] capacity;
  final long[] maxSize;
  /** {@link NodeCapacity#unstable}, by node. */
  final boolean[] unstable;
  /** Position of each segment in id order. */
  private final int[] idRank;
  /** The segments in id order: idOrder[idRank[s]] == s. */
  private final int[] idOrder;
  // Current holders resolved to node indices, in node order: those of segment s are
  // holderNode[holderStart[s], holderStart[s+1]); unknown node ids are ignored.
  private final int[] holderStart;
  private final int[] holderNode;
  /** The share of the segment's load each of those holders is routed now; null when the input has no shares. */
  private final double[] holderShare;

  PlacementProblem(PlacementInput input)
  {
    this.constraints = input.constraints();
    final List<NodeCapacity> nodes = input.nodes();
    nodeCount = nodes.size();
    final int[] nodeOrder = new int[nodeCount];
    for (int i = 0; i < nodeCount; i++) {
      nodeOrder[i] = i;
    }
    IntArrays.quickSort(nodeOrder, (a, b) -> nodes.get(a).nodeId().compareTo(nodes.get(b).nodeId()));
    nodeIds = new String[nodeCount];
    capacity = new double[nodeCount];
    maxSize = new long[nodeCount];
    unstable = new boolean[nodeCount];
    for (int n = 0; n < nodeCount; n++) {
      final NodeCapacity node = nodes.get(nodeOrder[n]);
      nodeIds[n] = node.nodeId();
      capacity[n] = node.capacity();
      maxSize[n] = node.maxSizeBytes();
      unstable[n] = node.unstable();
    }

    final List<SegmentLoad> segments = input.segments();
    segmentCount = segments.size();
    // Input order first; renumbered below.
    final String[] ids = new String[segmentCount];
    final double[] loads = new double[segmentCount];
    final long[] sizes = new long[segmentCount];
    final int[] hashes = new int[segmentCount];
    double total = 0;
    for (int i = 0; i < segmentCount; i++) {
      final SegmentLoad segment = segments.get(i);
      ids[i] = segment.segmentId();
      loads[i] = segment.load();
      sizes[i] = segment.sizeBytes();
      hashes[i] = ids[i].hashCode();
      total += loads[i];
    }
    totalLoad = total;
    loadEpsilon = total * 1e-9;

    final int[] byId = idOrder(ids, hashes);
    final int[] order = new int[segmentCount];
    int loaded = 0;
    for (int i : byId) {
      if (loads[i] > loadEpsilon) {
        order[loaded++] = i;
      }
    }
    final long[] byLoad = new long[loaded];
    for (int k = 0; k < loaded; k++) {
      byLoad[k] = IndexSort.descending(loads[order[k]], loaded);
    }
    IndexSort.sortStable(order, loaded, byLoad);
    int unloaded = loaded;
    for (int i : byId) {
      if (loads[i] <= loadEpsilon) {
        order[unloaded++] = i;
      }
    }
    loadedCount = loaded;

    segmentIds = new String[segmentCount];
    load = new double[segmentCount];
    size = new long[segmentCount];
    final int[] renumbered = new int[segmentCount];
    // PlacementInput made the holders (its only Map implementation), already resolved to input indices.
    final PlacementInput.CurrentHolders holders = (PlacementInput.CurrentHolders) input.currentHolders();
    final int[] nodeOfInput = new int[nodeCount];
    for (int n = 0; n < nodeCount; n++) {
      nodeOfInput[nodeOrder[n]] = n;
    }
    holderStart = new int[segmentCount + 1];
    holderNode = new int[holders.total()];
    for (int s = 0; s < segmentCount; s++) {
      final int i = order[s];
      segmentIds[s] = ids[i];
      load[s] = loads[i];
      size[s] = sizes[i];
      renumbered[i] = s;
      holderStart[s + 1] = copyHolders(holders, i, nodeOfInput, holderStart[s]);
    }
    holderShare = holders.isEmpty() || input.currentShares().isEmpty() ? null : shares(input.currentShares());
    idOrder = new int[segmentCount];
    idRank = new int[segmentCount];
    for (int k = 0; k < segmentCount; k++) {
      final int s = renumbered[byId[k]];
      idOrder[k] = s;
      idRank[s] = k;
    }
  }

  /**
   * Copies the holders of input segment {@code i} into {@link #holderNode} from {@code at} on, as node indices in
   * node order, leaving out unknown nodes.
   *
   * @return the index after the copied nodes
   */
  private int copyHolders(PlacementInput.CurrentHolders holders, int i, int[] nodeOfInput, int at)
  {
    final int first = at;
    for (int k = holders.from(i); k < holders.to(i); k++) {
      final int input = holders.node(k);
      if (input >= 0) {
        final int n = nodeOfInput[input];
        // The ids are distinct already; insertion keeps node order, and rows are short.
        int j = at++;
        while (j > first && holderNode[j - 1] > n) {
          holderNode[j] = holderNode[j - 1];
          j--;
        }
        holderNode[j] = n;
      }
    }
    return at;
  }

  /**
   * Each holder's current share of its segment's load; 0 for a holder the shares do not name. A plan's own shares
   * (the usual case) are read in place, without making a row map per segment.
   */
  private double[] shares(Map<String, Map<String, Double>> currentShares)
  {
    final double[] shares = new double[holderNode.length];
    final PlanShares plan = currentShares instanceof PlanShares ? (PlanShares) currentShares : null;
    for (int s = 0; s < segmentCount; s++) {
      if (holderStart[s + 1] == holderStart[s]) {
        continue;
      }
      if (plan != null) {
        final int row = plan.indexOf(segmentIds[s]);
        for (int k = holderStart[s]; row >= 0 && k < holderStart[s + 1]; k++) {
          shares[k] = plan.shareIn(row, nodeIds[holderNode[k]]);
        }
      } else {
        final Map<String, Double> row = currentShares.get(segmentIds[s]);
        for (int k = holderStart[s]; row != null && k < holderStart[s + 1]; k++) {
          final Double value = row.get(nodeIds[holderNode[k]]);
          shares[k] = value != null && value > 0 ? value : 0;
        }
      }
    }
    return shares;
  }

  /**
   * Input indices in id order: by the id's String hash (specified by the JDK, so stable across runs), then by the id
   * itself. Cheaper than a lexicographic order, which matters when a million segments tie (all at zero load), and
   * just as deterministic. One sort of packed (hash, index) longs; only ids whose hashes collide need a string
   * comparison.
   */
  private static int[] idOrder(String[] ids, int[] hashes)
  {
    final int count = ids.length;
    final long[] packed = new long[count];
    for (int i = 0; i < count; i++) {
      // The hash offset to be non-negative, as IndexSort.sort wants; positions below it, in order already.
      packed[i] = (((long) hashes[i] - Integer.MIN_VALUE) << 31) | i;
    }
    IndexSort.sort(packed, count, 31);
    final int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = (int) (packed[i] & Integer.MAX_VALUE);
    }
    int runStart = 0;
    for (int i = 1; i <= count; i++) {
      if (i == count || hashes[order[i]] != hashes[order[runStart]]) {
        if (i - runStart > 1) {
          IntArrays.quickSort(order, runStart, i, (a, b) -> ids[a].compareTo(ids[b]));
        }
        runStart = i;
      }
    }
    return order;
  }

  /** Orders segments by id, the tie-break between segments. */
  int compareSegments(int a, int b)
  {
    return Integer.compare(idRank[a], idRank[b]);
  }

  /** Position of segment {@code s} in id order, in [0, segmentCount). */
  int idRank(int s)
  {
    return idRank[s];
  }

  /** All segment indices in {@link #compareSegments} order; callers must not modify it. */
  int[] idOrder()
  {
    return idOrder;
  }

  /**
   * How many nodes hold segment {@code s} now. All segments' holders are resolved to node indices once, into one
   * flat array: a phase that asks for every segment (the fit, the floor, the balancer) then pays an array read, not
   * a string-hashing map lookup.
   */
  int holderCount(int s)
  {
    return holderStart[s + 1] - holderStart[s];
  }

  /** The {@code i}-th node holding {@code s} now, {@code i < holderCount(s)}. */
  int holder(int s, int i)
  {
    return holderNode[holderStart[s] + i];
  }

  /** The share of {@code s}'s load its {@code i}-th holder is routed now: 0 without shares in the input. */
  double holderShare(int s, int i)
  {
    return holderShare == null ? 0 : holderShare[holderStart[s] + i];
  }

  /** Whether node {@code n} holds segment {@code s} now. */
  boolean holdsNow(int s, int n)
  {
    for (int i = holderStart[s]; i < holderStart[s + 1]; i++) {
      if (holderNode[i] == n) {
        return true;
      }
    }
    return false;
  }
}
