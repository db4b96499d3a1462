package org.getafix.demo;

import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.BrokerFormats;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.experiment.BudgetExperiment;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The budgeted-queries experiment of {@code ./getafix bench live}: one Historical throttled to a hard straggler, and a
 * response-time target T. Stock Druid's answer to a deadline is its {@code timeout}: the query fails when the straggler
 * makes it late. The quality monitor's is {@code getafixBudgetMs}: the query answers at the budget with what the
 * Historicals finished, states its coverage, and its mature run measures what the cut cost. Each repetition sends the
 * same query under both, the order reversed every other repetition (ABBA). The straggler is throttled only while a
 * query runs, and each budgeted query's mature run is awaited before the next query, so that late sub-queries do not
 * pile up on the straggler (the Broker re-executes when idle, as Ubora does) and every query meets the same cluster.
 */
final class BudgetedBench
{
  static final String DATA_SOURCE = "getafix_budgeted";
  static final String STOCK = "stock";
  static final String BUDGETED = "budgeted";
  /** A hard straggler: its share of a whole-dataset query takes about 13 times the unthrottled answer. */
  static final double STRAGGLER_CORES = 0.02;
  /** T over the slowest of the last unthrottled answers: the other Historicals' shares fit well within it. */
  static final double TARGET_OVER_UNTHROTTLED = 4;
  static final long MIN_TARGET_MS = 1000;
  /** Unmeasured budgeted queries cut at T before the first phase: more than the reserve needs to start. */
  private static final int RESERVE_WARM_UP = DeadlineReserve.MIN_SAMPLES + 2;
  /** Unthrottled answers after the JIT warm-up, the slowest of the last two setting T. */
  private static final int UNTHROTTLED_RUNS = 5;
  private static final Duration MATURE_RUN_WAIT = Duration.ofMinutes(2);
  /** A budget far above an unthrottled answer: the warm-up's budgeted queries take the budgeted path and answer whole. */
  private static final long WARM_UP_BUDGET_MS = 60_000;
  static final AbbaComparison<Figures> COMPARISON = new AbbaComparison<>(
      "budgeted",
      List.of(STOCK, BUDGETED),
      BUDGETED,
      STOCK,
      // Stock Druid answers none within T when the straggler holds its answer back, so the shares are given per
      // setup rather than as ratios.
      List.of(new Figure<>("mean response time", Figures::meanMillis)),
      List.of(
          new Figure<>("answered", Figures::answered),
          new Figure<>("answered within T", Figures::withinTarget),
          new Figure<>("answered within 1.1 T", Figures::withinTenPercentOver),
          new Figure<>("mean response time (ms)", Figures::meanMillis),
          new Figure<>("mean coverage", Figures::meanCoverage),
          new Figure<>("mean measured quality", Figures::meanQuality),
          new Figure<>("p10 measured quality", Figures::p10Quality)
      )
  );

  /**
   * One setup's queries in one repetition. Shares are of the queries sent; coverage and quality are the budgeted
   * answers' (NaN for stock Druid, whose answers are whole or missing).
   */
  record Figures(
      String setup,
      double answered,
      double withinTarget,
      double withinTenPercentOver,
      double meanMillis,
      double meanCoverage,
      double meanQuality,
      double p10Quality
  ) implements AbbaComparison.Run
  {
    /** What the client saw of each query, and each budgeted one's mature run. */
    static Figures of(String setup, long targetMs, List<Answer> answers)
    {
      final List<Double> qualities = answers.stream().map(Answer::quality).filter(Double::isFinite).sorted().toList();
      return new Figures(
          setup,
          share(answers, a -> a.status() == 200),
          share(answers, a -> a.status() == 200 && a.millis() <= targetMs),
          share(answers, a -> a.status() == 200 && a.millis() <= 1.1 * targetMs),
          answers.stream().mapToLong(Answer::millis).average().orElse(Double.NaN),
          answers.stream().mapToDouble(Answer::coverage).filter(Double::isFinite).average().orElse(Double.NaN),
          qualities.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
          qualities.isEmpty() ? Double.NaN : qualities.get((int) Math.floor(0.1 * (qualities.size() - 1)))
      );
    }

    private static double share(List<Answer> answers, Predicate<Answer> which)
    {
      return answers.isEmpty() ? Double.NaN : answers.stream().filter(which).count() / (double) answers.size();
    }
  }

