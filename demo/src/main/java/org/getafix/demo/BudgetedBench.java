package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.placement.packing.GetafixStrategy;
import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.client.BrokerAnswer;
import org.getafix.localcluster.client.BrokerFormats;
import org.getafix.localcluster.client.DruidHttp;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.experiment.BudgetExperiment;
import org.getafix.localcluster.experiment.StragglerPlacement;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadRunner;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The budgeted-queries experiments of {@code ./getafix bench live}: one Historical throttled to a hard straggler, and a
 * response-time target T. Each repetition sends the same query under both setups of a {@link Variant}, the order
 * reversed every other repetition (ABBA). Under a fixed placement the straggler is throttled only while a query runs;
 * under Getafix-H's plan it is slow throughout, since the plan is what reacts to it. Each budgeted query's mature run is
 * awaited before the next query, so that late sub-queries do not pile up on the straggler (the Broker re-executes when
 * idle, as Ubora does) and every query meets the same cluster.
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
  /** The Broker of the hedged variants: hedging on, and a random holder first, so that the straggler gets its turn. */
  static final Map<String, String> HEDGING_BROKER = Map.of(
      "druid.getafix.quality.hedging", "true",
      "druid.getafix.quality.hedgeRatio", String.valueOf(HEDGE_RATIO),
      "druid.broker.balancer.type", "random"
  );
  /**
   * The Broker of {@link Variant#HEDGING_PLANNED}: as {@link #HEDGING_BROKER}, at the default {@code hedgeRatio}
   * (0.05). A hedge that wins hands its token back, so the ratio caps only the hedges that lose; once Getafix-H has
   * planned around the straggler most hedges lose (they are healthy Historicals' late sub-queries), and at 0.5 they
   * loaded the other holders of the straggler's segments enough to cut some of those holders' own segments.
   */
  static final Map<String, String> PLANNED_HEDGING_BROKER = Map.of(
      "druid.getafix.quality.hedging", "true",
      "druid.broker.balancer.type", "random"
  );
  /** A measured quality below which a query is named in the progress, as one that missed the target's p10. */
  private static final double LOW_QUALITY = 0.8;
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
  /** How long Getafix-H may take to find the straggler and realise a plan around it, and to start acting. */
  private static final Duration PLAN_AROUND_STRAGGLER = Duration.ofMinutes(6);
  /** The demo's workload between two looks at the plan, which keeps every Historical busy enough to be measured. */
  private static final Duration PLAN_WORKLOAD = Duration.ofSeconds(10);
  private static final List<Figure<Figures>> SETUP_FIGURES = List.of(
      new Figure<>("answered", Figures::answered),
      new Figure<>("answered within T", Figures::withinTarget),
      new Figure<>("answered within 1.1 T", Figures::withinTenPercentOver),
      new Figure<>("mean response time (ms)", Figures::meanMillis),
      new Figure<>("mean coverage", Figures::meanCoverage),
      new Figure<>("mean measured quality", Figures::meanQuality),
      new Figure<>("p10 measured quality", Figures::p10Quality),
      new Figure<>("lowest measured quality", Figures::minQuality),
      new Figure<>("hedges sent per query", Figures::hedgesSentPerQuery),
      new Figure<>("hedges won per query", Figures::hedgesWonPerQuery)
  );

  /**
   * The two comparisons. {@link #TIMEOUT}: stock Druid's answer to a deadline is its {@code timeout}, and the query
   * fails when the straggler makes it late; the quality monitor's is {@code getafixBudgetMs}: the query answers at the
   * budget with what the Historicals finished, states its coverage, and its mature run measures what the cut cost. One
   * replica per segment, so that nothing can route around the straggler. {@link #HEDGING}: budgeted queries with and
   * without hedged sub-queries ({@code getafixHedge}), every segment on two Historicals and the Broker choosing between
   * them at random, so that about a third of each query's segments go to the straggler first and a hedge can re-ask
   * their other holder. {@link #HEDGING_PLANNED}: the same two setups on Getafix-H's plan (a floor of one replica, up
   * to three), made while the straggler is slow, so that what the straggler holds has another holder to hedge to only
   * where the plan gave it one. Every budgeted query has a mature run, hedged or not, so that both setups' quality is
   * measured.
   */
  enum Variant
  {
    TIMEOUT(
        "budgeted", STOCK, BUDGETED, 1, false, Map.of(),
        "Budgeted queries vs stock Druid's timeout with a straggler",
        "one replica per segment",
        "stock Druid with timeout = T, budgeted with getafixBudgetMs = T and a mature run each"
    ),
    HEDGING(
        "hedged", BUDGETED, HEDGED, 2, false, HEDGING_BROKER,
        "Budgeted queries with and without hedged sub-queries, with a straggler",
        "2 replicas per segment, the Broker choosing a holder at random, hedging on with hedgeRatio " + HEDGE_RATIO,
        "budgeted with getafixBudgetMs = T and a mature run each, getafixHedge false or true"
    ),
    HEDGING_PLANNED(
        "hedged-getafix", BUDGETED, HEDGED, 1, true, PLANNED_HEDGING_BROKER,
        "Budgeted queries with and without hedged sub-queries, with a straggler, on Getafix-H's plan",
        "Getafix-H's plan (a floor of 1 replica, up to 3) made while the straggler is slow, the Broker choosing a "
        + "holder at random, hedging on at the default hedgeRatio (0.05)",
        "budgeted with getafixBudgetMs = T and a mature run each, getafixHedge false or true"
    );

    final AbbaComparison<Figures> comparison;
    /** Replicas per segment; under Getafix-H's plan, its floor. */
    final int replicas;
    /** Whether Getafix-H places the data, the straggler slow throughout; otherwise a fixed placement. */
    final boolean plannedByGetafix;
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
        boolean plannedByGetafix,
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
      this.plannedByGetafix = plannedByGetafix;
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
      double p10Quality,
      double minQuality,
      double hedgesSentPerQuery,
      double hedgesWonPerQuery
  ) implements AbbaComparison.Run
  {
    /** What the client saw of each query, and each budgeted one's mature run; no hedge counts. */
    static Figures of(String setup, long targetMs, List<Answer> answers)
    {
      return of(setup, targetMs, answers, Double.NaN, Double.NaN);
    }

    /**
     * As {@link #of(String, long, List)}, with the hedges the Broker sent and used over these queries (its quality
     * endpoint's counts before and after them).
     */
    static Figures of(String setup, long targetMs, List<Answer> answers, double hedgesSent, double hedgesWon)
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
          qualities.isEmpty() ? Double.NaN : qualities.get((int) Math.floor(0.1 * (qualities.size() - 1))),
          qualities.isEmpty() ? Double.NaN : qualities.get(0),
          answers.isEmpty() ? Double.NaN : hedgesSent / answers.size(),
          answers.isEmpty() ? Double.NaN : hedgesWon / answers.size()
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
      if (variant.plannedByGetafix) {
        return runOnGetafixPlan(cluster, dataset);
      }
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
          caps(cluster),
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
      final TargetTime t = TargetTime.fromUnthrottled(broker, query);
      return measure(target, query, described + "; unthrottled it took " + t.unthrottledMs() + " ms", t.targetMs());
    }
  }

  /**
   * {@link Variant#HEDGING_PLANNED} on {@code cluster}: Getafix-H places the data and T is set from unthrottled answers;
   * then the straggler is throttled for good. While Getafix-H finds it and realises a plan that leaves no segment on it
   * alone, the two setups' queries alternate, one at a time, and are reported apart (the reaction); should the plan not
   * get there within {@link #PLAN_AROUND_STRAGGLER}, the demo's workload runs until it does. Then the repetitions, on
   * the plan made around the straggler.
   */
  private Path runOnGetafixPlan(LocalDruidCluster cluster, SyntheticDataset dataset) throws Exception
  {
    bench.progress("restarting the Broker with " + variant.broker);
    cluster.restartBroker(variant.broker, Duration.ofMinutes(10));
    bench.progress("handing placement to Getafix-H (a floor of 1 replica, up to 3)");
    final GetafixClient getafix = new GetafixClient(cluster);
    SetupPlacement.handToGetafix(cluster, dataset.dataSource(), getafix);
    final Map<String, Object> query = BudgetExperiment.stragglerQuery(dataset, dataset.interval());
    final QualityClient broker = new QualityClient(cluster.broker().uri());
    bench.progress("warming the JIT compilers up");
    cluster.warmUntilSettled(JitCompilerCpu.WarmUp.QUERIES, window -> warmUp(broker, query, window));
    final TargetTime t = TargetTime.fromUnthrottled(broker, query);
    final String straggler = cluster.historical(BudgetBench.STRAGGLER).hostAndPort();
    final Target target = new Target(cluster.broker().uri(), Callable::call);
    final String ids = queryIdPrefix();
    final PlanAroundStraggler before = PlanAroundStraggler.of(cluster, dataset, getafix, straggler);
    bench.progress("throttling Historical " + BudgetBench.STRAGGLER + " to " + STRAGGLER_CORES + " core for the rest of "
                   + "the run (" + before + ")");
    cluster.setCpuQuota(BudgetBench.STRAGGLER, STRAGGLER_CORES);
    final long throttledAt = System.nanoTime();
    teachReserve(target, query, t.targetMs(), ids);
    final long firstSeconds = Duration.ofNanos(System.nanoTime() - throttledAt).toSeconds();
    bench.progress("the two setups' queries alternating until Getafix-H has planned around the straggler");
    final Map<String, List<ReactingAnswer>> reacting = Map.of(BUDGETED, new ArrayList<>(), HEDGED, new ArrayList<>());
    final long deadline = throttledAt + PLAN_AROUND_STRAGGLER.toNanos();
    PlanAroundStraggler plan = PlanAroundStraggler.of(cluster, dataset, getafix, straggler);
    for (int i = 0; !plan.done() && System.nanoTime() < deadline; i++) {
      final String setup = i % 2 == 0 ? BUDGETED : HEDGED;
      final boolean strandedOnStraggler = plan.onStragglerAlone() > 0;
      final Answer answer = send(target, query, setup, t.targetMs(), true, ids + "reacting-" + i);
      reacting.get(setup).add(new ReactingAnswer(answer, strandedOnStraggler));
      plan = PlanAroundStraggler.of(cluster, dataset, getafix, straggler);
    }
    final long reactedSeconds = Duration.ofNanos(System.nanoTime() - throttledAt).toSeconds();
    final boolean reacted = plan.done();
    if (!reacted) {
      bench.progress("not planned around after " + reactedSeconds + " s (" + plan + "); the demo's workload until it is");
      plan = awaitPlanUnderWorkload(cluster, dataset, getafix, straggler);
    }
    bench.progress("planned around the straggler: " + plan);
    final String described = String.format(
        Locale.ROOT,
        "%s; %s; the straggler (Historical %d) throttled to %.2f core from after the warm-up to the end; before: %s; "
        + "%s; once the plan was realised: %s; the query an hourly timeseries over all %d hours with a cardinality "
        + "aggregator that hashes every row; unthrottled it took %d ms",
        caps(cluster), variant.placement, BudgetBench.STRAGGLER, STRAGGLER_CORES, before,
        reaction(reacted, firstSeconds, reactedSeconds, t.targetMs(), reacting), plan, dataset.hours(), t.unthrottledMs()
    );
    final Path report = repeat(target, query, described, t.targetMs(), ids);
    bench.progress("after the repetitions: " + PlanAroundStraggler.of(cluster, dataset, getafix, straggler));
    return report;
  }

  /** The Historicals' CPU caps in words, for the report. */
  private static String caps(LocalDruidCluster cluster)
  {
    return cluster.cgroupsEnabled() ? "Historicals capped at " + BudgetBench.CPU_QUOTAS + " cores by cgroups"
                                    : "WARNING: no cgroups, so no caps and no straggler";
  }

  /** The demo's workload in rounds until Getafix-H has planned around the straggler, or a timeout. */
  private static PlanAroundStraggler awaitPlanUnderWorkload(
      LocalDruidCluster cluster,
      SyntheticDataset dataset,
      GetafixClient getafix,
      String straggler
  ) throws Exception
  {
    final QueryMix mix = QueryMix.defaultMix(dataset);
    final long deadline = System.nanoTime() + PLAN_AROUND_STRAGGLER.toNanos();
    PlanAroundStraggler plan = PlanAroundStraggler.of(cluster, dataset, getafix, straggler);
    while (!plan.done()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "Getafix-H did not plan around the straggler under the demo's workload either within "
            + PLAN_AROUND_STRAGGLER.toMinutes() + " min: " + plan
        );
      }
      WorkloadRunner.run(cluster.brokerClient(), mix, new WorkloadRunner.Options(
          DemoOptions.DEFAULT_CLIENTS, PLAN_WORKLOAD, Integer.MAX_VALUE, 3L
      ));
      plan = PlanAroundStraggler.of(cluster, dataset, getafix, straggler);
    }
    return plan;
  }

  /**
   * A query sent while Getafix-H reacted to the straggler.
   *
   * @param strandedOnStraggler whether, when it was sent, the straggler held some segment alone: no hedge can recover
   *                            such a segment, so it caps both setups' quality until the plan gives it another holder
   */
  record ReactingAnswer(Answer answer, boolean strandedOnStraggler)
  {
  }

  /**
   * The reaction's queries in words, each setup's as {@link Figures}: all of them, and apart, those sent while the
   * straggler held segments alone and those sent after.
   *
   * @param firstSeconds when the first was sent, after the throttle (the deadline reserve's queries came before)
   * @param seconds      when Getafix-H had planned around the straggler, or gave up waiting, after the throttle
   */
  static String reaction(
      boolean reacted,
      long firstSeconds,
      long seconds,
      long targetMs,
      Map<String, List<ReactingAnswer>> answers
  )
  {
    final StringBuilder text = new StringBuilder(String.format(
        Locale.ROOT,
        "Getafix-H %s %d s after the throttle; the queries from %d s after it until then (alternating, one at a time):",
        reacted ? "had planned around the straggler" : "had not planned around the straggler", seconds, firstSeconds
    ));
    for (String setup : List.of(BUDGETED, HEDGED)) {
      final List<ReactingAnswer> sent = answers.get(setup);
      text.append(' ').append(setup).append(' ').append(inWords(setup, targetMs, sent, "sent"));
      final List<ReactingAnswer> stranded = sent.stream().filter(ReactingAnswer::strandedOnStraggler).toList();
      final List<ReactingAnswer> after = sent.stream().filter(a -> !a.strandedOnStraggler()).toList();
      text.append(" (").append(inWords(setup, targetMs, stranded, "while the straggler held segments alone"))
          .append("; ").append(inWords(setup, targetMs, after, "after")).append(");");
    }
    return text.substring(0, text.length() - 1);
  }

  private static String inWords(String setup, long targetMs, List<ReactingAnswer> sent, String which)
  {
    if (sent.isEmpty()) {
      return "none " + which;
    }
    final Figures f = Figures.of(setup, targetMs, sent.stream().map(ReactingAnswer::answer).toList());
    return String.format(
        Locale.ROOT,
        "%d %s, %.0f%% within T, mean quality %.3f, p10 %.3f",
        sent.size(), which, 100 * f.withinTarget(), f.meanQuality(), f.p10Quality()
    );
  }

  /**
   * Getafix-H's placement with a straggler, as the Coordinator shows it.
   *
   * @param flagged          whether Getafix-H's capacity estimates make the straggler one
   *                         ({@link GetafixStrategy#stragglers})
   * @param realised         whether every segment is held exactly where the plan puts it
   * @param replicas         the replicas loaded
   * @param onStraggler      segments the straggler holds
   * @param onStragglerAlone segments the straggler alone holds: no hedge can recover them
   */
  record PlanAroundStraggler(
      boolean flagged,
      boolean realised,
      int replicas,
      int onStraggler,
      int onStragglerAlone
  )
  {
    static PlanAroundStraggler of(
        LocalDruidCluster cluster,
        SyntheticDataset dataset,
        GetafixClient getafix,
        String straggler
    )
    {
      final Map<String, Double> capacities = getafix.capacities();
      final List<String> nodes = List.copyOf(capacities.keySet());
      final boolean[] stragglers = GetafixStrategy.stragglers(
          nodes.stream().mapToDouble(capacities::get).toArray()
      );
      final boolean flagged = nodes.contains(straggler) && stragglers[nodes.indexOf(straggler)];
      final Map<String, Set<String>> holders = GetafixSetup.holdersChecked(cluster, dataset.dataSource());
      final Map<String, Set<String>> planned = getafix.plannedHolders();
      return new PlanAroundStraggler(
          flagged,
          SetupPlacement.realised(holders, planned, dataset.hours()),
          holders.values().stream().mapToInt(Set::size).sum(),
          (int) holders.values().stream().filter(h -> h.contains(straggler)).count(),
          (int) holders.values().stream().filter(h -> h.equals(Set.of(straggler))).count()
      );
    }

    boolean done()
    {
      return flagged && realised && onStragglerAlone == 0;
    }

    @Override
    public String toString()
    {
      return String.format(
          Locale.ROOT,
          "straggler %s by its capacity estimate, plan %s, %d replicas, %d segments on the straggler, %d of them "
          + "on it alone",
          flagged ? "found" : "not found", realised ? "realised" : "not realised", replicas, onStraggler,
          onStragglerAlone
      );
    }
  }

  /**
   * T from the last unthrottled answers.
   *
   * @param unthrottledMs the slower of the last two unthrottled answers
   * @param targetMs      {@link #TARGET_OVER_UNTHROTTLED} times it, rounded to 10 ms, at least {@link #MIN_TARGET_MS}
   */
  record TargetTime(long unthrottledMs, long targetMs)
  {
    static TargetTime fromUnthrottled(QualityClient broker, Map<String, Object> query) throws Exception
    {
      final List<Long> unthrottled = new ArrayList<>();
      for (int i = 0; i < UNTHROTTLED_RUNS; i++) {
        unthrottled.add(broker.nativeQuery(query).millis());
      }
      // The slowest of the last two: the first runs after the warm-up may still meet cold pages.
      final long unthrottledMs = Math.max(unthrottled.get(UNTHROTTLED_RUNS - 1), unthrottled.get(UNTHROTTLED_RUNS - 2));
      return new TargetTime(
          unthrottledMs,
          Math.max(MIN_TARGET_MS, Math.round(TARGET_OVER_UNTHROTTLED * unthrottledMs / 10.0) * 10)
      );
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
    final TargetTime t = TargetTime.fromUnthrottled(broker, query);
    final String measured = cluster + "; unthrottled it took " + t.unthrottledMs() + " ms";
    return existing.targetMs() != null
           ? measure(target, query, measured + ", and T was asked", existing.targetMs())
           : measure(target, query, measured, t.targetMs());
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
   * Teaches the Broker its deadline reserve, runs the repetitions at target {@code targetMs} and writes the report.
   *
   * @param cluster the cluster, placement, query and how T was set, in words for the report
   */
  private Path measure(Target target, Map<String, Object> query, String cluster, long targetMs)
      throws Exception
  {
    final String ids = queryIdPrefix();
    teachReserve(target, query, targetMs, ids);
    return repeat(target, query, cluster, targetMs, ids);
  }

  /**
   * Unique to this run: a Broker in service keeps the mature runs of earlier runs' queries, which must not be read for
   * this run's.
   */
  private String queryIdPrefix()
  {
    return "bench-" + variant.comparison.experiment() + "-" + UUID.randomUUID().toString().substring(0, 8) + "-";
  }

  /**
   * A Broker keeps no reserve for merge and serialisation until it has seen DeadlineReserve.MIN_SAMPLES budgeted
   * queries wait until their deadline; a Broker in service has. Unmeasured cut queries teach it first, so that the
   * first budgeted phase is not the only one without a reserve: without it, that phase answers most of its queries
   * after T and the later phases within it.
   */
  private void teachReserve(Target target, Map<String, Object> query, long targetMs, String ids) throws Exception
  {
    bench.progress("teaching the Broker its deadline reserve with " + RESERVE_WARM_UP + " unmeasured budgeted queries");
    for (int i = 0; i < RESERVE_WARM_UP; i++) {
      send(target, query, BUDGETED, targetMs, false, ids + "reserve-" + i);
    }
  }

  /** Runs the repetitions at target {@code targetMs} and writes the report. */
  private Path repeat(Target target, Map<String, Object> query, String cluster, long targetMs, String ids)
      throws Exception
  {
    final int queries = bench.quick() ? 6 : 12;
    final String setup = String.format(
        Locale.ROOT,
        "%s; T = %d ms; %d queries per setup and repetition, one at a time: %s",
        cluster, targetMs, queries, variant.setups
    );
    bench.progress(setup);
    final int[] sent = {0};
    final AbbaComparison<Figures> comparison = variant.comparison;
    final QualityClient broker = new QualityClient(target.broker());
    final List<Repetition<Figures>> done = comparison.repeat(bench, name -> {
      final List<Answer> answers = new ArrayList<>();
      final JsonNode before = name.equals(STOCK) ? null : broker.qualityState();
      for (int i = 0; i < queries; i++) {
        final String id = ids + sent[0]++;
        final Answer answer = send(target, query, name, targetMs, true, id);
        answers.add(answer);
        if (answer.status() != 200 || answer.millis() > targetMs || answer.quality() < LOW_QUALITY) {
          // Named, so that the Broker's and Historicals' logs can be searched for the query.
          bench.progress(String.format(Locale.ROOT, "  %s: query %s %s", name, id, answer));
        }
      }
      if (before == null) {
        return Figures.of(name, targetMs, answers);
      }
      final JsonNode after = broker.qualityState();
      return Figures.of(name, targetMs, answers, delta(before, after, "hedgesSent"), delta(before, after, "hedgesWon"));
    });
    return bench.report(comparison.json(setup, done), html(variant, setup, done), comparison.text(done));
  }

  /** How much the quality endpoint's count {@code field} rose from {@code before} to {@code after}. */
  private static double delta(JsonNode before, JsonNode after, String field)
  {
    return after.path(field).asLong() - before.path(field).asLong();
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
