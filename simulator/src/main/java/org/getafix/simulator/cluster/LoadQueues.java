package org.getafix.simulator.cluster;

import it.unimi.dsi.fastutil.ints.IntCollection;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.realise.ChurnBudget;
import org.getafix.core.realise.ChurnLimits;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.realise.RealisePolicy;
import org.getafix.core.realise.ReplicaTarget;
import org.getafix.simulator.engine.EventLoop;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Moves replicas the way Druid's load queues do: each node loads with {@code druid.segmentCache.numLoadingThreads}
 * threads in the order of {@link Historical#LOAD_ORDER} (Druid's load queue priority), taking size / bandwidth
 * seconds. Which replicas to load and drop, in what order and within which budget, is getafix-core's
 * {@link ReplicaTarget}, the decision the extension's getafix rule and balancer strategy make; the queues only carry
 * it out, and drop a replica as soon as the decision allows (on a load's completion, not at the next round).
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
  /**
   * The latest plan's policy and round budget, which the drops on a load's completion spend too. Before the first
   * plan every segment wants only the node it is on, so there is nothing to drop.
   */
  private RealisePolicy policy = new RealisePolicy(0, LoadBeforeDrop.PLANNED_COUNT_SERVING);
  private ChurnBudget budget = new ChurnLimits(0, 0).newRound();

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

  /** See {@link Cluster#applyPlan(PlacementPlan, RealisePolicy, ChurnBudget)}. */
  void applyPlan(PlacementPlan plan, RealisePolicy policy, ChurnBudget budget)
  {
    this.policy = policy;
    this.budget = budget;
    for (int i = segments.size() - 1; i >= 0; i--) {
      final Segment segment = segments.get(i);
      final Map<String, Double> shares = plan.sharesOf(segment.id());
      if (shares.isEmpty()) {
        continue;
      }
      segment.target.clear();
      for (String holder : shares.keySet()) {
        final int node = nodeIndex.getOrDefault(holder, -1);
        if (node >= 0) {
          segment.target.add(node);
        }
      }
      if (segment.target.isEmpty()) {
        // Planned only on nodes that are gone: keep what serves.
        segment.target.addAll(segment.loaded);
        continue;
      }
      final ReplicaTarget target = targetOf(segment);
      // Any node may take a load: the planned ones are the candidates.
      for (String holder : target.loadsWithin(budget, target.planned(), shares::get, segment.sizeBytes())) {
        requestLoad(segment, nodeIndex.get(holder));
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
      footprint.countLoad(segment);
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

  /** Drops what the segment's target lets go now, most recently loaded replica first. */
  private void dropUnwanted(Segment segment)
  {
    final List<String> newestFirst = new ArrayList<>(segment.loaded.size());
    for (int i = segment.loaded.size() - 1; i >= 0; i--) {
      newestFirst.add(nodes[segment.loaded.getInt(i)].id());
    }
    for (String holder : targetOf(segment).dropsWithin(budget, newestFirst)) {
      final int node = nodeIndex.get(holder);
      segment.loaded.rem(node);
      footprint.changeMemory(node, -segment.sizeBytes(), -1);
    }
  }

  private ReplicaTarget targetOf(Segment segment)
  {
    return policy.target(segment.id(), ids(segment.loaded), ids(segment.loading), ids(segment.target));
  }

  private Set<String> ids(IntCollection indexes)
  {
    final Set<String> ids = new HashSet<>();
    indexes.forEach((int node) -> ids.add(nodes[node].id()));
    return ids;
  }
}
