package org.getafix.simulator.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the Coordinator reads about the segments at the end of a round: their access statistics and holders. */
final class RoundStats
{
  private final Historical[] nodes;
  private final SegmentCatalog segments;

  RoundStats(Historical[] nodes, SegmentCatalog segments)
  {
    this.nodes = nodes;
    this.segments = segments;
  }

  /** See {@link Cluster#currentHolders()}. */
  Map<String, Set<String>> currentHolders()
  {
    final Map<String, Set<String>> holders = new LinkedHashMap<>();
    for (Segment segment : segments.all()) {
      if (!segment.isQueryable()) {
        continue;
      }
      final Set<String> set = new LinkedHashSet<>();
      for (int i = 0; i < segment.loaded.size(); i++) {
        set.add(nodes[segment.loaded.getInt(i)].id());
      }
      for (int i = 0; i < segment.loading.size(); i++) {
        set.add(nodes[segment.loading.getInt(i)].id());
      }
      holders.put(segment.id(), set);
    }
    return holders;
  }

  /** See {@link Cluster#takeSegmentRoundStats()}. */
  List<Cluster.SegmentRoundStats> takeSegmentStats()
  {
    final List<Cluster.SegmentRoundStats> stats = new ArrayList<>(segments.size());
    for (Segment segment : segments.all()) {
      if (!segment.isQueryable()) {
        continue;
      }
      stats.add(new Cluster.SegmentRoundStats(
          segment.id(),
          segment.sizeBytes(),
          segment.accessTimeThisRound,
          segment.peakInFlightThisRound,
          segment.index() > 0 ? segments.get(segment.index() - 1).id() : null
      ));
      segment.accessTimeThisRound = 0;
      segment.peakInFlightThisRound = segment.inFlight;
    }
    return stats;
  }
}
