package org.getafix.core.placement;

import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectOpenHashSet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one planning round sees.
 *
 * @param segments       per-segment load and size; segment ids are unique
 * @param nodes          per-node capacity and memory limit; node ids are unique
 * @param constraints    replica floor and cap, balancer bound
 * @param currentHolders segment id → ids of the nodes that hold it now; may be empty. Strategies may use it to
 *                       prefer plans that move less data; ids not among {@code segments}/{@code nodes} are ignored
 * @param currentShares  segment id → node id → share of the segment's load the node is routed in the plan being
 *                       carried out (the last round's {@link PlacementPlan#shares()}); may be empty. With a floor of
 *                       two or more replicas a segment has holders that carry load and holders that carry none, and
 *                       the sticky fit keeps the load on the holders that carried it, largest share first, so that a
 *                       plan given its own holders and shares comes out the same; without shares it cannot tell them
 *                       apart. Ids not among {@code segments}/{@code nodes} are ignored. Not copied when it is a
 *                       plan's own shares (immutable, and a million rows)
 */
public record PlacementInput(
    List<SegmentLoad> segments,
    List<NodeCapacity> nodes,
    PlacementConstraints constraints,
    Map<String, Set<String>> currentHolders,
    Map<String, Map<String, Double>> currentShares
)
{
  /**
   * @throws IllegalArgumentException on a null list, map or element, or a duplicate segment or node id (named)
   */
  public PlacementInput
  {
    if (segments == null || nodes == null || currentHolders == null || currentShares == null) {
      throw new IllegalArgumentException("segments, nodes, currentHolders and currentShares must not be null");
    }
    if (constraints == null) {
      throw new IllegalArgumentException("constraints must not be null");
    }
    segments = Collections.unmodifiableList(new ArrayList<>(segments));
    nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
    final Set<String> segmentIds = new ObjectOpenHashSet<>(segments.size());
    for (int i = 0; i < segments.size(); i++) {
      final SegmentLoad s = segments.get(i);
      if (s == null) {
        throw new IllegalArgumentException("segments[" + i + "] must not be null");
      }
      if (!segmentIds.add(s.segmentId())) {
        throw new IllegalArgumentException("duplicate segment id [" + s.segmentId() + "]");
      }
    }
    final Set<String> nodeIds = new ObjectOpenHashSet<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      final NodeCapacity n = nodes.get(i);
      if (n == null) {
        throw new IllegalArgumentException("nodes[" + i + "] must not be null");
      }
      if (!nodeIds.add(n.nodeId())) {
        throw new IllegalArgumentException("duplicate node id [" + n.nodeId() + "]");
      }
    }
    // Entries naming unknown segments or nodes are not errors (the cluster view and the stats race), they are
    // simply not used; null keys or values cannot be used either and are dropped the same way. An open-addressing
    // map of compact sets: the planner looks a million of them up per round, and chasing HashMap nodes and
    // LinkedHashSet entries there costs more than the placement itself.
    final Map<String, Set<String>> holders = new Object2ObjectOpenHashMap<>(currentHolders.size());
    for (Map.Entry<String, Set<String>> e : currentHolders.entrySet()) {
      if (e.getKey() != null && e.getValue() != null) {
        holders.put(e.getKey(), compact(e.getValue()));
      }
    }
    currentHolders = Collections.unmodifiableMap(holders);
    if (!(currentShares instanceof PlanShares)) {
      final Map<String, Map<String, Double>> shares = new Object2ObjectOpenHashMap<>(currentShares.size());
      for (Map.Entry<String, Map<String, Double>> e : currentShares.entrySet()) {
        if (e.getKey() != null && e.getValue() != null) {
          final Map<String, Double> row = new Object2ObjectOpenHashMap<>(e.getValue().size());
          e.getValue().forEach((node, share) -> {
            if (node != null && share != null) {
              row.put(node, share);
            }
          });
          shares.put(e.getKey(), Collections.unmodifiableMap(row));
        }
      }
      currentShares = Collections.unmodifiableMap(shares);
    }
  }

  /** An immutable copy without null ids (Set.copyOf returns an immutable set as is). */
  private static Set<String> compact(Set<String> nodeIds)
  {
    for (String id : nodeIds) {
      if (id == null) {
        final Set<String> copy = new LinkedHashSet<>(nodeIds);
        copy.remove(null);
        return Set.copyOf(copy);
      }
    }
    return Set.copyOf(nodeIds);
  }

  public PlacementInput(
      List<SegmentLoad> segments,
      List<NodeCapacity> nodes,
      PlacementConstraints constraints,
      Map<String, Set<String>> currentHolders
  )
  {
    this(segments, nodes, constraints, currentHolders, Map.of());
  }

  public PlacementInput(List<SegmentLoad> segments, List<NodeCapacity> nodes, PlacementConstraints constraints)
  {
    this(segments, nodes, constraints, Map.of(), Map.of());
  }
}
