package org.getafix.demo;

import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.BrokerFormats;
import org.getafix.localcluster.client.DruidHttp;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.experiment.BudgetExperiment;
import org.getafix.localcluster.experiment.StragglerPlacement;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * The budgeted-queries experiments of {@code ./getafix bench live}: one Historical throttled to a hard straggler, and a
 * response-time target T. Each repetition sends the same query under both setups of a {@link Variant}, the order
 * reversed every other repetition (ABBA). The straggler is throttled only while a query runs, and each budgeted query's
 * mature run is awaited before the next query, so that late sub-queries do not pile up on the straggler (the Broker
 * re-executes when idle, as Ubora does) and every query meets the same cluster.
 */
final class BudgetedBench
{
  static final String STOCK = "stock";
  static final String BUDGETED = "budgeted";
  static final String HEDGED = "hedged";
  /** A hard straggler: its share of a whole-dataset query takes about 13 times the unthrottled answer. */
  static final double STRAGGLER_CORES = 0.02;
  /** T over the slowest of the last unthrottled answers: the other Historicals' shares fit well within it. */
  static final double TARGET_OVER_UNTHROTTLED = 4;
  static final long MIN_TARGET_MS = 1000;
  /**
   * Hedges per primary sub-query the Broker allows in the hedged variant. Every measured query meets the straggler, so
   * a third of the sub-queries need a hedge, far above the default 5% meant for a node that is slow now and then.
   */
  static final double HEDGE_RATIO = 0.5;
  /** Unmeasured budgeted queries cut at T before the first phase: more than the reserve needs to start. */
  private static final int RESERVE_WARM_UP = DeadlineReserve.MIN_SAMPLES + 2;
  /** Unthrottled answers after the JIT warm-up, the slowest of the last two setting T. */
  private static final int UNTHROTTLED_RUNS = 5;
  private static final Duration MATURE_RUN_WAIT = Duration.ofMinutes(2);
  /** A budget far above an unthrottled answer: the warm-up's budgeted queries take the budgeted path and answer whole. */
  private static final long WARM_UP_BUDGET_MS = 60_000;
  /** The warm-up on an existing cluster, whose JIT compilers the bench cannot watch: the bench's usual settling time. */
  private static final Duration EXISTING_WARM_UP = Duration.ofSeconds(60);
  private static final Duration EXISTING_WARM_UP_QUICK = Duration.ofSeconds(30);
  private static final List<Figure<Figures>> SETUP_FIGURES = List.of(
      new Figure<>("answered", Figures::answered),
      new Figure<>("answered within T", Figures::withinTarget),
      new Figure<>("answered within 1.1 T", Figures::withinTenPercentOver),
      new Figure<>("mean response time (ms)", Figures::meanMillis),
      new Figure<>("mean coverage", Figures::meanCoverage),
      new Figure<>("mean measured quality", Figures::meanQuality),
      new Figure<>("p10 measured quality", Figures::p10Quality)
  );

  /**
   * The two comparisons. {@link #TIMEOUT}: stock Druid's answer to a deadline is its {@code timeout}, and the query
   * fails when the straggler makes it late; the quality monitor's is {@code getafixBudgetMs}: the query answers at the
   * budget with what the Historicals finished, states its coverage, and its mature run measures what the cut cost. One
   * replica per segment, so that nothing can route around the straggler. {@link #HEDGING}: budgeted queries with and
   * without hedged sub-queries ({@code getafixHedge}), every segment on two Historicals and the Broker choosing between
   * them at random, so that about a third of each query's segments go to the straggler first and a hedge can re-ask
   * their other holder. Every budgeted query has a mature run, hedged or not, so that both setups' quality is
   * measured.
   */
  enum Variant
  {
    TIMEOUT(
        "budgeted", STOCK, BUDGETED, 1, Map.of(),
        "Budgeted queries vs stock Druid's timeout with a straggler",
        "one replica per segment",
        "stock Druid with timeout = T, budgeted with getafixBudgetMs = T and a mature run each"
    ),
    HEDGING(
        "hedged", BUDGETED, HEDGED, 2,
        Map.of(
            "druid.getafix.quality.hedging", "true",
            "druid.getafix.quality.hedgeRatio", String.valueOf(HEDGE_RATIO),
            "druid.broker.balancer.type", "random"
        ),
        "Budgeted queries with and without hedged sub-queries, with a straggler",
        "2 replicas per segment, the Broker choosing a holder at random, hedging on with hedgeRatio " + HEDGE_RATIO,
        "budgeted with getafixBudgetMs = T and a mature run each, getafixHedge false or true"
    );

