package org.getafix.demo;

import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The churn experiment of {@code ./getafix bench live}: the data each setup loads under a steady workload once its
 * placement has settled, on stock Druid (2 replicas of every segment, {@code connectionCount}, Druid's balancer) and on
 * druid-getafix (Getafix-H, a floor of one replica, {@code getafixAdaptive}), on one cluster of 1.0 / 0.5 / 0.25
 * cores. Each phase places the data as {@link SetupPlacement} does, warms up, waits until the placement is its setup's own,
 * runs the workload a while longer so that the plan in force has settled, and then measures: the replicas that appear
 * on a Historical during the window (the holders are polled every 2 s) and their bytes, per hour, over the data set's
 * size. ABBA repetitions as the other comparisons ({@link AbbaComparison}).
 */
final class ChurnBench
{
  static final String DATA_SOURCE = "getafix_churn";
  static final String STOCK = Strategy.STOCK.label();
  static final String GETAFIX = Strategy.GETAFIX.label();
  static final AbbaComparison<Figures> COMPARISON = new AbbaComparison<>(
      "churn",
      List.of(STOCK, GETAFIX),
      GETAFIX,
      STOCK,
      List.of(
          new Figure<>("data loaded per hour", Figures::dataLoadedPerHour),
          new Figure<>("throughput", Figures::queriesPerSecond),
          new Figure<>("p99", Figures::p99Millis)
      ),
      List.of(
          new Figure<>("replica loads", Figures::loads),
          new Figure<>("data loaded per hour (1 = the data set)", Figures::dataLoadedPerHour),
          new Figure<>("p99 (ms)", Figures::p99Millis),
          new Figure<>("replicas", Figures::replicas)
      )
  );
  private static final Duration POLL = Duration.ofSeconds(2);

  /**
   * One setup's measured window.
   *
   * @param loads             replicas that appeared on a Historical in the window
   * @param dataLoadedPerHour their bytes per hour over the data set's size (one replica of every segment)
   */
  record Figures(
      String setup,
      long loads,
      double dataLoadedPerHour,
      double queriesPerSecond,
      double p99Millis,
      int replicas
  ) implements AbbaComparison.Run
  {
  }

  private final BenchRun bench;

  ChurnBench(BenchRun bench)
  {
    this.bench = bench;
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    try (LocalDruidCluster cluster = bench.startCluster(SetupPlacement.CPU_QUOTAS, "the Historicals are equal")) {
      final SyntheticDataset dataset = bench.ingest(
          cluster, SyntheticDataset.hourly(DATA_SOURCE, bench.quick() ? 24 : 100, bench.quick() ? 2_000 : 5_000)
      );
      final QueryMix mix = QueryMix.defaultMix(dataset);
      final Map<String, Long> sizes = cluster.coordinatorClient().segmentSizes(dataset.dataSource());
      final List<Repetition<Figures>> done =
          COMPARISON.repeat(bench, setup -> phase(cluster, dataset, mix, sizes, setup));
      final String setup = String.format(
          Locale.ROOT,
          "%d Historicals at %s cores, %d hourly segments; the demo's workload (QueryMix.defaultMix) from %d clients:"
          + " a %d s warm-up, the placement settled and %d s more, then %d s measured",
          SetupPlacement.CPU_QUOTAS.size(), SetupPlacement.CPU_QUOTAS, dataset.hours(), DemoOptions.DEFAULT_CLIENTS,
          warmUp().toSeconds(), settling().toSeconds(), measure().toSeconds()
      );
      return bench.report(COMPARISON.json(setup, done), html(setup, done), COMPARISON.text(done));
    }
  }

  private Duration warmUp()
  {
    return Duration.ofSeconds(bench.quick() ? 20 : 45);
  }

  /**
   * How long the workload runs on a settled placement before the window: longer than the plan keeper's wait before a
   * cooled segment gives a replica up (36 rounds of 5 s), so that the window sees the plan in force, not its settling.
   */
  private Duration settling()
  {
    return Duration.ofSeconds(bench.quick() ? 30 : 200);
  }

  /**
   * 15 minutes: one load of the demo's 100 segments in it is 0.04 of the data set per hour, so a window that loads
   * nothing and one that meets the 5% per hour bound can be told apart from one that does not.
   */
  private Duration measure()
  {
    return Duration.ofSeconds(bench.quick() ? 60 : 900);
  }

  private Figures phase(
      LocalDruidCluster cluster,
      SyntheticDataset dataset,
      QueryMix mix,
      Map<String, Long> sizes,
      String setup
  ) throws Exception
  {
    SetupPlacement.prepare(cluster, dataset, mix, setup, warmUp());
    WorkloadRunner.run(cluster.brokerClient(), mix,
                       new WorkloadRunner.Options(DemoOptions.DEFAULT_CLIENTS, settling(), Integer.MAX_VALUE, 5L));
    final ExecutorService workload = Executors.newSingleThreadExecutor();
    final WorkloadResult result;
    Map<String, Set<String>> last = GetafixSetup.holdersChecked(cluster, dataset.dataSource());
    final int replicas = last.values().stream().mapToInt(Set::size).sum();
    long loads = 0;
    long bytes = 0;
    final long start = System.nanoTime();
    try {
      final Future<WorkloadResult> running = workload.submit(() -> WorkloadRunner.run(
          cluster.brokerClient(), mix,
          new WorkloadRunner.Options(DemoOptions.DEFAULT_CLIENTS, measure(), Integer.MAX_VALUE, 42L)
      ));
      while (!running.isDone()) {
        Thread.sleep(POLL.toMillis());
        final Map<String, Set<String>> now = GetafixSetup.holdersChecked(cluster, dataset.dataSource());
        for (Map.Entry<String, Set<String>> segment : now.entrySet()) {
          final Set<String> added = new HashSet<>(segment.getValue());
          added.removeAll(last.getOrDefault(segment.getKey(), Set.of()));
          if (!added.isEmpty()) {
            // Which segment moved where and when, so that a load can be traced to what the plan did then.
            bench.progress(String.format(
                Locale.ROOT, "  %s: %.0f s in, %s loaded on %s (held by %s before)",
                setup, (System.nanoTime() - start) / 1e9, segment.getKey(), added,
                last.getOrDefault(segment.getKey(), Set.of())
            ));
          }
          loads += added.size();
          bytes += added.size() * sizes.getOrDefault(segment.getKey(), 0L);
        }
        last = now;
      }
      result = running.get(measure().toSeconds() + 120, TimeUnit.SECONDS);
    }
    finally {
      workload.shutdownNow();
    }
    final double hours = (System.nanoTime() - start) / 3.6e12;
    final long dataSetBytes = sizes.values().stream().mapToLong(Long::longValue).sum();
    bench.progress("  " + setup + ": " + loads + " replica loads (" + bytes + " bytes) in " + measure().toSeconds()
                   + " s, data set " + dataSetBytes + " bytes");
    return new Figures(
        setup,
        loads,
        bytes / (double) dataSetBytes / hours,
        result.queriesPerSecond(),
        result.latencyMicros().getValueAtPercentile(99) / 1000.0,
        replicas
    );
  }

  static String html(String setup, List<Repetition<Figures>> repetitions)
  {
    return COMPARISON.html(
        "Data loaded under a steady workload",
        setup,
        "Each phase places the data as its setup does, lets it settle under the workload, and then counts the replicas"
        + " that appear on a Historical while the same query sequence runs.",
        "Below 1 is better for " + GETAFIX + " in data loaded and p99, above 1 in throughput. A ratio is missing where"
        + " stock Druid loaded nothing. The target is at most 0.05 of the data set per hour.",
        repetitions
    );
  }
}
