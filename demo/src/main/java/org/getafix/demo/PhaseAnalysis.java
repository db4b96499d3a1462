package org.getafix.demo;

import org.getafix.simulator.report.RunResult;
import org.getafix.simulator.report.RunTrace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns a {@link PhaseRecord} into the simulator's report types ({@link RunResult} for results.json and the summary,
 * {@link RunTrace} for the charts) and the live-only series: loads and drops per round and node load over time.
 */
public final class PhaseAnalysis
{
  private static final int HOT = 0;
  private static final int WARM = 1;
  private static final int COLD = 2;
  /** Rows of a heat map at most. */
  public static final int MAX_ROWS = 30;

  private PhaseAnalysis()
  {
  }

  /** The Historicals with the most cores first (the heat maps' x axis). */
  public static List<Node> byQuota(List<Node> nodes)
  {
    return nodes.stream().sorted(Comparator.comparingDouble(Node::quota).reversed()).toList();
  }

  /**
   * Per pair of consecutive samples, {@code {loads, drops}}: replicas that appeared and disappeared in between.
   */
  public static int[][] loadsAndDrops(List<Sample> samples)
  {
    final int[][] churn = new int[Math.max(0, samples.size() - 1)][2];
    for (int i = 1; i < samples.size(); i++) {
      final Set<String> before = replicas(samples.get(i - 1).holders());
      final Set<String> after = replicas(samples.get(i).holders());
      churn[i - 1][0] = (int) after.stream().filter(r -> !before.contains(r)).count();
      churn[i - 1][1] = (int) before.stream().filter(r -> !after.contains(r)).count();
    }
    return churn;
  }

  private static Set<String> replicas(Map<String, Set<String>> holders)
  {
    final Set<String> replicas = new HashSet<>();
    holders.forEach((segment, nodes) -> nodes.forEach(n -> replicas.add(segment + '@' + n)));
    return replicas;
  }

  /**
   * The tier a Historical's hardware puts it in at the moment: the largest cap is HOT, the smallest COLD, the rest
   * WARM (all HOT when the caps are equal).
   */
  public static Map<String, String> expectedTiers(Map<String, Double> quotas)
  {
    final double max = quotas.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    final double min = quotas.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
    final Map<String, String> tiers = new HashMap<>();
    quotas.forEach((node, q) -> tiers.put(node, q == max ? "HOT" : q == min ? "COLD" : "WARM"));
    return tiers;
  }

  /**
   * Share of node-samples of the measured window whose Getafix tier matches {@link #expectedTiers}; null when
   * Getafix published no tiers (stock Druid).
   */
  public static Double tieringAccuracy(List<Sample> samples)
  {
    long total = 0;
    long matching = 0;
    for (Sample s : samples) {
      if (s.tiers().isEmpty()) {
        continue;
      }
      final Map<String, String> expected = expectedTiers(s.quotas());
      for (Map.Entry<String, String> e : expected.entrySet()) {
        total++;
        if (e.getValue().equals(s.tiers().get(e.getKey()))) {
          matching++;
        }
      }
    }
    return total == 0 ? null : matching / (double) total;
  }

  /**
   * Per pair of consecutive samples, per Historical ({@link #byQuota} order): query CPU time used in between as a
   * share of the cores it was capped at then.
   */
  public static double[][] nodeUtilisation(PhaseRecord phase)
  {
    final List<Node> nodes = byQuota(phase.nodes());
    final List<Sample> samples = phase.samples();
    final double[][] load = new double[Math.max(0, samples.size() - 1)][nodes.size()];
    for (int i = 1; i < samples.size(); i++) {
      final Sample a = samples.get(i - 1);
      final Sample b = samples.get(i);
      final double seconds = b.seconds() - a.seconds();
      for (int n = 0; n < nodes.size(); n++) {
        final String host = nodes.get(n).host();
        final double cores = b.quotas().getOrDefault(host, nodes.get(n).quota());
        final long cpu = b.cpuMicros().getOrDefault(host, 0L) - a.cpuMicros().getOrDefault(host, 0L);
        // A restarted counter (new epoch) shows as a negative delta: no load is known for that interval.
        load[i - 1][n] = seconds <= 0 || cpu < 0 ? 0 : cpu / 1e6 / seconds / cores;
      }
    }
    return load;
  }

  public static RunResult runResult(PhaseRecord phase)
  {
    final List<Sample> window = phase.measured().isEmpty() && !phase.samples().isEmpty()
                                ? List.of(phase.samples().get(phase.samples().size() - 1))
                                : phase.measured();
    double replicas = 0;
    double memory = 0;
    long maxNode = 0;
    double segments = 0;
    for (Sample s : window) {
      final Map<String, Long> perNode = new HashMap<>();
      for (Map.Entry<String, Set<String>> e : s.holders().entrySet()) {
        final long size = phase.segmentSizes().getOrDefault(e.getKey(), 0L);
        replicas += e.getValue().size();
        memory += size * (double) e.getValue().size();
        e.getValue().forEach(n -> perNode.merge(n, size, Long::sum));
      }
      segments += s.holders().size();
      maxNode = Math.max(maxNode, perNode.values().stream().mapToLong(Long::longValue).max().orElse(0));
    }
    final int n = Math.max(1, window.size());
    final long totalReplicas = Math.round(replicas / n);
    final double meanSegments = segments / n;
    final Map<String, RunResult.Latency> byType = new LinkedHashMap<>();
    phase.latencyByType().forEach((type, h) -> {
      if (h.getTotalCount() > 0) {
        byType.put(type, RunResult.Latency.of(h));
      }
    });
    return new RunResult(
        phase.strategy().balancer(),
        phase.strategy().router(),
        phase.strategy() == Strategy.GETAFIX ? "measured" : null,
        phase.gamma(),
        totalReplicas,
        Math.max(0, totalReplicas - Math.round(meanSegments)),
        meanSegments == 0 ? 0 : replicas / n / meanSegments,
        Math.round(memory / n),
        maxNode,
        RunResult.Latency.of(phase.latencyMicros()),
        byType,
        phase.wallSeconds() * 1000,
        tieringAccuracy(window),
        null,
        phase.queries(),
        counterDelta(window, Sample::scans),
        loadsAndDropsTotal(phase.samples())[0],
        loadsAndDropsTotal(window)[0],
        loadedShareOfDataPerHour(phase),
        meanUtilisation(phase, window),
        0,
        null,
        null
    );
  }