    final AbbaComparison<Figures> comparison;
    final int replicas;
    /** The Broker's properties for the variant; none: the Broker as started. */
    final Map<String, String> broker;
    /** The report's title. */
    final String title;
    /** The placement and the Broker, in words for the report. */
    final String placement;
    /** The two setups, in words for the report. */
    final String setups;

    Variant(
        String experiment,
        String baseline,
        String candidate,
        int replicas,
        Map<String, String> broker,
        String title,
        String placement,
        String setups
    )
    {
      // The candidate answers within T where the baseline often does not answer at all, so the shares are given per
      // setup rather than as ratios.
      this.comparison = new AbbaComparison<>(
          experiment,
          List.of(baseline, candidate),
          candidate,
          baseline,
          List.of(new Figure<>("mean response time", Figures::meanMillis)),
          SETUP_FIGURES
      );
      this.replicas = replicas;
      this.broker = broker;
      this.title = title;
      this.placement = placement;
      this.setups = setups;
    }

    String dataSource()
    {
      return "getafix_" + comparison.experiment();
    }
  }

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
  private final Variant variant;

  BudgetedBench(BenchRun bench, Variant variant)
  {
    this.bench = bench;
    this.variant = variant;
  }

  /**
   * Where the queries go, and how each meets the straggler: on the bench's own cluster, throttled only while the query
   * runs; on an existing cluster, as it is.
   */
  private record Target(URI broker, Straggler straggler)
  {
  }

  @FunctionalInterface
  private interface Straggler
  {
    BrokerAnswer during(Callable<BrokerAnswer> query) throws Exception;
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    try (LocalDruidCluster cluster = bench.startCluster(BudgetBench.CPU_QUOTAS, "no query will be late")) {
      final SyntheticDataset dataset = bench.ingest(
          cluster,
          SyntheticDataset.hourly(variant.dataSource(), bench.quick() ? 48 : 100, bench.quick() ? 2_000 : 5_000)
      );
      bench.progress("placing " + variant.replicas + " replica(s) of each segment, some on the straggler");
      final String stragglerHost = cluster.historical(BudgetBench.STRAGGLER).hostAndPort();
      final long onStraggler = StragglerPlacement.replicasEach(cluster, dataset, BudgetBench.STRAGGLER, variant.replicas)
                                                 .values()
                                                 .stream()
                                                 .filter(holders -> holders.contains(stragglerHost))
                                                 .count();
      if (!variant.broker.isEmpty()) {
        bench.progress("restarting the Broker with " + variant.broker);
        cluster.restartBroker(variant.broker, Duration.ofMinutes(10));
      }
      final Map<String, Object> query = BudgetExperiment.stragglerQuery(dataset, dataset.interval());
      final QualityClient broker = new QualityClient(cluster.broker().uri());
      bench.progress(onStraggler + " segments on the straggler; warming the JIT compilers up");
      cluster.warmUntilSettled(JitCompilerCpu.WarmUp.QUERIES, window -> warmUp(broker, query, window));
      final String described = String.format(
          Locale.ROOT,
          "%s; %s, %d segments on the straggler (Historical %d), throttled to %.2f core while each query runs; the "
          + "query an hourly timeseries over all %d hours with a cardinality aggregator that hashes every row",
          cluster.cgroupsEnabled() ? "Historicals capped at " + BudgetBench.CPU_QUOTAS + " cores by cgroups"
                                   : "WARNING: no cgroups, so no caps and no straggler",
          variant.placement, onStraggler, BudgetBench.STRAGGLER, STRAGGLER_CORES, dataset.hours()
      );
      final Target target = new Target(cluster.broker().uri(), sent -> {
        cluster.setCpuQuota(BudgetBench.STRAGGLER, STRAGGLER_CORES);
        try {
          return sent.call();
        }
        finally {
          cluster.setCpuQuota(BudgetBench.STRAGGLER, cluster.config().cpuQuota(BudgetBench.STRAGGLER));
        }
      });
      return measure(target, query, described, null);
    }
  }

