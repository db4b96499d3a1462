package org.getafix.core.placement.capacity;

import java.util.HashMap;
import java.util.Map;

/**
 * One round of a tier's query counters, as Druid measures them on each Historical, turned into what the planner
 * needs: each segment's access time (popularity input) and each node's {@link NodeRoundStats} (capacity input).
 * The Coordinator and the simulator both measure through this one conversion, so the simulator's estimator sees the
 * same granularity the live one does.
 *
 * <p>Access time: Druid reports segment times in whole milliseconds, truncated, so a scan that took t ms reports
 * ⌊t⌋: on average 0.5 ms too little, and on small segments almost every scan reports 0. Each scan's time is therefore
 * counted as reported + 0.5 ms, the unbiased estimate, which also makes scan counts matter when every time is 0.
 * A scan also costs its node a share of the per query work {@code query/cpu/time} does not count: the node's process
 * CPU beyond its query CPU, shared equally over the round's scans. On the live test cluster that was 0.7–1.9×
 * the scans' own CPU (a few ms per query per node against ~0.8 ms per scan); without it the plan saw only the scans,
 * left the 1.0-core node at 58% of its quota and throttled the 0.5-core one. The share is capped at
 * {@value #MAX_OVERHEAD_PER_QUERY_CPU} × the node's query CPU per scan, so that a node's background work (a segment
 * load, a GC) spread over the few scans of a quiet round does not make those segments look hot.
 *
 * <p>Capacity: work is the node's CPU time (its process CPU when it reports it, else its query CPU), busy time the
 * larger of two lower bounds of how long its CPU allowance was in use, capped at the round: CPU time / CPU cores
 * (the cgroup quota, or the machine's cores), and processing-thread time (truncated segment times, not corrected) /
 * processing threads, which also counts time a thread waited for a core it did not get (throttling, a noisy
 * neighbour, page faults). So work / busy is the CPU the node delivers when fully busy, in cores; a straggler's
 * threads take longer for the same CPU and lower it.
 * Why not the simpler measure, where work is Σ scans × the segment's cluster-wide mean scan time, and busy
 * includes Little's law over {@code query/time}. With one replica per segment, as Getafix-H plans, a segment's mean
 * scan time is its holder's own, so a slow node's work was inflated by its own slowness; and Σ query/time counts
 * per-query overhead, queueing and Broker back-pressure, which caps every busy node at the round and turns work /
 * busy into the load a node was given. On a live 1.0 / 0.5 / 0.25-core cluster that rated the 0.5-core node above
 * the 1.0-core one; the simulator, measuring the same way, even put the 0.25-core node first. CPU time needs no
 * shared unit: throttled or starved, a scan burns the same instructions, only later.
 *
 * @param accessTimeMillis segment id → query time spent on it in the round, in ms, summed over nodes
 * @param nodeStats        node → its round for the capacity estimator: CPU seconds, busy seconds, wall seconds,
 *                         work units (= CPU seconds) and stalled seconds (capped at the round)
 */
public record MeasuredRound(Map<String, Double> accessTimeMillis, Map<String, NodeRoundStats> nodeStats)
{
  static final double TRUNCATION_CORRECTION_MILLIS = 0.5;
  static final double MAX_OVERHEAD_PER_QUERY_CPU = 3.0;
  /** Counters this many times the reader's round or longer covered rounds whose report was missed. */
  static final double CATCH_UP_RATIO = 1.5;

  /**
   * @param timeMillis sum of the scans' {@code query/segmentAndCache/time}, whole ms each
   * @param scans      number of scans
   */
  public record ScanCounters(long timeMillis, long scans)
  {
  }