  /**
   * Churn under a steady workload: the bytes of the replicas that appeared while the phase was measured and before its
   * straggler (the plan then has reason to move data), per hour, as a share of the data set's bytes (one copy of every
   * segment). NaN when that window holds fewer than two samples.
   */
  public static double loadedShareOfDataPerHour(PhaseRecord phase)
  {
    final double until = Double.isNaN(phase.stragglerAt()) ? phase.measureTo() : phase.stragglerAt();
    final List<Sample> steady = phase.samples().stream()
                                     .filter(s -> s.seconds() >= phase.measureFrom() && s.seconds() <= until)
                                     .toList();
    final long dataBytes = phase.segmentSizes().values().stream().mapToLong(Long::longValue).sum();
    if (steady.size() < 2 || dataBytes == 0) {
      return Double.NaN;
    }
    long loadedBytes = 0;
    for (int i = 1; i < steady.size(); i++) {
      final Map<String, Set<String>> before = steady.get(i - 1).holders();
      for (Map.Entry<String, Set<String>> segment : steady.get(i).holders().entrySet()) {
        final Set<String> held = before.getOrDefault(segment.getKey(), Set.of());
        final long added = segment.getValue().stream().filter(n -> !held.contains(n)).count();
        loadedBytes += added * phase.segmentSizes().getOrDefault(segment.getKey(), 0L);
      }
    }
    final double hours = (steady.get(steady.size() - 1).seconds() - steady.get(0).seconds()) / 3600;
    return hours <= 0 ? Double.NaN : loadedBytes / hours / dataBytes;
  }

  /** Loads and drops over the whole phase, hand-over included. */
  public static long[] loadsAndDropsTotal(List<Sample> samples)
  {
    long loads = 0;
    long drops = 0;
    for (int[] round : loadsAndDrops(samples)) {
      loads += round[0];
      drops += round[1];
    }
    return new long[]{loads, drops};
  }

  private static long counterDelta(List<Sample> window, Function<Sample, Map<String, Long>> counter)
  {
    if (window.size() < 2) {
      return 0;
    }
    final Map<String, Long> first = counter.apply(window.get(0));
    final Map<String, Long> last = counter.apply(window.get(window.size() - 1));
    return last.entrySet().stream().mapToLong(e -> Math.max(0, e.getValue() - first.getOrDefault(e.getKey(), 0L))).sum();
  }

  private static double meanUtilisation(PhaseRecord phase, List<Sample> window)
  {
    final double[][] load = nodeUtilisation(phase);
    double sum = 0;
    int cells = 0;
    for (int i = 1; i < phase.samples().size(); i++) {
      if (window.contains(phase.samples().get(i)) && window.contains(phase.samples().get(i - 1))) {
        for (double l : load[i - 1]) {
          sum += l;
          cells++;
        }
      }
    }
    return cells == 0 ? 0 : sum / cells;
  }

  /**
   * The charts' view of a phase: measured latency, Getafix tiers per sample (HOT 0, WARM 1, COLD 2; samples without
   * tiers are left out), and per segment its measured accesses and the replicas it held at the end.
   */
  public static RunTrace runTrace(PhaseRecord phase)
  {
    final List<Node> nodes = byQuota(phase.nodes());
    final List<int[]> tiers = new ArrayList<>();
    final List<Double> times = new ArrayList<>();
    final List<Sample> withTiers = phase.samples().stream().filter(s -> !s.tiers().isEmpty()).toList();
    // Every k-th sample only, so that the heat map's time labels stay readable on long runs.
    final int every = (withTiers.size() + MAX_ROWS - 1) / MAX_ROWS;
    for (int i = 0; i < withTiers.size(); i += Math.max(1, every)) {
      final Sample s = withTiers.get(i);
      final int[] row = new int[nodes.size()];
      for (int n = 0; n < nodes.size(); n++) {
        row[n] = switch (s.tiers().getOrDefault(nodes.get(n).host(), "COLD")) {
          case "HOT" -> HOT;
          case "WARM" -> WARM;
          default -> COLD;
        };
      }
      tiers.add(row);
      times.add(s.seconds());
    }
    final Map<String, Set<String>> last = phase.samples().isEmpty()
                                          ? Map.of()
                                          : phase.samples().get(phase.samples().size() - 1).holders();
    final int[] replicas = phase.segmentIds().stream().mapToInt(id -> last.getOrDefault(id, Set.of()).size()).toArray();
    return new RunTrace(
        phase.latencyMicros(),
        nodes.stream().map(n -> n.name() + " (" + n.quota() + " cores)").toList(),
        tiers,
        times,
        phase.segmentAccesses(),
        replicas,
        null
    );
  }
}
