package org.getafix.simulator.cluster;

import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.realise.ChurnBudget;
import org.getafix.core.realise.ChurnLimits;
import org.getafix.core.realise.LoadBeforeDrop;
import org.getafix.core.realise.RealisePolicy;
import org.getafix.simulator.engine.EventLoop;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Historicals, the segments and where their replicas are: the simulated cluster as the driver and the
 * Coordinator see it. Each concern has its own part: {@link QueryDispatcher} routes and runs query tasks,
 * {@link LoadQueues} loads and drops replicas as a plan asks, {@link FootprintMeter} integrates the memory they
 * take, and {@link RoundStats} gives the Coordinator each round's segment statistics.
 */
public final class Cluster
{
  /** Told when a query's last task is done. */
  public interface QueryListener
  {
    void onQueryDone(Query query, double now);
  }

  private final Historical[] nodes;
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  private final SegmentCatalog segments = new SegmentCatalog();
  private final QueryDispatcher dispatcher;
  private final FootprintMeter footprint;
  private final LoadQueues loadQueues;
  private final RoundStats roundStats;

  public Cluster(
      EventLoop loop,
      List<NodeSpec> specs,
      int brokers,
      double loadBytesPerSecond,
      double loadCpuCores,
      RoutingPolicy routing,
      double measureFrom,
      double measureTo
  )
  {
    this.nodes = new Historical[specs.size()];
    this.dispatcher = new QueryDispatcher(loop, nodes, brokers, routing);
    for (int i = 0; i < specs.size(); i++) {
      final NodeSpec spec = specs.get(i);
      nodes[i] = new Historical(loop, i, spec.id(), spec.cores(), spec.speed(), spec.hardwareTier(), dispatcher);
      nodes[i].setLoadingThreads(Math.max(1, spec.cores() / 6));
      nodes[i].setProcessingThreads(spec.processingThreads());
      nodes[i].setLoadCpuCores(loadCpuCores);
      if (nodeIndex.put(spec.id(), i) != null) {
        throw new IllegalArgumentException("duplicate node id [" + spec.id() + "]");
      }
    }
    this.footprint = new FootprintMeter(loop, nodes, segments, measureFrom, measureTo);
    this.loadQueues = new LoadQueues(
        loop,
        nodes,
        Collections.unmodifiableMap(nodeIndex),
        segments,
        footprint,
        loadBytesPerSecond
    );
    this.roundStats = new RoundStats(nodes, segments);
  }

  /**
   * A node to build: id, cores, speed factor, hardware tier (null if none), and the processing threads it reports
   * (see {@link Historical#setProcessingThreads}).
   */
  public record NodeSpec(String id, int cores, double speed, String hardwareTier, int processingThreads)
  {
    /** A node that reports its cores as processing threads. */
    public NodeSpec(String id, int cores, double speed, String hardwareTier)
    {
      this(id, cores, speed, hardwareTier, cores);
    }
  }

  public void setQueryListener(QueryListener listener)
  {
    dispatcher.setQueryListener(listener);
  }

  /**
   * CPU seconds at speed 1 a Historical spends on each query it is asked, besides the scans: Druid's per query work
   * outside its processing threads, which {@code query/cpu/time} does not count. 0 unless set.
   */
  public void setQueryOverhead(double seconds)
  {
    if (!(seconds >= 0) || !Double.isFinite(seconds)) {
      throw new IllegalArgumentException("query overhead must be a finite number >= 0, got [" + seconds + "]");
    }
    dispatcher.setQueryOverhead(seconds);
  }

  /**
   * Sends segments' shares of queries more than once as {@code redundancy} decides, the first copy to answer winning;
   * without it (the default), each share runs once on the holder routing chose.
   */
  public void setRedundancy(RedundancyPolicy redundancy)
  {
    dispatcher.setRedundancy(redundancy);
  }

  public Historical[] nodes()
  {
    return nodes;
  }

  public List<Segment> segments()
  {
    return segments.all();
  }

  public int nodeIndex(String id)
  {
    return nodeIndex.getOrDefault(id, -1);
  }

  public int queryableCount()
  {
    return segments.queryableCount();
  }

  /** The queryable segment {@code age} hours back: 0 is the newest. */
  public Segment queryableByAge(int age)
  {
    return segments.queryableByAge(age);
  }

  /** A segment that exists from the start, already loaded on {@code node} (history before the run). */
  public Segment addLoadedSegment(String id, long sizeBytes, int node)
  {
    final Segment segment = segments.create(id, sizeBytes);
    segment.target.add(node);
    segment.loaded.add(node);
    segments.markQueryable(segment);
    footprint.changeMemory(node, sizeBytes, 1);
    return segment;
  }