  /**
   * One node's counters for one round.
   *
   * @param wallMillis        length of the round on the node's clock
   * @param processingThreads the node's processing threads ({@code druid.processing.numThreads})
   * @param cpuCores          the CPU the node may use, in cores (its cgroup quota, or the machine's cores); 0 when
   *                          the node does not say (an older Historical), then its processing threads stand in
   * @param cpuTimeMicros     query CPU time ({@code query/cpu/time})
   * @param processCpuMicros  CPU time of the whole Historical process; 0 when unknown
   * @param stalledMillis     time the process could not run when it should have; 0 when unknown
   * @param segments          segment id → its scans on this node this round
   */
  public record NodeCounters(
      long wallMillis,
      int processingThreads,
      double cpuCores,
      long cpuTimeMicros,
      long processCpuMicros,
      long stalledMillis,
      Map<String, ScanCounters> segments
  )
  {
    /** A node that does not report its stalls. */
    public NodeCounters(
        long wallMillis,
        int processingThreads,
        double cpuCores,
        long cpuTimeMicros,
        long processCpuMicros,
        Map<String, ScanCounters> segments
    )
    {
      this(wallMillis, processingThreads, cpuCores, cpuTimeMicros, processCpuMicros, 0, segments);
    }

    /** A node that does not report its process CPU. */
    public NodeCounters(
        long wallMillis,
        int processingThreads,
        double cpuCores,
        long cpuTimeMicros,
        Map<String, ScanCounters> segments
    )
    {
      this(wallMillis, processingThreads, cpuCores, cpuTimeMicros, 0, 0, segments);
    }

    /** The CPU allowance busy time is measured against. */
    double allowanceCores()
    {
      return cpuCores > 0 && Double.isFinite(cpuCores) ? cpuCores : processingThreads;
    }
  }

  public static MeasuredRound of(Map<String, NodeCounters> nodes)
  {
    return of(nodes, 0);
  }

  /**
   * As {@link #of(Map)}, for a reader that may miss a node's report for a round or more.
   *
   * @param roundMillis the round the nodes' counters normally cover (the time since the reader's last round); 0
   *                    when unknown. A node whose counters cover more than {@value #CATCH_UP_RATIO} times that
   *                    covers rounds whose report was late or rejected: its segments' access time is scaled to one
   *                    round. Those segments were not measured in the rounds it missed and kept their popularity, so
   *                    counting the catch-up whole would add those rounds' access on top. Its capacity is a rate, the
   *                    same over any length.
   */
  public static MeasuredRound of(Map<String, NodeCounters> nodes, long roundMillis)
  {
    final Map<String, Double> accessTime = new HashMap<>();
    final Map<String, NodeRoundStats> nodeStats = new HashMap<>();
    nodes.forEach((id, node) -> {
      long scans = 0;
      long threadBusyMillis = 0;
      for (ScanCounters s : node.segments().values()) {
        scans += s.scans();
        threadBusyMillis += s.timeMillis();
      }
      final double overheadPerScan = overheadMillisPerScan(node, scans);
      final double scale = roundMillis > 0 && node.wallMillis() > CATCH_UP_RATIO * roundMillis
                           ? (double) roundMillis / node.wallMillis()
                           : 1;
      node.segments().forEach((segment, s) -> accessTime.merge(
          segment,
          (correctedMillis(s) + overheadPerScan * s.scans()) * scale,
          Double::sum
      ));

      final double wallSeconds = node.wallMillis() / 1000.0;
      final double cpuSeconds = Math.max(node.cpuTimeMicros(), node.processCpuMicros()) / 1e6;
      final double threadBusySeconds = threadBusyMillis / 1000.0 / node.processingThreads();
      final double cpuBusySeconds = cpuSeconds / node.allowanceCores();
      final double busySeconds = Math.min(wallSeconds, Math.max(threadBusySeconds, cpuBusySeconds));
      nodeStats.put(id, new NodeRoundStats(
          cpuSeconds,
          busySeconds,
          wallSeconds,
          cpuSeconds,
          Math.min(wallSeconds, node.stalledMillis() / 1000.0)
      ));
    });
    return new MeasuredRound(accessTime, nodeStats);
  }

  /** The node's CPU outside its scans, per scan, within the cap (see the class comment); 0 when unknown. */
  private static double overheadMillisPerScan(NodeCounters node, long scans)
  {
    if (scans == 0 || node.processCpuMicros() <= node.cpuTimeMicros()) {
      return 0;
    }
    final double overheadMillis = (node.processCpuMicros() - node.cpuTimeMicros()) / 1000.0;
    final double queryCpuMillis = node.cpuTimeMicros() / 1000.0;
    return Math.min(overheadMillis, MAX_OVERHEAD_PER_QUERY_CPU * queryCpuMillis) / scans;
  }

  private static double correctedMillis(ScanCounters s)
  {
    return s.timeMillis() + TRUNCATION_CORRECTION_MILLIS * s.scans();
  }
}
