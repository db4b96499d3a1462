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
 * broken by id; segments keep their input index, and ties between segments are broken by {@link #compareSegments},
 * a fixed function of the ids, so results do not depend on the input order either.
 */
final class PlacementProblem
{
  final PlacementConstraints constraints;
  final int segmentCount;
  final int nodeCount;
  final String[] segmentIds;
  final double[] load;
  final long[] size;
  final String[] nodeIds;
  final double[] capacity;
  final long[] maxSize;
  private final int[] idHash;
  private final Map<String, Set<String>> currentHolders;
  private int[] idOrder;
  // Current holders resolved to node indices: those of segment s are holderNode[holderStart[s], holderStart[s+1]).
  private int[] holderStart;
  private int[] holderNode;

  PlacementProblem(PlacementInput input)
  {
    this.constraints = input.constraints();
    final List<SegmentLoad> segments = input.segments();
    segmentCount = segments.size();
    segmentIds = new String[segmentCount];
    load = new double[segmentCount];
    size = new long[segmentCount];
    idHash = new int[segmentCount];
    for (int s = 0; s < segmentCount; s++) {
      final SegmentLoad segment = segments.get(s);
      segmentIds[s] = segment.segmentId();
      load[s] = segment.load();
      size[s] = segment.sizeBytes();
      idHash[s] = segmentIds[s].hashCode();
    }

    final List<NodeCapacity> nodes = input.nodes();
    nodeCount = nodes.size();
    final int[] order = new int[nodeCount];
    for (int i = 0; i < nodeCount; i++) {
      order[i] = i;
    }
    IntArrays.quickSort(order, (a, b) -> nodes.get(a).nodeId().compareTo(nodes.get(b).nodeId()));
    nodeIds = new String[nodeCount];
    capacity = new double[nodeCount];
    maxSize = new long[nodeCount];
    for (int n = 0; n < nodeCount; n++) {
      final NodeCapacity node = nodes.get(order[n]);
      nodeIds[n] = node.nodeId();
      capacity[n] = node.capacity();
      maxSize[n] = node.maxSizeBytes();
    }
    currentHolders = input.currentHolders();
  }

  /**
   * Orders segments by id for tie-breaking: by the id's String hash (specified by the JDK, so stable across runs),
   * then by the id itself. Cheaper than a lexicographic order, which matters when a million segments tie (all at
   * zero load), and just as deterministic.
   */
  int compareSegments(int a, int b)
  {
    final int byHash = Integer.compare(idHash[a], idHash[b]);
    return byHash != 0 ? byHash : segmentIds[a].compareTo(segmentIds[b]);
  }

  /**
   * All segment indices in {@link #compareSegments} order, computed once: phases filter it to lay their segments
   * out in id order before a stable {@link IndexSort}. One sort of packed (hash, index) longs; only segments whose
   * ids' hashes collide need a string comparison.
   */
  int[] idOrder()
  {
    if (idOrder == null) {
      final long[] packed = new long[segmentCount];
      for (int s = 0; s < segmentCount; s++) {
        packed[s] = ((long) idHash[s] << 31) | s;
      }
      Arrays.sort(packed);
      final int[] order = new int[segmentCount];
      for (int i = 0; i < segmentCount; i++) {
        order[i] = (int) (packed[i] & Integer.MAX_VALUE);
      }
      int runStart = 0;
      for (int i = 1; i <= segmentCount; i++) {
        if (i == segmentCount || idHash[order[i]] != idHash[order[runStart]]) {
          if (i - runStart > 1) {
            IntArrays.quickSort(order, runStart, i, this::compareSegments);
          }
          runStart = i;
        }
      }
      idOrder = order;
    }
    return idOrder;
  }

  /**
   * The nodes that hold segment {@code s} now, in node order; unknown node ids are ignored. All segments' holders
   * are resolved to node indices once, on first use, into one flat array: a phase that asks for every segment
   * (the fit, the floor, the balancer) then pays an array read, not a string-hashing map lookup, and a round
   * without current holders pays nothing.
   */
  int holderCount(int s)
  {
    resolveHolders();
    return holderStart[s + 1] - holderStart[s];
  }

  /** The {@code i}-th node holding {@code s} now, {@code i < holderCount(s)}. */
  int holder(int s, int i)
  {
    return holderNode[holderStart[s] + i];
  }

  /** Whether node {@code n} holds segment {@code s} now. */
  boolean holdsNow(int s, int n)
  {
    resolveHolders();
    for (int i = holderStart[s]; i < holderStart[s + 1]; i++) {
      if (holderNode[i] == n) {
        return true;
      }
    }
    return false;
  }

  private void resolveHolders()
  {
    if (holderStart != null) {
      return;
    }
    final int[] start = new int[segmentCount + 1];
    if (currentHolders.isEmpty()) {
      holderNode = IntArrays.EMPTY_ARRAY;
      holderStart = start;
      return;
    }
    final Object2IntOpenHashMap<String> nodeIndex = new Object2IntOpenHashMap<>(nodeCount);
    nodeIndex.defaultReturnValue(-1);
    for (int n = 0; n < nodeCount; n++) {
      nodeIndex.put(nodeIds[n], n);
    }
    int[] nodes = new int[Math.max(16, currentHolders.size() * 2)];
    int count = 0;
    for (int s = 0; s < segmentCount; s++) {
      start[s] = count;
      final Set<String> holders = currentHolders.get(segmentIds[s]);
      if (holders == null) {
        continue;
      }
      for (String node : holders) {
        final int n = nodeIndex.getInt(node);
        if (n >= 0) {
          if (count == nodes.length) {
            nodes = Arrays.copyOf(nodes, count + (count >> 1));
          }
          nodes[count++] = n;
        }
      }
      // Sets are distinct already; sort for node-id order.
      Arrays.sort(nodes, start[s], count);
    }
    start[segmentCount] = count;
    holderNode = nodes;
    holderStart = start;
  }
}