  /**
   * Runs the repetitions on {@code existing}, a cluster the bench did not start, as it is: no straggler is made, no
   * replica placed and the Broker not restarted (the hedged setup asks for hedging in each query's context, under the
   * Broker's own hedge budget). The query reads all of the datasource ({@link ExistingCluster#query}); the warm-up is
   * fixed, since the bench cannot watch the JIT compilers of processes it did not start.
   */
  Path runOn(ExistingCluster existing) throws Exception
  {
    final DruidHttp http = DruidHttp.shared();
    final QualityClient broker = new QualityClient(existing.broker());
    try {
      broker.qualityState();
    }
    catch (RuntimeException e) {
      throw new IllegalStateException(
          "the Broker at " + existing.broker() + " has no quality monitor to answer budgeted queries (install "
          + "druid-getafix's quality-monitor extension there): " + e.getMessage(), e
      );
    }
    final Map<String, Object> query = existing.query(http);
    final Duration warmUp = bench.quick() ? EXISTING_WARM_UP_QUICK : EXISTING_WARM_UP;
    bench.progress("warming the cluster up for " + warmUp.toSeconds() + " s with the query, with and without a budget");
    warmUp(broker, query, warmUp);
    final String cluster = String.format(
        Locale.ROOT,
        "an existing cluster, its Broker at %s; no straggler made and no replica placed (the cluster as it is, its "
        + "Broker's own settings%s); the query an hourly timeseries over all of datasource %s with a cardinality "
        + "aggregator over every dimension, which hashes every row",
        existing.broker(), variant == Variant.HEDGING ? ", each query asking for hedging in its context" : "",
        existing.dataSource()
    );
    final Target target = new Target(existing.broker(), Callable::call);
    return measure(target, query, cluster, existing.targetMs());
  }

  /** Sends {@code query} for {@code window}, whole and budgeted, so that neither setup's first run compiles its path. */
  private static void warmUp(QualityClient broker, Map<String, Object> query, Duration window) throws Exception
  {
    final Map<String, Object> wholeBudgeted = NativeQuery.withContext(
        query, Map.of(QueryContextKeys.BUDGET_MS, WARM_UP_BUDGET_MS, QueryContextKeys.MATURE, false)
    );
    final long end = System.nanoTime() + window.toNanos();
    while (System.nanoTime() < end) {
      broker.nativeQuery(query);
      broker.nativeQuery(wholeBudgeted);
    }
  }

