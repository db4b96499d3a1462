package org.getafix.core.placement.plan;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The output of one planning round: segment → {node → share of that segment's query load}. The shares of a
 * segment sum to 1; a share of 0 means the node holds a replica that should receive no queries (a floor
 * replica, or one kept by the balancer). A segment with no load at all has its shares split evenly, so that a
 * query that does arrive has somewhere to go. The same shares are the ABR routing table (thesis Table 3.1).
 * Immutable; iteration orders are deterministic (segments in the order the strategy emitted them, nodes within a
 * segment by node id).
 */
public final class PlacementPlan
{
  private static final PlacementPlan EMPTY = new PlacementPlan(Map.of(), List.of());

  private final Map<String, Map<String, Double>> shares;
  private final List<UnplacedSegment> unplaced;
  private final int totalReplicas;

  /** Copies its arguments; the inner maps keep their iteration order. */
  public PlacementPlan(Map<String, Map<String, Double>> shares, List<UnplacedSegment> unplaced)
  {
    this(Collections.unmodifiableMap(copy(shares)), List.copyOf(unplaced), countReplicas(shares));
  }

  /** Takes ownership of an immutable map the caller built: no copy of a million-entry map. */
  private PlacementPlan(Map<String, Map<String, Double>> shares, List<UnplacedSegment> unplaced, int totalReplicas)
  {
    this.shares = shares;
    this.unplaced = unplaced;
    this.totalReplicas = totalReplicas;
  }

  /**
   * A plan over rows a strategy built, taking ownership of the arrays: no copy of a million rows. Segment i's row is
   * {@code nodeIds} and {@code shares} [rowStart[i], rowStart[i+1]).
   *
   * @param segmentIds distinct ids, in the order the plan iterates them
   * @param rowStart   segmentIds.length + 1 offsets; each row's node ids sorted and distinct
   * @param unplaced   owned too
   */
  public static PlacementPlan ofRows(
      String[] segmentIds,
      int[] rowStart,
      String[] nodeIds,
      double[] shares,
      List<UnplacedSegment> unplaced
  )
  {
    return new PlacementPlan(
        new PlanShares(segmentIds, rowStart, nodeIds, shares),
        Collections.unmodifiableList(unplaced),
        rowStart[segmentIds.length]
    );
  }

  private static int countReplicas(Map<String, Map<String, Double>> shares)
  {
    int replicas = 0;
    for (Map<String, Double> s : shares.values()) {
      replicas += s.size();
    }
    return replicas;
  }

  public static PlacementPlan empty()
  {
    return EMPTY;
  }

  private static Map<String, Map<String, Double>> copy(Map<String, Map<String, Double>> shares)
  {
    final Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
    for (Map.Entry<String, Map<String, Double>> e : shares.entrySet()) {
      copy.put(e.getKey(), Collections.unmodifiableMap(new TreeMap<>(e.getValue())));
    }
    return copy;
  }

  /** segment id → node id → share of the segment's query load. */
  public Map<String, Map<String, Double>> shares()
  {
    return shares;
  }

  /** node id → share of {@code segmentId}'s query load; empty for a segment the plan does not know. */
  public Map<String, Double> sharesOf(String segmentId)
  {
    final Map<String, Double> s = shares.get(segmentId);
    return s == null ? Map.of() : s;
  }

  /** The nodes planned to hold {@code segmentId}; empty for a segment the plan does not know. */
  public Set<String> holders(String segmentId)
  {
    return sharesOf(segmentId).keySet();
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

  /** node id → number of replicas planned on it, by node id; nodes with no replica are absent. */
  public Map<String, Integer> segmentCounts()
  {
    final Map<String, Integer> counts = new TreeMap<>();
    for (Map<String, Double> s : shares.values()) {
      for (String node : s.keySet()) {
        counts.merge(node, 1, Integer::sum);
      }
    }
    return counts;
  }

  /**
   * node id → query load the plan routes to it, Σ share × load over its replicas, by node id: what a node is
   * expected to carry if the segments' loads hold. Segments the plan does not know contribute nothing.
   */
  public Map<String, Double> nodeLoads(Collection<SegmentLoad> segments)
  {
    final Map<String, Double> loads = new TreeMap<>();
    for (SegmentLoad segment : segments) {
      for (Map.Entry<String, Double> e : sharesOf(segment.segmentId()).entrySet()) {
        loads.merge(e.getKey(), e.getValue() * segment.load(), Double::sum);
      }
    }
    return loads;
  }

  @Override
  public boolean equals(Object o)
  {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PlacementPlan)) {
      return false;
    }
    final PlacementPlan that = (PlacementPlan) o;
    return shares.equals(that.shares) && unplaced.equals(that.unplaced);
  }

  @Override
  public int hashCode()
  {
    return 31 * shares.hashCode() + unplaced.hashCode();
  }

  @Override
  public String toString()
  {
    return "PlacementPlan{replicas=" + totalReplicas + ", segments=" + shares.size()
           + ", unplaced=" + unplaced.size() + ", shares=" + (shares.size() <= 20 ? shares : "...") + "}";
  }
}
