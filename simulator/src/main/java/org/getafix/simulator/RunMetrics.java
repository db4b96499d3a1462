package org.getafix.simulator;

import org.HdrHistogram.Histogram;
import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.tiering.Tier;
import org.getafix.core.placement.tiering.TieringAccuracy;
import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.Query;
import org.getafix.simulator.cluster.Segment;
import org.getafix.simulator.report.ControlTrace;
import org.getafix.simulator.report.RunResult;
import org.getafix.simulator.report.RunTrace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one run measures besides the cluster's footprint: latency of the queries that arrive in the measured
 * window, the node tiers and busy cores of each measured round, planning time, and the segments' replicas and
 * recent accesses at the end of injection.
 */
final class RunMetrics implements Cluster.QueryListener
{
  private final double warmupSeconds;
  private final double durationSeconds;
  private final Histogram latency = newLatencyHistogram();
  private final Map<String, Histogram> latencyByType = new TreeMap<>();
  private final Map<String, Tier> hardwareTiers = new LinkedHashMap<>();
  private final int hotCount;
  private final int warmCount;
  private final List<String> nodeIdsByCores;

  private final List<Map<String, Tier>> measuredTiers = new ArrayList<>();
  private final List<Map<String, Tier>> naturalTiers = new ArrayList<>();
  private final List<int[]> tierRows = new ArrayList<>();
  private final List<Double> roundTimes = new ArrayList<>();
  private int[] replicasAtEnd = new int[0];
  private long[] recentAccesses = new long[0];
  private long[] accessesAtWindowStart = new long[0];
  private double lastCompletion;
  private double planNanos;
  private int plans;
  private double busyCoreSecondsMeasured;

  RunMetrics(double warmupSeconds, double durationSeconds, List<Cluster.NodeSpec> nodes)
  {
    this.warmupSeconds = warmupSeconds;
    this.durationSeconds = durationSeconds;
    for (Cluster.NodeSpec n : nodes) {
      if (n.hardwareTier() != null) {
        hardwareTiers.put(n.id(), Tier.valueOf(n.hardwareTier()));
      }
    }
    hotCount = (int) hardwareTiers.values().stream().filter(t -> t == Tier.HOT).count();
    warmCount = (int) hardwareTiers.values().stream().filter(t -> t == Tier.WARM).count();
    nodeIdsByCores = nodes.stream()
                          .sorted(Comparator.comparingDouble((Cluster.NodeSpec s) -> -s.cores() * s.speed()))
                          .map(Cluster.NodeSpec::id)
                          .toList();
  }

  /** Microseconds, up to an hour, three significant digits. */
  private static Histogram newLatencyHistogram()
  {
    return new Histogram(3_600_000_000L, 3);
  }

  @Override
  public void onQueryDone(Query query, double now)
  {
    lastCompletion = Math.max(lastCompletion, now);
    if (query.arrivalTime() >= warmupSeconds && query.arrivalTime() < durationSeconds) {
      final long micros = Math.max(1, Math.round((now - query.arrivalTime()) * 1e6));
      latency.recordValue(micros);
      latencyByType.computeIfAbsent(query.type().name(), t -> newLatencyHistogram()).recordValue(micros);
    }
  }

  /**
   * A round ended at {@code now}; counted if it ends after the warm-up.
   *
   * @param observed              what the round measured: the tiers the nodes' CPU time puts them in (thesis Fig 4.3)
   * @param busyCoreSecondsByNode core-seconds each node's cores were occupied in the round
   */
  void recordRound(double now, PlanningRound.Observed observed, double[] busyCoreSecondsByNode)
  {
    if (!(now > warmupSeconds)) {
      return;
    }
    for (double busy : busyCoreSecondsByNode) {
      busyCoreSecondsMeasured += busy;
    }
    final Map<String, Tier> natural = observed.measuredTiers();
    final Map<String, Tier> shown;
    if (!hardwareTiers.isEmpty()) {
      final Map<String, Tier> ranked = observed.measuredTiersByRank(hotCount, warmCount);
      measuredTiers.add(ranked);
      naturalTiers.add(natural);
      shown = ranked;
    } else {
      shown = natural;
    }
    final int[] row = new int[nodeIdsByCores.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = shown.get(nodeIdsByCores.get(i)).ordinal();
    }
    tierRows.add(row);
    roundTimes.add(now);
  }

  void recordPlanNanos(long nanos)
  {
    planNanos += nanos;
    plans++;
  }

  /** Marks the start of the window over which {@link #snapshotReplicas} counts each segment's accesses. */
  void snapshotAccesses(List<Segment> segments)
  {
    accessesAtWindowStart = new long[segments.size()];
    for (Segment s : segments) {
      accessesAtWindowStart[s.index()] = s.accessesTotal();
    }
  }

  void snapshotReplicas(List<Segment> segments)
  {
    replicasAtEnd = new int[segments.size()];
    recentAccesses = new long[segments.size()];
    for (Segment s : segments) {
      replicasAtEnd[s.index()] = s.loadedHolders().size();
      final long before = s.index() < accessesAtWindowStart.length ? accessesAtWindowStart[s.index()] : 0;
      recentAccesses[s.index()] = s.accessesTotal() - before;
    }
  }

  RunResult.Latency latency()
  {
    return RunResult.Latency.of(latency);
  }

  Map<String, RunResult.Latency> latencyByType()
  {
    final Map<String, RunResult.Latency> byType = new TreeMap<>();
    latencyByType.forEach((type, h) -> byType.put(type, RunResult.Latency.of(h)));
    return byType;
  }

  /** Share of the measured queries that took longer than {@code millis} (to the histogram's 3 digits). */
  double shareOver(double millis)
  {
    final long total = latency.getTotalCount();
    final long within = latency.getCountBetweenValues(0, (long) Math.floor(millis * 1000));
    return total == 0 ? 0 : (double) (total - within) / total;
  }

  long queries()
  {
    return latency.getTotalCount();
  }

  double makespanMs()
  {
    return lastCompletion * 1000;
  }

  /** Null when the scenario has no hardware tiers or no round was measured. */
  Double tieringAccuracy()
  {
    return hardwareTiers.isEmpty() || measuredTiers.isEmpty()
           ? null
           : TieringAccuracy.overRounds(measuredTiers, hardwareTiers);
  }

  Double tieringAccuracyNaturalBreaks()
  {
    return hardwareTiers.isEmpty() || naturalTiers.isEmpty()
           ? null
           : TieringAccuracy.overRounds(naturalTiers, hardwareTiers);
  }

  double meanUtilisation(double totalCores, double windowSeconds)
  {
    return busyCoreSecondsMeasured / (totalCores * windowSeconds);
  }

  double meanPlanMillis()
  {
    return plans == 0 ? 0 : planNanos / plans / 1e6;
  }

  RunTrace trace(ControlTrace control)
  {
    return new RunTrace(latency, nodeIdsByCores, tierRows, roundTimes, recentAccesses, replicasAtEnd, control);
  }
}
