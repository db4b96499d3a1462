package org.getafix.core.placement;

import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    for (int n = 0; n < nodeCount; n++) {
      final NodeCapacity node = nodes.get(nodeOrder[n]);
      nodeIds[n] = node.nodeId();
      capacity[n] = node.capacity();
      maxSize[n] = node.maxSizeBytes();
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
    final Holders inputHolders = new Holders(ids, input.currentHolders(), input.currentShares());

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
    holderStart = new int[segmentCount + 1];
    holderNode = new int[inputHolders.total()];
    holderShare = inputHolders.share == null ? null : new double[holderNode.length];
    for (int s = 0; s < segmentCount; s++) {
      final int i = order[s];
      segmentIds[s] = ids[i];
      load[s] = loads[i];
      size[s] = sizes[i];
      renumbered[i] = s;
      holderStart[s + 1] = inputHolders.copy(i, holderNode, holderShare, holderStart[s]);
    }
    idOrder = new int[segmentCount];
    idRank = new int[segmentCount];
    for (int k = 0; k < segmentCount; k++) {
      final int s = renumbered[byId[k]];
      idOrder[k] = s;
      idRank[s] = k;
    }
  }

  /**
   * The current holders of the segments in input order, resolved to node indices: those of segment i are
   * node[start[i], start[i+1]), in node order; unknown node ids are ignored. Resolved in input order, the order in
   * which the ids were just read (so their hashes are still in cache), and in two passes, first every segment's set
   * and then their nodes: each set lookup is a few dependent cache misses (the table slot, the set), and in a loop
   * that does nothing else the processor overlaps the lookups of many segments.
   */
  private final class Holders
  {
    private final int[] start;
    private final int[] node;
    private final double[] share;

    Holders(String[] ids, Map<String, Set<String>> currentHolders, Map<String, Map<String, Double>> currentShares)
    {
      start = new int[ids.length + 1];
      if (currentHolders.isEmpty()) {
        node = IntArrays.EMPTY_ARRAY;
        share = null;
        return;
      }
      @SuppressWarnings("unchecked")
      final Set<String>[] sets = new Set[ids.length];
      for (int i = 0; i < ids.length; i++) {
        sets[i] = currentHolders.get(ids[i]);
      }
      final Object2IntOpenHashMap<String> nodeIndex = new Object2IntOpenHashMap<>(nodeCount);
      nodeIndex.defaultReturnValue(-1);
      for (int n = 0; n < nodeCount; n++) {
        nodeIndex.put(nodeIds[n], n);
      }
      int[] nodes = new int[Math.max(16, currentHolders.size() * 2)];
      int count = 0;
      for (int i = 0; i < ids.length; i++) {
        final int first = count;
        if (sets[i] != null) {
          for (String id : sets[i]) {
            int n = nodeIndex.getInt(id);
            if (n >= 0) {
              if (count == nodes.length) {
                nodes = Arrays.copyOf(nodes, count + (count >> 1));
              }
              // Sets are distinct already; insertion keeps node-id order, and rows are short.
              int k = count++;
              while (k > first && nodes[k - 1] > n) {
                nodes[k] = nodes[k - 1];
                k--;
              }
              nodes[k] = n;
            }
          }
        }
        start[i + 1] = count;
      }
      node = nodes;
      share = currentShares.isEmpty() ? null : shares(ids, currentShares);
    }

    /**
     * Each holder's current share of its segment's load; 0 for a holder the shares do not name. A plan's own shares
     * (the usual case) are read in place, without making a row map per segment.
     */
    private double[] shares(String[] ids, Map<String, Map<String, Double>> currentShares)
    {
      final double[] shares = new double[start[ids.length]];
      final PlanShares plan = currentShares instanceof PlanShares ? (PlanShares) currentShares : null;
      for (int i = 0; i < ids.length; i++) {
        if (start[i + 1] == start[i]) {
          continue;
        }
        if (plan != null) {
          final int row = plan.indexOf(ids[i]);
          for (int k = start[i]; row >= 0 && k < start[i + 1]; k++) {
            shares[k] = plan.shareIn(row, nodeIds[node[k]]);
          }
        } else {
          final Map<String, Double> row = currentShares.get(ids[i]);
          for (int k = start[i]; row != null && k < start[i + 1]; k++) {
            final Double value = row.get(nodeIds[node[k]]);
            shares[k] = value != null && value > 0 ? value : 0;
          }
        }
      }
      return shares;
    }

    int total()
    {
      return start[start.length - 1];
    }

    /**
     * Copies segment i's nodes (and shares, if any) from {@code at} on, with an element loop, as rows are too short
     * for arraycopy.
     *
     * @return the index after the copied nodes
     */
    int copy(int i, int[] nodesInto, double[] sharesInto, int at)
    {
      for (int k = start[i]; k < start[i + 1]; k++) {
        if (share != null) {
          sharesInto[at] = share[k];
        }
        nodesInto[at++] = node[k];
      }
      return at;
    }
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
      // The hash offset to be non-negative, as IndexSort.sort wants.
      packed[i] = (((long) hashes[i] - Integer.MIN_VALUE) << 31) | i;
    }
    IndexSort.sort(packed, count);
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
