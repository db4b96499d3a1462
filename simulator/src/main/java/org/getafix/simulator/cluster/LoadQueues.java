package org.getafix.simulator.cluster;

import org.getafix.core.placement.PlacementPlan;
import org.getafix.simulator.engine.EventLoop;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Moves replicas the way Druid's load queues do: each node loads with {@code druid.segmentCache.numLoadingThreads}
 * threads in the order of {@link Historical#LOAD_ORDER} (Druid's load queue priority), taking size / bandwidth
 * seconds; a replica the plan no longer wants is dropped only once a wanted one is loaded in its place
 * (load-before-drop: a segment never loses its last loaded replica).
 */
final class LoadQueues
{
  private final EventLoop loop;
  private final Historical[] nodes;
  private final Map<String, Integer> nodeIndex;
  private final SegmentCatalog segments;
  private final FootprintMeter footprint;
  private final double loadBytesPerSecond;
  private int handoffs;

  LoadQueues(
      EventLoop loop,
      Historical[] nodes,
      Map<String, Integer> nodeIndex,
      SegmentCatalog segments,
      FootprintMeter footprint,
      double loadBytesPerSecond
  )
  {
    this.loop = loop;
    this.nodes = nodes;
    this.nodeIndex = nodeIndex;
    this.segments = segments;
    this.footprint = footprint;
    this.loadBytesPerSecond = loadBytesPerSecond;
  }

  /**
   * Like Druid's round-robin assignment of unavailable segments ({@code useRoundRobinSegmentAssignment}), handoffs
   * go to the nodes in turn; the next plan then replicates and moves the segment.
   */
  void handOff(Segment segment)
  {
    final int node = handoffs++ % nodes.length;
    segment.target.add(node);
    requestLoad(segment, node);
  }

  /** See {@link Cluster#applyPlan(PlacementPlan, int, int)}. */
  void applyPlan(PlacementPlan plan, int maxPlanLoads, int floor)
  {
    int budget = maxPlanLoads;
    for (int i = segments.size() - 1; i >= 0; i--) {
      final Segment segment = segments.get(i);
      final Map<String, Double> shares = plan.sharesOf(segment.id());
      if (shares.isEmpty()) {
        continue;
      }
      final List<Map.Entry<String, Double>> planned = new ArrayList<>(shares.entrySet());
      planned.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
      segment.target.clear();
      for (Map.Entry<String, Double> holder : planned) {
        final int node = nodeIndex.getOrDefault(holder.getKey(), -1);
        if (node < 0) {
          continue;
        }
        segment.target.add(node);
        if (segment.loaded.contains(node) || segment.loading.contains(node)) {
          continue;
        }
        if (segment.loaded.size() + segment.loading.size() < floor) {
          requestLoad(segment, node);
        } else if (budget > 0) {
          budget--;
          requestLoad(segment, node);
        }
      }
      if (segment.target.isEmpty()) {
        segment.target.addAll(segment.loaded);
        continue;
      }
      dropUnwanted(segment);
    }
  }

  private void requestLoad(Segment segment, int node)
  {
    if (segment.loaded.contains(node) || segment.loading.contains(node)) {
      return;
    }
    segment.loading.add(node);
    nodes[node].loadQueue.add(segment);
    startNextLoad(nodes[node]);
  }

  private void startNextLoad(Historical node)
  {
    while (node.loadsInProgress < node.loadingThreads() && !node.loadQueue.isEmpty()) {
      final Segment segment = node.loadQueue.poll();
      if (!segment.target.contains(node.index())) {
        // The plan changed its mind before the load began: cancel, as Druid does for a queued load.
        segment.loading.rem(node.index());
        continue;
      }
      node.loadsInProgress++;
      footprint.changeMemory(node.index(), segment.sizeBytes(), 1);
      footprint.countLoad();
      loop.scheduleAfter(segment.sizeBytes() / loadBytesPerSecond, () -> finishLoad(node, segment));
    }
  }

  private void finishLoad(Historical node, Segment segment)
  {
    node.loadsInProgress--;
    segment.loading.rem(node.index());
    final boolean wasQueryable = segment.isQueryable();
    segment.loaded.add(node.index());
    if (!wasQueryable) {
      segments.markQueryable(segment);
    }
    dropUnwanted(segment);
    startNextLoad(node);
  }

  /**
   * Drops replicas the plan no longer wants, but only while the segment keeps at least as many loaded replicas
   * as the plan asks for, as Druid's coordinator does (it drops only over-replicated segments): a moved replica
   * is dropped once its replacement serves, so the segment never loses serving capacity, let alone its last copy.
   */
  private void dropUnwanted(Segment segment)
  {
    for (int i = segment.loaded.size() - 1; i >= 0 && segment.loaded.size() > segment.target.size(); i--) {
      final int node = segment.loaded.getInt(i);
      if (!segment.target.contains(node)) {
        segment.loaded.removeInt(i);
        footprint.changeMemory(node, -segment.sizeBytes(), -1);
      }
    }
  }
}
