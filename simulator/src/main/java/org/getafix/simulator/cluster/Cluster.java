package org.getafix.simulator.cluster;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.routing.RoutingPolicy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Historicals, the segments and where their replicas are, the brokers' open-request counts, and the
 * memory they all take over time. Applies plans the way Druid's load queues do: each node loads with
 * {@code druid.segmentCache.numLoadingThreads} threads (Druid's default: max(1, cores / 6)) in the order of
 * {@link Historical#LOAD_ORDER} (Druid's load queue priority), taking size / bandwidth seconds; a replica the plan
 * no longer wants is dropped only once a wanted one is loaded in its place (load-before-drop: a segment never
 * loses its last loaded replica).
 */
public final class Cluster implements Historical.TaskListener, RoutingPolicy.BrokerView
{
  /** Told when a query's last task is done. */
  public interface QueryListener
  {
    void onQueryDone(Query query, double now);
  }

  private final EventLoop loop;
  private final Historical[] nodes;
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  private final List<Segment> segments = new ArrayList<>();
  private final Set<String> segmentIds = new HashSet<>();
  /** Indices of queryable segments, oldest first (so age 0 is the last element). */
  private final IntArrayList queryable = new IntArrayList();
  private final int[][] open;
  private final double loadBytesPerSecond;
  private final RoutingPolicy routing;
  private QueryListener queryListener = (q, t) -> {
  };

  // Memory and replica accounting over the measured window [measureFrom, measureTo].
  private final double measureFrom;
  private final double measureTo;
  private long totalBytes;
  private int totalReplicas;
  private double lastAccounting;
  private double byteSeconds;
  private double replicaSeconds;
  private double segmentSeconds;
  private long replicaLoads;
  private int handoffs;

  public Cluster(
      EventLoop loop,
      List<NodeSpec> specs,
      int brokers,
      double loadBytesPerSecond,
      RoutingPolicy routing,
      double measureFrom,
      double measureTo
  )
  {
    this.loop = loop;
    this.nodes = new Historical[specs.size()];
    for (int i = 0; i < specs.size(); i++) {
      final NodeSpec spec = specs.get(i);
      nodes[i] = new Historical(loop, i, spec.id(), spec.cores(), spec.speed(), spec.hardwareTier(), this);
      nodes[i].setLoadingThreads(Math.max(1, spec.cores() / 6));
      if (nodeIndex.put(spec.id(), i) != null) {
        throw new IllegalArgumentException("duplicate node id [" + spec.id() + "]");
      }
    }
    this.open = new int[brokers][nodes.length];
    this.loadBytesPerSecond = loadBytesPerSecond;
    this.routing = routing;
    this.measureFrom = measureFrom;
    this.measureTo = measureTo;
  }

  /** A node to build: id, cores, speed factor, hardware tier (null if none). */
  public record NodeSpec(String id, int cores, double speed, String hardwareTier)
  {
  }

  public void setQueryListener(QueryListener listener)
  {
    this.queryListener = listener;
  }

  public Historical[] nodes()
  {
    return nodes;
  }

  public List<Segment> segments()
  {
    return Collections.unmodifiableList(segments);
  }

  public int nodeIndex(String id)
  {
    return nodeIndex.getOrDefault(id, -1);
  }

  public int queryableCount()
  {
    return queryable.size();
  }

  /** The queryable segment {@code age} hours back: 0 is the newest. */
  public Segment queryableByAge(int age)
  {
    return segments.get(queryable.getInt(queryable.size() - 1 - age));
  }

  /** A segment that exists from the start, already loaded on {@code node} (history before the run). */
  public Segment addLoadedSegment(String id, long sizeBytes, int node)
  {
    final Segment segment = newSegment(id, sizeBytes);
    segment.target.add(node);
    segment.loaded.add(node);
    markQueryable(segment);
    changeMemory(node, sizeBytes, 1);
    return segment;
  }

  /**
   * A segment handed off now; queryable once its first load completes. Like Druid's round-robin assignment of
   * unavailable segments ({@code useRoundRobinSegmentAssignment}), handoffs go to the nodes in turn; the next
   * plan then replicates and moves it.
   */
  public Segment addArrivingSegment(String id, long sizeBytes)
  {
    final Segment segment = newSegment(id, sizeBytes);
    accountSegments();
    final int node = handoffs++ % nodes.length;
    segment.target.add(node);
    requestLoad(segment, node);
    return segment;
  }

  private Segment newSegment(String id, long sizeBytes)
  {
    if (!segmentIds.add(id)) {
      throw new IllegalArgumentException("duplicate segment id [" + id + "]");
    }
    final Segment segment = new Segment(segments.size(), id, sizeBytes);
    segments.add(segment);
    return segment;
  }

  private void markQueryable(Segment segment)
  {
    // Segments nearly always become queryable in creation order; keep the list sorted by creation anyway.
    int pos = queryable.size();
    while (pos > 0 && queryable.getInt(pos - 1) > segment.index()) {
      pos--;
    }
    queryable.add(pos, segment.index());
  }

  /** Routes and submits one segment's task of {@code query}; the segment must be queryable. */
  public void dispatch(Query query, Segment segment, double work, int broker)
  {
    final int node = routing.choose(broker, segment, this);
    open[broker][node]++;
    segment.inFlight++;
    segment.accessesTotal++;
    if (segment.inFlight > segment.peakInFlightThisRound) {
      segment.peakInFlightThisRound = segment.inFlight;
    }
    query.remainingTasks++;
    // Access time is charged when the task arrives, not when it finishes: a saturated holder finishes at most its
    // own capacity per round, so counting finished work would hide exactly the demand that needs more replicas.
    // In steady state both counts agree.
    segment.accessTimeThisRound += work / nodes[node].speedAt(loop.now());
    nodes[node].submit(new Task(query, segment, node, work, loop.now()));
  }

  @Override
  public int openRequests(int broker, int node)
  {
    return open[broker][node];
  }

  @Override
  public void onTaskDone(Task task, double serviceSeconds)
  {
    open[task.query.client][task.node]--;
    routing.onResponse(task.query.client, task.node, loop.now() - task.enqueuedAt);
    task.segment.inFlight--;
    if (--task.query.remainingTasks == 0) {
      queryListener.onQueryDone(task.query, loop.now());
    }
  }

  /** Makes the cluster converge to {@code plan} with no limit on the loads it issues. */
  public void applyPlan(PlacementPlan plan)
  {
    applyPlan(plan, Integer.MAX_VALUE, 1);
  }

  /**
   * Makes the cluster converge to {@code plan} the way the extension realises a plan in one Coordinator run;
   * segments the plan does not mention keep their replicas.
   *
   * <p>At most {@code maxPlanLoads} new loads are issued (the extension's {@code maxLoadsPerRound}, the churn
   * budget of a run), except loads that bring a segment up to {@code floor} replicas, which are never throttled.
   * Druid's RunRules visits segments newest first, and the getafix strategy offers a segment's planned nodes
   * largest share first, so the budget goes in that order. A planned node that did not get its load this round
   * is still wanted: the replica it replaces is not dropped (the getafix rule asks for |loaded ∪ planned|
   * replicas until every planned node serves), and the next round's plan, which sees where replicas really are,
   * decides again.
   */
  public void applyPlan(PlacementPlan plan, int maxPlanLoads, int floor)
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
        final int node = nodeIndex(holder.getKey());
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
      changeMemory(node.index(), segment.sizeBytes(), 1);
      replicaLoads++;
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
      markQueryable(segment);
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
        changeMemory(node, -segment.sizeBytes(), -1);
      }
    }
  }

  private void changeMemory(int node, long deltaBytes, int deltaReplicas)
  {
    accountSegments();
    totalBytes += deltaBytes;
    totalReplicas += deltaReplicas;
    final Historical h = nodes[node];
    h.bytesHeld += deltaBytes;
    if (loop.now() >= measureFrom && h.bytesHeld > h.peakBytes) {
      h.peakBytes = h.bytesHeld;
    }
  }

  /** Integrates memory, replicas and segment count up to now, inside the measured window. */
  private void accountSegments()
  {
    final double now = Math.min(loop.now(), measureTo);
    final double from = Math.max(lastAccounting, measureFrom);
    if (now > from) {
      byteSeconds += totalBytes * (now - from);
      replicaSeconds += totalReplicas * (now - from);
      segmentSeconds += segments.size() * (now - from);
    }
    lastAccounting = Math.max(lastAccounting, loop.now());
  }

  /** Call once when the measured window opens, so that the peak includes what is held at that moment. */
  public void openMeasurementWindow()
  {
    accountSegments();
    for (Historical h : nodes) {
      h.peakBytes = Math.max(h.peakBytes, h.bytesHeld);
    }
  }

  /** Memory, replica and segment averages over the measured window; call at or after its end. */
  public Footprint footprint()
  {
    accountSegments();
    final double window = measureTo - measureFrom;
    long peak = 0;
    for (Historical h : nodes) {
      peak = Math.max(peak, h.peakBytes);
    }
    return new Footprint(
        byteSeconds / window,
        peak,
        replicaSeconds / window,
        segmentSeconds / window,
        replicaLoads
    );
  }

  /**
   * @param meanTotalBytes    time-averaged sum over nodes of bytes held (loaded or loading)
   * @param maxNodeBytes      the most bytes any one node held in the window
   * @param meanReplicas      time-averaged replica count
   * @param meanSegments      time-averaged segment count
   * @param replicaLoads      loads started over the whole run (churn)
   */
  public record Footprint(
      double meanTotalBytes,
      long maxNodeBytes,
      double meanReplicas,
      double meanSegments,
      long replicaLoads
  )
  {
  }

  /**
   * Queryable segment id → ids of the nodes holding or loading it: the planner's "current holders". Segments not
   * served anywhere yet are left out, as in the plan input (see {@link #takeSegmentRoundStats}).
   */
  public Map<String, Set<String>> currentHolders()
  {
    final Map<String, Set<String>> holders = new LinkedHashMap<>();
    for (Segment segment : segments) {
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

  /**
   * Per-segment statistics of the round that ends now, then resets them; only for segments served by some node.
   * The extension's planner (GetafixPlanner) builds its input from the segments the Historicals serve, so a
   * segment handed off but not loaded anywhere yet is not in the plan: Druid's own rules load it, and the plan
   * takes it up at the first round it is served in, with the access time it drew by then.
   */
  public List<SegmentRoundStats> takeSegmentRoundStats()
  {
    final List<SegmentRoundStats> stats = new ArrayList<>(segments.size());
    for (Segment segment : segments) {
      if (!segment.isQueryable()) {
        continue;
      }
      stats.add(new SegmentRoundStats(
          segment.id(),
          segment.sizeBytes(),
          segment.accessTimeThisRound,
          segment.peakInFlightThisRound
      ));
      segment.accessTimeThisRound = 0;
      segment.peakInFlightThisRound = segment.inFlight;
    }
    return stats;
  }

  /**
   * @param accessTimeSeconds     wall seconds of computing the segment's tasks that arrived this round ask for
   *                              (thesis §2.2's access time, counted at arrival)
   * @param peakConcurrentAccesses most tasks on the segment at once this round (Scarlett's signal)
   */
  public record SegmentRoundStats(String segmentId, long sizeBytes, double accessTimeSeconds, int peakConcurrentAccesses)
  {
  }
}