  /** A segment handed off now; queryable once its first load completes (see {@link LoadQueues#handOff}). */
  public Segment addArrivingSegment(String id, long sizeBytes)
  {
    final Segment segment = segments.create(id, sizeBytes);
    footprint.accountSegments();
    loadQueues.handOff(segment);
    return segment;
  }

  /** Routes and submits one segment's task of {@code query}; the segment must be queryable. */
  public void dispatch(Query query, Segment segment, double work, int broker)
  {
    dispatcher.dispatch(query, segment, work, broker);
  }

  /**
   * Cancels the unfinished tasks of {@code query}, as the Broker cancels a query on Historicals once its answer is
   * taken at the deadline; the query listener is not told.
   */
  public void cancel(Query query)
  {
    dispatcher.cancel(query);
  }

  /** Makes the cluster converge to {@code plan} with no churn limit and a floor of one replica. */
  public void applyPlan(PlacementPlan plan)
  {
    applyPlan(plan, new RealisePolicy(1, LoadBeforeDrop.PLANNED_COUNT_SERVING), ChurnLimits.UNLIMITED.newRound());
  }

  /**
   * Makes the cluster converge to {@code plan} the way the extension realises a plan in one Coordinator run, with
   * getafix-core's {@code realise} decisions; segments the plan does not mention keep their replicas.
   *
   * <p>Loads go to planned nodes largest share first; those that bring a segment up to the policy's floor are free,
   * the others spend {@code budget}. Druid's RunRules visits segments newest first, so the budget goes in that
   * order. Drops spend the same budget, up to the next round's. A planned node that did not get its load this round
   * is still wanted, and the next round's plan, which sees where replicas really are, decides again.
   */
  public void applyPlan(PlacementPlan plan, RealisePolicy policy, ChurnBudget budget)
  {
    loadQueues.applyPlan(plan, policy, budget);
  }

  /** Call once when the measured window opens, so that the peak includes what is held at that moment. */
  public void openMeasurementWindow()
  {
    footprint.openMeasurementWindow();
  }

  /** Memory, replica and segment averages over the measured window; call at or after its end. */
  public Footprint footprint()
  {
    return footprint.footprint();
  }

  /**
   * @param meanTotalBytes    time-averaged sum over nodes of bytes held (loaded or loading)
   * @param maxNodeBytes      the most bytes any one node held in the window
   * @param meanReplicas      time-averaged replica count
   * @param meanSegments      time-averaged segment count
   * @param replicaLoads      loads started over the whole run, first replicas included
   * @param movedLoads        loads started in the window of the segments served when it opened: the churn
   * @param movedDataPerHour  the bytes of those loads per hour of the window, as a share of the data set's
   *                          time-averaged size (0.05 = 5% of the data loaded again each hour)
   */
  public record Footprint(
      double meanTotalBytes,
      long maxNodeBytes,
      double meanReplicas,
      double meanSegments,
      long replicaLoads,
      long movedLoads,
      double movedDataPerHour
  )
  {
  }

  /**
   * Queryable segment id → ids of the nodes holding or loading it: the planner's "current holders". Segments not
   * served anywhere yet are left out, as in the plan input (see {@link #takeSegmentRoundStats}).
   */
  public Map<String, Set<String>> currentHolders()
  {
    return roundStats.currentHolders();
  }

  /**
   * Per-segment statistics of the round that ends now, then resets them; only for segments served by some node.
   * The extension's planner (GetafixPlanner) builds its input from the segments the Historicals serve, so a
   * segment handed off but not loaded anywhere yet is not in the plan: Druid's own rules load it, and the plan
   * takes it up at the first round it is served in, with the access time it drew by then.
   */
  public List<SegmentRoundStats> takeSegmentRoundStats()
  {
    return roundStats.takeSegmentStats();
  }

  /**
   * @param accessTimeSeconds     wall seconds of computing the segment's tasks that arrived this round ask for
   *                              (thesis §2.2's access time, counted at arrival)
   * @param peakConcurrentAccesses most tasks on the segment at once this round (Scarlett's signal)
   * @param predecessorId          the segment created before it (the previous hour), null for the first
   */
  public record SegmentRoundStats(
      String segmentId,
      long sizeBytes,
      double accessTimeSeconds,
      int peakConcurrentAccesses,
      String predecessorId
  )
  {
  }
}