  /**
   * Sets T ({@code askedTargetMs}, or from the last unthrottled answers), teaches the Broker its deadline reserve, runs the
   * repetitions and writes the report.
   *
   * @param cluster the cluster, placement and query in words, for the report
   */
  private Path measure(Target target, Map<String, Object> query, String cluster, Long askedTargetMs)
      throws Exception
  {
    final QualityClient broker = new QualityClient(target.broker());
    final List<Long> unthrottled = new ArrayList<>();
    for (int i = 0; i < UNTHROTTLED_RUNS; i++) {
      unthrottled.add(broker.nativeQuery(query).millis());
    }
    // The slowest of the last two: the first runs after the warm-up may still meet cold pages.
    final long unthrottledMs = Math.max(unthrottled.get(UNTHROTTLED_RUNS - 1), unthrottled.get(UNTHROTTLED_RUNS - 2));
    final long targetMs = askedTargetMs != null
                          ? askedTargetMs
                          : Math.max(MIN_TARGET_MS, Math.round(TARGET_OVER_UNTHROTTLED * unthrottledMs / 10.0) * 10);
    final int queries = bench.quick() ? 6 : 12;
    final String setup = String.format(
        Locale.ROOT,
        "%s; unthrottled it took %d ms, %s T = %d ms; %d queries per setup and repetition, one at a time: %s",
        cluster, unthrottledMs, askedTargetMs != null ? "and as asked" : "so", targetMs, queries, variant.setups
    );
    bench.progress(setup);
    // Unique to this run: a Broker in service keeps the mature runs of earlier runs' queries, which must not be read
    // for this run's.
    final String ids = "bench-" + variant.comparison.experiment() + "-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    // A Broker keeps no reserve for merge and serialisation until it has seen DeadlineReserve.MIN_SAMPLES budgeted
    // queries wait until their deadline; a Broker in service has. Unmeasured cut queries teach it first, so that the
    // first budgeted phase is not the only one without a reserve: without it, that phase answers most of its queries
    // after T and the later phases within it.
    bench.progress("teaching the Broker its deadline reserve with " + RESERVE_WARM_UP + " unmeasured budgeted queries");
    for (int i = 0; i < RESERVE_WARM_UP; i++) {
      send(target, query, BUDGETED, targetMs, false, ids + "reserve-" + i);
    }
    final int[] sent = {0};
    final AbbaComparison<Figures> comparison = variant.comparison;
    final List<Repetition<Figures>> done = comparison.repeat(bench, name -> {
      final List<Answer> answers = new ArrayList<>();
      for (int i = 0; i < queries; i++) {
        answers.add(send(target, query, name, targetMs, true, ids + sent[0]++));
      }
      return Figures.of(name, targetMs, answers);
    });
    return bench.report(comparison.json(setup, done), html(variant, setup, done), comparison.text(done));
  }

  /**
   * One query under {@code setup}, meeting the straggler, then, if budgeted and {@code mature}, its mature run.
   */
  private static Answer send(
      Target target,
      Map<String, Object> query,
      String setup,
      long targetMs,
      boolean mature,
      String id
  ) throws Exception
  {
    final boolean budgeted = !setup.equals(STOCK);
    final Map<String, Object> context = budgeted
                                        ? Map.of(QueryContextKeys.BUDGET_MS, targetMs, QueryContextKeys.MATURE, mature,
                                                 QueryContextKeys.HEDGE, setup.equals(HEDGED), "queryId", id)
                                        : Map.of("timeout", targetMs, "queryId", id);
    final QualityClient broker = new QualityClient(target.broker());
    final BrokerAnswer answer = target.straggler().during(() -> broker.nativeQuery(NativeQuery.withContext(query, context)));
    final Coverage coverage = BrokerFormats.coverage(answer.context());
    final double quality = budgeted && mature && answer.status() == 200 ? matureQuality(broker, id) : Double.NaN;
    return new Answer(answer.status(), answer.millis(), coverage == null ? Double.NaN : coverage.fraction(), quality);
  }

  /** The measured quality of query {@code id}'s mature run, once the Broker has measured it. */
  private static double matureQuality(QualityClient broker, String id) throws Exception
  {
    return broker.awaitMatureRun(id, MATURE_RUN_WAIT).measuredQuality();
  }

  static String html(Variant variant, String setup, List<Repetition<Figures>> repetitions)
  {
    return variant.comparison.html(
        variant.title,
        setup,
        "Each run sends the query one at a time, the straggler throttled while it runs; a budgeted query's mature "
        + "run is awaited before the next.",
        "The share answered within T is the deadline met as the client saw it (wall time, the Broker's merge "
        + "included); the budgeted answers' quality is what their mature runs measured (1 = the complete answer).",
        repetitions
    );
  }
}
