package org.getafix.demo;

import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.MetricsReceiver;
import org.getafix.localcluster.experiment.RoutingComparison;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import static org.getafix.localcluster.experiment.RoutingComparison.ADAPTIVE;
import static org.getafix.localcluster.experiment.RoutingComparison.CONNECTION_COUNT;

/**
 * The routing experiment of {@code ./getafix bench live}: Druid's {@code connectionCount} against
 * {@code getafixAdaptive} on a fresh cluster of equal Historicals, every segment on all of them, one Historical
 * throttled to a straggler while measured ({@link RoutingComparison}). Each repetition runs both strategies, the order
 * reversed every other repetition (ABBA); the report gives each ratio per repetition with its median and range, and
 * the medians apart by order.
 */
final class RoutingBench
{
  static final String DATA_SOURCE = "getafix_routing";
  /** The baseline first, as the order of the odd repetitions; {@code getafixAdaptive}'s figures over its. */
  static final AbbaComparison<Figures> COMPARISON = new AbbaComparison<>(
      "routing",
      List.of(CONNECTION_COUNT, ADAPTIVE),
      ADAPTIVE,
      CONNECTION_COUNT,
      List.of(
          new Figure<>("p99", Figures::p99Millis),
          new Figure<>("p50", Figures::p50Millis),
          new Figure<>("throughput", Figures::queriesPerSecond),
          new Figure<>("straggler's share of sub-queries", Figures::stragglerShare)
      ),
      List.of(
          new Figure<>("p99 (ms)", Figures::p99Millis),
          new Figure<>("straggler's share of sub-queries", Figures::stragglerShare),
          new Figure<>("failed queries", Figures::failures),
          new Figure<>("queries", Figures::queries)
      )
  );
  private static final int HISTORICALS = 3;
  private static final double EQUAL_CORES = 0.5;

  /** One strategy's measured phase, as the report needs it. */
  record Figures(
      String setup,
      long queries,
      long failures,
      double queriesPerSecond,
      double p50Millis,
      double p99Millis,
      double stragglerShare
  ) implements AbbaComparison.Run
  {
    static Figures of(RoutingComparison.Phase phase, String straggler)
    {
      return new Figures(
          phase.type(),
          phase.run().outcomes().size(),
          phase.run().failures().size(),
          phase.run().queriesPerSecond(),
          phase.p50Millis(),
          phase.p99Millis(),
          phase.shareOf(straggler)
      );
    }
  }

  private final BenchRun bench;

  RoutingBench(BenchRun bench)
  {
    this.bench = bench;
  }

  static RoutingComparison.Settings settings(boolean quick)
  {
    return new RoutingComparison.Settings(
        0,
        EQUAL_CORES,
        DemoOptions.DEFAULT_STRAGGLER_CORES,
        DemoOptions.DEFAULT_CLIENTS,
        7L,
        quick ? JitCompilerCpu.WarmUp.QUERIES : JitCompilerCpu.WarmUp.WORKLOAD,
        Duration.ofSeconds(quick ? 10 : 15),
        Duration.ofSeconds(quick ? 20 : 40)
    );
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    try (
        LocalDruidCluster cluster = bench.startCluster(
            Collections.nCopies(HISTORICALS, EQUAL_CORES), "the strategies will not differ"
        );
        MetricsReceiver metrics = MetricsReceiver.start()
    ) {
      final SyntheticDataset dataset = bench.ingest(
          cluster, SyntheticDataset.hourly(DATA_SOURCE, bench.quick() ? 24 : 100, bench.quick() ? 2_000 : 5_000)
      );
      final RoutingComparison comparison = new RoutingComparison(cluster, dataset, metrics, settings(bench.quick()));
      bench.progress("placing every segment on every Historical, then warming the cluster up");
      final JitCompilerCpu.Settling settling = comparison.prepare();
      bench.progress(String.format(
          Locale.ROOT, "warmed up in %d s; the JIT compilers' largest share of a Historical's CPU at the end: %.2f",
          settling.took().toSeconds(), settling.lastShare()
      ));
      final List<Repetition<Figures>> done = COMPARISON.repeat(
          bench, type -> Figures.of(comparison.runPhase(type), comparison.straggler())
      );
      return bench.report(COMPARISON.json(comparison.describe(), done), html(comparison.describe(), done),
                          COMPARISON.text(done));
    }
  }

  static String html(String setup, List<Repetition<Figures>> repetitions)
  {
    return COMPARISON.html(
        "Broker routing with a straggler",
        setup,
        "Every phase restarts the Broker and is warmed the same way before it is measured with the same query "
        + "sequence.",
        "Below 1 is better for " + ADAPTIVE + " in latency and in the straggler's share, above 1 in throughput.",
        repetitions
    );
  }
}
