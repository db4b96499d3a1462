package org.getafix.demo;

import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.QueryOutcome;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The kill experiment of {@code ./getafix bench live}: the strongest Historical killed under the demo's workload, on
 * stock Druid (2 replicas of every segment, {@code connectionCount}) and on druid-getafix (Getafix-H, a floor of one
 * replica, {@code getafixAdaptive}), on one cluster of 1.0 / 0.5 / 0.25 cores. Each phase places the data, warms up,
 * runs the workload, kills the Historical a quarter of the way in, and counts the queries that failed and how long
 * after the kill the last of them started; then the Historical is restarted and the data placed again for the next
 * phase. ABBA repetitions as the other comparisons ({@link AbbaComparison}).
 */
final class KillBench
{
  static final String DATA_SOURCE = "getafix_kill";
  static final String STOCK = Strategy.STOCK.label();
  static final String GETAFIX = Strategy.GETAFIX.label();
  static final AbbaComparison<Figures> COMPARISON = new AbbaComparison<>(
      "kill",
      List.of(STOCK, GETAFIX),
      GETAFIX,
      STOCK,
      List.of(
          new Figure<>("answered queries per second", Figures::answeredPerSecond),
          new Figure<>("p99 of the answered", Figures::p99Millis),
          new Figure<>("failed queries", Figures::failures),
          new Figure<>("seconds from the kill to the last failed query", Figures::failingSeconds)
      ),
      List.of(
          new Figure<>("failed queries", Figures::failures),
          new Figure<>("seconds from the kill to the last failed query", Figures::failingSeconds),
          new Figure<>("queries", Figures::queries),
          new Figure<>("p99 of the answered (ms)", Figures::p99Millis),
          new Figure<>("replicas before the kill", Figures::replicas)
      )
  );
  /** The Historical killed: the 1.0-core one, where Getafix-H puts the hot segments. */
  private static final int VICTIM = 0;
  private static final Duration CONVERGE = Duration.ofMinutes(4);

  /**
   * One setup's phase: the workload around the kill. Throughput and p99 are of the answered queries: a query to a
   * dead Historical fails in milliseconds, so counting failures would rate the setup that fails more as the faster.
   */
  record Figures(
      String setup,
      long queries,
      long failures,
      double failingSeconds,
      double answeredPerSecond,
      double p99Millis,
      int replicas
  ) implements AbbaComparison.Run
  {
  }

  private final BenchRun bench;

  KillBench(BenchRun bench)
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
      final List<Repetition<Figures>> done = COMPARISON.repeat(bench, setup -> phase(cluster, dataset, mix, setup));
      final String setup = String.format(
          Locale.ROOT,
          "%d Historicals at %s cores, %d hourly segments; the demo's workload (QueryMix.defaultMix) from %d clients"
          + " for %d s after a %d s warm-up, the 1.0-core Historical killed %d s in and restarted after the phase",
          SetupPlacement.CPU_QUOTAS.size(), SetupPlacement.CPU_QUOTAS, dataset.hours(), DemoOptions.DEFAULT_CLIENTS, measure().toSeconds(),
          warmUp().toSeconds(), killAfter().toSeconds()
      );
      return bench.report(COMPARISON.json(setup, done), html(setup, done), COMPARISON.text(done));
    }
  }

  private Duration measure()
  {
    return Duration.ofSeconds(bench.quick() ? 40 : 80);
  }

  private Duration warmUp()
  {
    return Duration.ofSeconds(bench.quick() ? 20 : 45);
  }

  private Duration killAfter()
  {
    return measure().dividedBy(4);
  }

  private Figures phase(LocalDruidCluster cluster, SyntheticDataset dataset, QueryMix mix, String setup)
      throws Exception
  {
    SetupPlacement.prepare(cluster, dataset, mix, setup, warmUp());
    final int replicas = GetafixSetup.holdersChecked(cluster, dataset.dataSource()).values().stream()
                                     .mapToInt(Set::size).sum();
    final ExecutorService workload = Executors.newSingleThreadExecutor();
    final WorkloadResult result;
    final Instant killedAt;
    try {
      final Future<WorkloadResult> running = workload.submit(() -> WorkloadRunner.run(
          cluster.brokerClient(), mix,
          new WorkloadRunner.Options(DemoOptions.DEFAULT_CLIENTS, measure(), Integer.MAX_VALUE, 42L)
      ));
      // The fault comes at a set time of the measured window, the same in every phase.
      Thread.sleep(killAfter().toMillis());
      killedAt = Instant.now();
      cluster.killHistorical(VICTIM);
      bench.progress("  " + setup + ": killed " + cluster.historical(VICTIM).name());
      result = running.get(measure().toSeconds() + 120, TimeUnit.SECONDS);
    }
    finally {
      workload.shutdownNow();
    }
    cluster.restartHistorical(VICTIM, CONVERGE);
    double failingSeconds = 0;
    for (QueryOutcome failure : result.failures()) {
      failingSeconds = Math.max(failingSeconds, Duration.between(killedAt, failure.startedAt()).toMillis() / 1000.0);
    }
    return new Figures(
        setup,
        result.outcomes().size(),
        result.failures().size(),
        failingSeconds,
        result.answeredPerSecond(),
        result.answeredLatencyMicros().getValueAtPercentile(99) / 1000.0,
        replicas
    );
  }

  static String html(String setup, List<Repetition<Figures>> repetitions)
  {
    return COMPARISON.html(
        "A Historical killed under load",
        setup,
        "Each phase places the data as its setup does, warms up, and runs the same query sequence with the same kill.",
        "Below 1 is better for " + GETAFIX + " in p99, failed queries and how long queries failed, above 1 in "
        + "answered queries per second. Throughput and p99 count the answered queries only. A ratio is missing where "
        + "stock Druid had no failed query.",
        repetitions
    );
  }
}
