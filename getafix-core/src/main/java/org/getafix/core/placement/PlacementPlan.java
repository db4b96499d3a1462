package org.getafix.core.placement;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The output of one planning round: segment → {node → share of that segment's query load}. The shares of a
 * segment sum to 1; a share of 0 means the node holds a replica that should receive no queries (a floor
 * replica, or one kept by the balancer). The same shares are the ABR routing table (thesis Table 3.1).
 * Immutable.
 */
public final class PlacementPlan
{
  private final Map<String, Map<String, Double>> shares;
  private final List<UnplacedSegment> unplaced;
  private final int totalReplicas;

  public PlacementPlan(Map<String, Map<String, Double>> shares, List<UnplacedSegment> unplaced)
  {
    final Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
    int replicas = 0;
    for (Map.Entry<String, Map<String, Double>> e : shares.entrySet()) {
      copy.put(e.getKey(), Map.copyOf(e.getValue()));
      replicas += e.getValue().size();
    }
    this.shares = java.util.Collections.unmodifiableMap(copy);
    this.unplaced = List.copyOf(unplaced);
    this.totalReplicas = replicas;
  }

  /** segment id → node id → share of the segment's query load. */
  public Map<String, Map<String, Double>> shares()
  {
    return shares;
  }

  /** The nodes planned to hold {@code segmentId}; empty for a segment the plan does not know. */
  public Set<String> holders(String segmentId)
  {
    final Map<String, Double> s = shares.get(segmentId);
    return s == null ? Set.of() : s.keySet();
  }

  public int totalReplicas()
  {
    return totalReplicas;
  }

  /** Segments the plan could not give their floor or wanted replicas, with the reason; empty when feasible. */
  public List<UnplacedSegment> unplaced()
  {
    return unplaced;
  }
}