  /**
   * One query as the client saw it.
   *
   * @param status   HTTP status
   * @param millis   client wall time
   * @param coverage its answered share of segments; NaN without coverage (stock Druid)
   * @param quality  its mature run's measured quality; NaN without one
   */
  record Answer(int status, long millis, double coverage, double quality)
  {
  }

  private final BenchRun bench;

  BudgetedBench(BenchRun bench)
  {
    this.bench = bench;
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    try (LocalDruidCluster cluster = bench.startCluster(BudgetBench.CPU_QUOTAS, "no query will be late")) {
      final SyntheticDataset dataset = bench.ingest(
          cluster, SyntheticDataset.hourly(DATA_SOURCE, bench.quick() ? 48 : 100, bench.quick() ? 2_000 : 5_000)
      );
      final BudgetExperiment placement = new BudgetExperiment(
          cluster, dataset, BudgetBench.STRAGGLER, BudgetExperiment.Settings.standard("bench-budgeted-")
      );
      bench.progress("placing one replica of each segment, some on the straggler only");
      final long onStraggler = placement.placeOneReplicaEach();
      final Map<String, Object> query = BudgetExperiment.stragglerQuery(dataset, dataset.interval());
      final QualityClient broker = new QualityClient(cluster.broker().uri());
      bench.progress(onStraggler + " segments on the straggler; warming the JIT compilers up");
      // Both setups' code paths, the stock query's and the budgeted one's (the quality monitor's on the Broker), so
      // that neither setup's first repetition compiles its own path.
      final Map<String, Object> wholeBudgeted = NativeQuery.withContext(
          query, Map.of(QueryContextKeys.BUDGET_MS, WARM_UP_BUDGET_MS, QueryContextKeys.MATURE, false)
      );
      cluster.warmUntilSettled(JitCompilerCpu.WarmUp.QUERIES, window -> {
        final long end = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < end) {
          broker.nativeQuery(query);
          broker.nativeQuery(wholeBudgeted);
        }
      });
      final List<Long> unthrottled = new ArrayList<>();
      for (int i = 0; i < UNTHROTTLED_RUNS; i++) {
        unthrottled.add(broker.nativeQuery(query).millis());
      }
      // The slowest of the last two: the first runs after the warm-up may still meet cold pages.
      final long unthrottledMs = Math.max(unthrottled.get(UNTHROTTLED_RUNS - 1), unthrottled.get(UNTHROTTLED_RUNS - 2));
      final long targetMs = Math.max(MIN_TARGET_MS, Math.round(TARGET_OVER_UNTHROTTLED * unthrottledMs / 10.0) * 10);
      final int queries = bench.quick() ? 6 : 12;
      final String setup = String.format(
          Locale.ROOT,
          "%s; %d segments on the straggler (Historical %d), throttled to %.2f core while each query runs; the query "
          + "an hourly timeseries over all %d hours with a cardinality aggregator that hashes every row; unthrottled "
          + "it took %d ms, so T = %d ms; %d queries per setup and repetition, one at a time: stock Druid with "
          + "timeout = T, budgeted with getafixBudgetMs = T and a mature run each",
          cluster.cgroupsEnabled() ? "Historicals capped at " + BudgetBench.CPU_QUOTAS + " cores by cgroups"
                                   : "WARNING: no cgroups, so no caps and no straggler",
          onStraggler, BudgetBench.STRAGGLER, STRAGGLER_CORES, dataset.hours(), unthrottledMs, targetMs, queries
      );
      bench.progress(setup);
      // A Broker keeps no reserve for merge and serialisation until it has seen DeadlineReserve.MIN_SAMPLES budgeted
      // queries wait until their deadline; a Broker in service has. Unmeasured cut queries teach it first, so that the
      // first budgeted phase is not the only one without a reserve: without it, that phase answers most of its queries
      // after T and the later phases within it.
      bench.progress("teaching the Broker its deadline reserve with " + RESERVE_WARM_UP + " unmeasured budgeted queries");
      for (int i = 0; i < RESERVE_WARM_UP; i++) {
        send(cluster, query, BUDGETED, targetMs, false, "bench-budgeted-reserve-" + i);
      }
      final int[] sent = {0};
      final List<Repetition<Figures>> done = COMPARISON.repeat(bench, name -> {
        final List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
          answers.add(send(cluster, query, name, targetMs, true, "bench-budgeted-" + sent[0]++));
        }
        return Figures.of(name, targetMs, answers);
      });
      return bench.report(COMPARISON.json(setup, done), html(setup, done), COMPARISON.text(done));
    }
  }

  /**
   * One query under {@code setup} with the straggler throttled, then, if budgeted and {@code mature}, its mature run.
   */
  private static Answer send(
      LocalDruidCluster cluster,
      Map<String, Object> query,
      String setup,
      long targetMs,
      boolean mature,
      String id
  ) throws Exception
  {
    final boolean budgeted = setup.equals(BUDGETED);
    final Map<String, Object> context = budgeted
                                        ? Map.of(QueryContextKeys.BUDGET_MS, targetMs, QueryContextKeys.MATURE, mature,
                                                 "queryId", id)
                                        : Map.of("timeout", targetMs, "queryId", id);
    final BrokerAnswer answer;
    cluster.setCpuQuota(BudgetBench.STRAGGLER, STRAGGLER_CORES);
    try {
      answer = new QualityClient(cluster.broker().uri()).nativeQuery(NativeQuery.withContext(query, context));
    }
    finally {
      cluster.setCpuQuota(BudgetBench.STRAGGLER, cluster.config().cpuQuota(BudgetBench.STRAGGLER));
    }
    final Coverage coverage = BrokerFormats.coverage(answer.context());
    final double quality = budgeted && mature && answer.status() == 200 ? matureQuality(cluster, id) : Double.NaN;
    return new Answer(answer.status(), answer.millis(), coverage == null ? Double.NaN : coverage.fraction(), quality);
  }

  /** The measured quality of query {@code id}'s mature run, once the Broker has measured it. */
  private static double matureQuality(LocalDruidCluster cluster, String id) throws Exception
  {
    final QualityClient broker = new QualityClient(cluster.broker().uri());
    final double[] quality = {Double.NaN};
    Waits.await("the mature run of " + id, MATURE_RUN_WAIT, Duration.ofMillis(500), () -> {
      final Optional<MatureRunReport> run = BrokerFormats.recentMatureRuns(broker.qualityState())
                                                         .stream()
                                                         .filter(r -> r.queryId().equals(id))
                                                         .findFirst();
      run.ifPresent(r -> quality[0] = r.measuredQuality());
      return run.isPresent();
    }, () -> "not measured yet");
    return quality[0];
  }

  static String html(String setup, List<Repetition<Figures>> repetitions)
  {
    return COMPARISON.html(
        "Budgeted queries vs stock Druid's timeout with a straggler",
        setup,
        "Each run sends the query one at a time, the straggler throttled while it runs; a budgeted query's mature "
        + "run is awaited before the next.",
        "The share answered within T is the deadline met as the client saw it (wall time, the Broker's merge "
        + "included); the budgeted answers' quality is what their mature runs measured (1 = the complete answer).",
        repetitions
    );
  }
}
