package org.getafix.core.placement;

import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;

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
  private int[][] currentHolderNodes;

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
   * The nodes that hold segment {@code s} now, in node order; unknown ids are ignored. Built on first use, so a
   * round without current holders pays nothing for the feature.
   */
  int[] currentHolders(int s)
  {
    if (currentHolders.isEmpty()) {
      return IntArrays.EMPTY_ARRAY;
    }
    if (currentHolderNodes == null) {
      currentHolderNodes = indexCurrentHolders();
    }
    final int[] holders = currentHolderNodes[s];
    return holders == null ? IntArrays.EMPTY_ARRAY : holders;
  }

  private int[][] indexCurrentHolders()
  {
    final Object2IntOpenHashMap<String> segmentIndex = new Object2IntOpenHashMap<>(segmentCount);
    segmentIndex.defaultReturnValue(-1);
    for (int s = 0; s < segmentCount; s++) {
      segmentIndex.put(segmentIds[s], s);
    }
    final Object2IntOpenHashMap<String> nodeIndex = new Object2IntOpenHashMap<>(nodeCount);
    nodeIndex.defaultReturnValue(-1);
    for (int n = 0; n < nodeCount; n++) {
      nodeIndex.put(nodeIds[n], n);
    }
    final int[][] result = new int[segmentCount][];
    for (Map.Entry<String, Set<String>> e : currentHolders.entrySet()) {
      final int s = segmentIndex.getInt(e.getKey());
      if (s < 0) {
        continue;
      }
      final int[] nodes = e.getValue().stream().mapToInt(nodeIndex::getInt).filter(n -> n >= 0).sorted().distinct().toArray();
      result[s] = nodes;
    }
    return result;
  }
}
