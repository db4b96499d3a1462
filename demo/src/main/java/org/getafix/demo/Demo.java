package org.getafix.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.HdrHistogram.Histogram;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.DruidRole;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.workload.QueryKind;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.QueryOutcome;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;

import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code ./getafix demo}: starts the local multi-process Druid cluster (Historicals with unequal CPU caps), ingests
 * synthetic hourly data and runs the same skewed workload under each {@link Strategy} in turn (in the order asked) on
 * that cluster and data, each warmed the same way until its Historicals' JIT compilers settle and with the strongest
 * Historical turning into a straggler halfway through each measurement; then writes
 * {@code target/getafix-demo/report.html} and {@code results.json} and stops every process (a JVM shutdown hook of
 * the launcher does that on Ctrl-C too). See docs/demo.md.
 */
public final class Demo
{
  static final String DATA_SOURCE = "getafix_demo";
  static final long SEED = 42L;
  /**
   * Share of budgeted queries that get a mature run (the Broker's {@code druid.getafix.quality.matureSampleRate}):
   * raised from the default 0.1 so that a 30 s {@code --quick} measurement still samples over a hundred runs.
   */
  static final double MATURE_SAMPLE_RATE = 0.25;
  /** Budget of druid-getafix's queries when no stock phase ran to take its p99 from. */
  static final long DEFAULT_BUDGET_MS = 1000;
  /** Druid's query context key for a query's timeout in milliseconds. */
  private static final String DRUID_TIMEOUT = "timeout";
  private static final Duration SETTLE_CHUNK = Duration.ofSeconds(10);
  private static final DateTimeFormatter SEGMENT_START =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final DemoOptions options;
  private final Path root;
  private final Path outDir;
  private final PrintStream out;
  private final long startNanos = System.nanoTime();

  Demo(DemoOptions options, Path root, Path outDir, PrintStream out)
  {
    this.options = options;
    this.root = root;
    this.outDir = outDir;
    this.out = out;
  }

  public static void main(String[] args)
  {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.println(DemoOptions.USAGE);
      return;
    }
    final DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    }
    catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(DemoOptions.USAGE);
      System.exit(2);
      return;
    }
    final Path root = Paths.get(System.getProperty("getafix.projectRoot", ".")).toAbsolutePath().normalize();
    try {
      new Demo(options, root, root.resolve("target/getafix-demo"), System.out).run();
      System.exit(0);
    }
    catch (Exception e) {
      System.err.println("[demo] failed: " + e);
      e.printStackTrace();
      System.exit(1);
    }
  }

  void run() throws Exception
  {
    final Path workDir = outDir.resolve("cluster");
    final ClusterConfig.Builder builder = GetafixSetup.clusterConfig(root)
                                                      .workDir(workDir)
                                                      .druidLibDir(root.resolve(ClusterConfig.DEFAULT_DRUID_LIB_DIR))
                                                      .historicals(options.historicals())
                                                      .cpuQuotas(options.cpuQuotas())
                                                      .property(DruidRole.BROKER, "druid.getafix.quality.matureSampleRate",
                                                                String.valueOf(MATURE_SAMPLE_RATE));
    options.strategies().get(0).brokerProperties().forEach((key, value) -> builder.property(DruidRole.BROKER, key, value));
    final ClusterConfig config = builder.build();
    progress("starting ZooKeeper, Coordinator/Overlord, Broker and " + options.historicals()
             + " Historicals capped at " + options.cpuQuotas() + " cores (logs under " + workDir + ")");
    final LocalDruidCluster cluster = LocalDruidCluster.start(config);
    boolean leaveUp = false;
    try {
      progress("cluster up in " + cluster.startupTime().toSeconds() + " s"
               + (cluster.cgroupsEnabled() ? "" : "; WARNING: cgroups not writable, CPU caps approximated by "
                                                  + "processing threads and no straggler"));
      final SyntheticDataset dataset = SyntheticDataset.hourly(DATA_SOURCE, options.hours(), options.rowsPerHour());
      progress("ingesting " + dataset.hours() + " hourly segments x " + dataset.rowsPerHour() + " rows");
      final SyntheticDataset.Ingestion ingestion =
          dataset.ingest(cluster.coordinatorClient(), cluster.runDir().resolve("input"), Duration.ofMinutes(15));
      progress("ingestion task took " + ingestion.taskTime().toSeconds() + " s; waiting for the segments to load");
      cluster.coordinatorClient().awaitFullyLoaded(DATA_SOURCE, Duration.ofMinutes(10));
      final List<String> segmentIds = List.copyOf(cluster.coordinatorClient().usedSegments(DATA_SOURCE));
      final Map<String, Long> sizes = cluster.coordinatorClient().segmentSizes(DATA_SOURCE);

      final List<DemoResults> repetitions = new ArrayList<>();
      final List<PhaseRecord> ran = new ArrayList<>();
      Budget budget = null;
      Map<String, String> broker = options.strategies().get(0).brokerProperties();
      for (List<Strategy> order : options.schedule()) {
        if (options.repetitions() > 1) {
          progress("repetition " + (repetitions.size() + 1) + " of " + options.repetitions() + ": "
                   + order.stream().map(Strategy::label).collect(Collectors.joining(", then ")));
        }
        final List<PhaseRecord> phases = new ArrayList<>();
        for (Strategy strategy : order) {
          if (!strategy.brokerProperties().equals(broker)) {
            progress("restarting the Broker with " + strategy.brokerProperties());
            cluster.restartBroker(strategy.brokerProperties(), Duration.ofMinutes(3));
            broker = strategy.brokerProperties();
          }
          if (strategy == Strategy.GETAFIX && options.budgeted() && budget == null) {
            // One budget for every repetition, so that they compare.
            budget = budget(options.budgetMs(), ran);
          }
          final PhaseRecord phase = runPhase(cluster, dataset, strategy, segmentIds, sizes, budget);
          phases.add(phase);
          ran.add(phase);
        }
        repetitions.add(new DemoResults(
            describeCluster(cluster),
            String.format(
                Locale.ROOT,
                "%d hourly segments x %d rows of synthetic data; QueryMix.defaultMix (50%% timeseries, 30%% topN, "
                + "20%% groupBy, recency-biased: queries end on average 12 hours before the newest hour), "
                + "%d closed-loop clients.",
                dataset.hours(), dataset.rowsPerHour(), options.clients()
            ) + (options.timeoutMs() == null ? "" : " Every query carries Druid's timeout of " + options.timeoutMs()
                                                    + " ms; a query past it fails."),
            SEED,
            options.warmUp().toSeconds(),
            options.measure().toSeconds(),
            options.jitWarmUp(),
            phases
        ));
      }

      if (repetitions.size() == 1) {
        final DemoResults results = repetitions.get(0);
        final Path report = DemoReport.write(outDir, results);
        out.println();
        out.print(DemoReport.summaryText(results));
        out.println();
        out.print(DemoReport.qualityText(results));
        out.println();
        out.print(DemoReport.comparisonText(results));
        out.println("report:  " + report);
      } else {
        for (int i = 0; i < repetitions.size(); i++) {
          DemoReport.write(outDir.resolve(RepetitionsReport.directory(i)), repetitions.get(i));
        }
        final Path report = RepetitionsReport.write(outDir, repetitions);
        out.println();
        out.print(RepetitionsReport.text(repetitions));
        out.println("report:  " + report + " (each repetition's own under " + outDir + "/repetition-N)");
      }
      out.println("results: " + outDir.resolve("results.json"));
      progress("done");
      if (options.keepRunning()) {
        leaveUp = true;
        out.println("cluster left running; press Ctrl-C to stop it");
        out.println("  Coordinator/Overlord: " + cluster.coordinator().uri()
                    + " (Getafix: " + cluster.coordinator().uri().resolve("/druid/coordinator/v1/getafix/status") + ")");
        out.println("  Broker:               " + cluster.broker().uri() + " (SQL: POST /druid/v2/sql)");
        out.println("  ZooKeeper:            localhost:" + cluster.zooKeeper().port());
        // Druid's web console is not published to Maven Central, so the Maven-built classpath has none.
        out.println("  Druid web console: not bundled with the Maven-built Druid; start a Druid 33 distribution's "
                    + "Router with druid.zk.service.host=localhost:" + cluster.zooKeeper().port()
                    + " to browse this cluster (untested)");
        new CountDownLatch(1).await();
      }
    }
    finally {
      if (!leaveUp) {
        progress("stopping the cluster");
        cluster.close();
        progress("cluster stopped; processes left: " + LocalDruidCluster.processesOf(workDir).size());
      }
    }
  }

  /**
   * The fixed budget of druid-getafix's queries: {@code --budget-ms} if given, else stock Druid's measured p99 (rounded
   * up to 10 ms), so that a budgeted query is cut only where stock Druid answered among its slowest 1%;
   * {@link #DEFAULT_BUDGET_MS} without a stock run.
   */
  static Budget budget(Long chosenMs, List<PhaseRecord> before)
  {
    if (chosenMs != null) {
      return new Budget(chosenMs, "set by --budget-ms");
    }
    return before.stream()
                 .filter(p -> p.strategy() == Strategy.STOCK && p.latencyMicros().getTotalCount() > 0)
                 .findFirst()
                 .map(p -> {
                   final long p99Ms = (long) Math.ceil(p.latencyMicros().getValueAtPercentile(99) / 1e3);
                   return new Budget(Math.max(10, (p99Ms + 9) / 10 * 10), "stock Druid's measured p99 in its "
                                                                        + "first phase (" + p99Ms + " ms), rounded up to 10 ms");
                 })
                 .orElse(new Budget(DEFAULT_BUDGET_MS, "the default (no stock run to take a p99 from)"));
  }

  /** A fixed {@code getafixBudgetMs} and how it was chosen, in words. */
  record Budget(long ms, String source)
  {
  }

  /**
   * @param budget  the budget druid-getafix's queries carry; null for stock Druid's and unbudgeted ones
   */
  private PhaseRecord runPhase(
      LocalDruidCluster cluster,
      SyntheticDataset dataset,
      Strategy strategy,
      List<String> segmentIds,
      Map<String, Long> sizes,
      Budget budget
  ) throws Exception
  {
    final String label = strategy.label();
    final GetafixClient getafix = new GetafixClient(cluster);
    final QueryMix mix = QueryMix.defaultMix(dataset);
    final boolean budgeted = strategy == Strategy.GETAFIX && budget != null;
    final boolean hedged = strategy == Strategy.GETAFIX && options.hedge();
    final QualityClient quality = budgeted || hedged ? new QualityClient(cluster.broker().uri()) : null;
    final Map<String, Object> context = new HashMap<>();
    if (options.timeoutMs() != null) {
      context.put(DRUID_TIMEOUT, options.timeoutMs());
    }
    if (budgeted) {
      context.put(QueryContextKeys.BUDGET_MS, budget.ms());
    }
    if (hedged) {
      context.put(QueryContextKeys.HEDGE, true);
    }
    if (hedged && options.redundancy() != null) {
      context.put(QueryContextKeys.REDUNDANCY, options.redundancy());
    }
    final PhaseSampler sampler = new PhaseSampler(
        cluster,
        DATA_SOURCE,
        strategy == Strategy.GETAFIX,
        budgeted ? quality : null,
        GetafixSetup.ROUND_SECONDS * 1000L
    );
    final JsonNode qualityAtStart = quality == null ? null : readOrEmpty("quality endpoint", quality::qualityState);
    final JsonNode statusAtStart = readOrEmpty("Getafix status", getafix::status);
    final Waits.Check settled;
    double gamma = 0;
    ScheduledExecutorService stalls = null;
    try {
      progress(label + ": handing placement over (" + strategy.balancer() + " balancer, " + strategy.router()
               + " routing)");
      if (strategy == Strategy.STOCK) {
        GetafixSetup.handPlacementToStock(cluster, DATA_SOURCE, 2);
        settled = () -> {
          final Map<String, Set<String>> holders = GetafixSetup.holdersChecked(cluster, DATA_SOURCE);
          return holders.size() == segmentIds.size() && holders.values().stream().allMatch(h -> h.size() == 2);
        };
      } else {
        GetafixSetup.handPlacementToGetafix(cluster, DATA_SOURCE, 1);
        getafix.setConfig(Map.of(
            "enabled", true,
            "dryRun", false,
            "maxReplicas", 3,
            "backUpUnstable", options.backUpUnstable()
        ));
        Waits.await("Getafix to act", Duration.ofMinutes(3), () -> "ACTIVE".equals(getafix.mode()));
        gamma = getafix.config().path("gamma").asDouble();
        final String hedging = !hedged ? ""
                               : options.redundancy() == null ? "getafixHedge=true"
                               : "getafixHedge=true, getafixRedundancy=" + options.redundancy();
        if (budgeted) {
          progress(label + ": every query carries getafixBudgetMs=" + budget.ms() + " (" + budget.source() + ")"
                   + (hedged ? " and " + hedging : "") + "; the Broker samples " + MATURE_SAMPLE_RATE
                   + " of them for a mature run");
        } else {
          progress(label + ": queries carry no budget" + (hedged ? "; every one carries " + hedging : ""));
        }
        settled = () -> {
          final Map<String, Set<String>> planned = getafix.plannedHolders();
          final Map<String, Set<String>> holders = GetafixSetup.holdersChecked(cluster, DATA_SOURCE);
          final long plannedReplicas = planned.values().stream().mapToLong(Set::size).sum();
          final long loadedReplicas = holders.values().stream().mapToLong(Set::size).sum();
          return !planned.isEmpty()
                 && planned.entrySet().stream().allMatch(
                     e -> holders.getOrDefault(e.getKey(), Set.of()).containsAll(e.getValue()))
                 && loadedReplicas <= plannedReplicas + Math.max(2, plannedReplicas / 20);
        };
      }

      // Periodic stalls are a standing condition, not an event: they start with the warm-up, so that each setup is
      // measured as it has settled under them (the plan backs up a node only after it has seen it stall).
      stalls = startStalls(cluster, label);
      progress(label + ": warming up for " + options.warmUp().toSeconds() + " s, then until placement settles "
               + "(at most " + options.settleTimeout().toSeconds() + " s more)");
      final long warmUpStart = System.nanoTime();
      WorkloadRunner.run(cluster.brokerClient(), mix, new WorkloadRunner.Options(options.clients(), options.warmUp(), 0, SEED + 1000, context));
      final long deadline = System.nanoTime() + options.settleTimeout().toNanos();
      boolean isSettled = check(settled);
      for (int chunk = 1; !isSettled && System.nanoTime() < deadline; chunk++) {
        WorkloadRunner.run(cluster.brokerClient(), mix, new WorkloadRunner.Options(options.clients(), SETTLE_CHUNK, 0, SEED + 1000 + chunk, context));
        isSettled = check(settled);
      }
      progress(label + (isSettled ? ": placement settled" : ": placement did not settle in time; measuring anyway"));
      final double placementSeconds = (System.nanoTime() - warmUpStart) / 1e9;

      final JitCompilerCpu.WarmUp jitWarmUp = options.jitWarmUp();
      progress(String.format(
          Locale.ROOT,
          "%s: warming until no Historical's JIT compilers take more than %.0f%% of its CPU over a %d s window "
          + "(at most %d s)",
          label, 100 * jitWarmUp.settledShare(), jitWarmUp.window().toSeconds(), jitWarmUp.deadline().toSeconds()
      ));
      final AtomicInteger jitWindow = new AtomicInteger();
      final JitCompilerCpu.Settling jit = cluster.warmUntilSettled(jitWarmUp, length -> WorkloadRunner.run(
          cluster.brokerClient(),
          mix,
          new WorkloadRunner.Options(options.clients(), length, 0, SEED + 2000 + jitWindow.getAndIncrement(), context)
      ));
      progress(String.format(
          Locale.ROOT,
          "%s: JIT warm-up took %d s (%d windows); the compilers' largest share in the last window: %s",
          label, jit.took().toSeconds(), jit.windows(), DemoReport.share(jit.lastShare())
      ));

      final int stragglerIndex = strongest();
      final String straggler = cluster.cgroupsEnabled() ? cluster.historical(stragglerIndex).hostAndPort() : null;
      final double[] stragglerAt = {Double.NaN};
      final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
      final double measureFrom = sampler.seconds();
      final Instant measureStart = Instant.now();
      final WorkloadResult measured;
      final Map<Long, JitCompilerCpu.CpuTimes> jitBefore = JitCompilerCpu.ofThisMachine().read(cluster.historicalPids());
      try {
        if (straggler != null && options.stalls() == null) {
          timer.schedule(() -> {
            cluster.setCpuQuota(stragglerIndex, options.stragglerCores());
            stragglerAt[0] = sampler.seconds();
            progress(label + ": " + cluster.historical(stragglerIndex).name() + " is now a straggler ("
                     + options.stragglerCores() + " core)");
          }, options.measure().toMillis() / 2, TimeUnit.MILLISECONDS);
        }
        progress(label + ": measuring for " + options.measure().toSeconds() + " s");
        measured = WorkloadRunner.run(
            cluster.brokerClient(),
            mix,
            new WorkloadRunner.Options(options.clients(), options.measure(), 0, SEED, context)
        );
      }
      finally {
        timer.shutdownNow();
        timer.awaitTermination(30, TimeUnit.SECONDS);
        if (straggler != null) {
          cluster.setCpuQuota(stragglerIndex, options.cpuQuotas().get(stragglerIndex));
        }
      }
      final double measureTo = sampler.seconds();
      final JsonNode statusAtEnd = readOrEmpty("Getafix status", getafix::status);
      final double jitShareMeasured = JitCompilerCpu.largestCompilerShare(
          jitBefore,
          JitCompilerCpu.ofThisMachine().read(cluster.historicalPids())
      );
      if (budgeted) {
        awaitMatureRuns(quality, label);
      }
      sampler.close();
      progress(label + ": " + measured.summary());
      if (hedged && !budgeted) {
        final JsonNode qualityAtEnd = readOrEmpty("quality endpoint", quality::qualityState);
        final long hedgeable = since(qualityAtStart, qualityAtEnd, "hedgeableSubQueries");
        final long extra = since(qualityAtStart, qualityAtEnd, "hedgesSent")
                           + since(qualityAtStart, qualityAtEnd, "copiesSent");
        progress(label + ": of " + hedgeable + " hedgeable sub-queries, hedges sent "
                 + since(qualityAtStart, qualityAtEnd, "hedgesSent") + ", won "
                 + since(qualityAtStart, qualityAtEnd, "hedgesWon") + "; copies sent up front "
                 + since(qualityAtStart, qualityAtEnd, "copiesSent") + ", won "
                 + since(qualityAtStart, qualityAtEnd, "copiesWon") + "; extra sub-queries "
                 + String.format(Locale.ROOT, "%.1f%%", hedgeable == 0 ? 0.0 : 100.0 * extra / hedgeable)
                 + " (from the warm-up on)");
      }
      final List<TimedQuery> timeline =
          measured.outcomes().stream()
                  .filter(QueryOutcome::success)
                  .sorted((a, b) -> a.startedAt().compareTo(b.startedAt()))
                  .map(o -> new TimedQuery(
                      measureFrom + Duration.between(measureStart, o.startedAt()).toNanos() / 1e9,
                      o.latencyNanos() / 1e6,
                      o.coverage()
                  ))
                  .toList();
      final QualityRecord qualityRecord =
          budgeted ? qualityRecord(quality, budget, sampler, measured, qualityAtStart) : null;

      final Map<String, Histogram> byType = new LinkedHashMap<>();
      for (QueryKind kind : QueryKind.values()) {
        byType.put(kind.name().toLowerCase(Locale.ROOT), measured.latencyMicros(kind));
      }
      return new PhaseRecord(
          strategy,
          IntStream.range(0, options.historicals())
                   .mapToObj(i -> new Node(
                       cluster.historical(i).hostAndPort(),
                       cluster.historical(i).name(),
                       options.cpuQuotas().get(i)
                   ))
                   .toList(),
          sampler.samples(),
          measureFrom,
          measureTo,
          straggler,
          stragglerAt[0],
          isSettled,
          measured.latencyMicros(),
          byType,
          measured.outcomes().size(),
          measured.failures().size(),
          measured.failures().stream().map(QueryOutcome::error).distinct().limit(3).toList(),
          measured.wallTime().toNanos() / 1e9,
          segmentIds,
          sizes,
          segmentAccesses(dataset, segmentIds, measured.outcomes()),
          gamma,
          timeline,
          qualityRecord,
          new PhaseWarmUp(placementSeconds, jit.took().toNanos() / 1e9, jit.windows(), jit.lastShare(), jitShareMeasured),
          since(statusAtStart, statusAtEnd, "statsRejected"),
          since(statusAtStart, statusAtEnd, "statsMissing")
      );
    }
    finally {
      if (stalls != null) {
        stalls.shutdownNow();
        stalls.awaitTermination(30, TimeUnit.SECONDS);
        cluster.setCpuQuota(strongest(), options.cpuQuotas().get(strongest()));
      }
      sampler.close();
    }
  }

  /**
   * With {@code --stalls} on a cluster with cgroups, throttles the strongest Historical to {@code --straggler-cores}
   * for the stalls' length at the end of every period, from now until the returned timer is shut down; else null.
   */
  private ScheduledExecutorService startStalls(LocalDruidCluster cluster, String label)
  {
    final DemoOptions.Stalls stalls = options.stalls();
    if (stalls == null || !cluster.cgroupsEnabled()) {
      return null;
    }
    final int node = strongest();
    final long stallMillis = stalls.lasting().toMillis();
    final long periodMillis = stalls.every().toMillis();
    progress(label + ": " + cluster.historical(node).name() + " stalls (" + options.stragglerCores() + " core) "
             + stalls.describe() + ", from the warm-up on");
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    timer.scheduleAtFixedRate(() -> {
      cluster.setCpuQuota(node, options.stragglerCores());
      timer.schedule(
          () -> cluster.setCpuQuota(node, options.cpuQuotas().get(node)),
          stallMillis,
          TimeUnit.MILLISECONDS
      );
    }, periodMillis - stallMillis, periodMillis, TimeUnit.MILLISECONDS);
    return timer;
  }

  /** Lets the mature runs of the last measured queries finish, so that their qualities count. */
  private void awaitMatureRuns(QualityClient quality, String label)
  {
    try {
      Waits.await("mature runs in flight to finish", Duration.ofSeconds(60),
                  () -> quality.qualityState().path("matureRunsInFlight").asInt() == 0);
    }
    catch (Exception e) {
      progress(label + ": mature runs still in flight after 60 s; reporting the finished ones (" + e.getMessage() + ")");
    }
  }

  /**
   * The mature runs of the measured queries, as the sampler collected them from the quality endpoint, and the quality
   * monitor's counters since {@code atStart} (the Broker keeps them across phases unless it restarts).
   */
  private QualityRecord qualityRecord(
      QualityClient quality,
      Budget budget,
      PhaseSampler sampler,
      WorkloadResult measured,
      JsonNode atStart
  )
  {
    final Map<String, MatureRunReport> runs = sampler.matureRuns();
    final List<Double> qualities = measured.outcomes().stream()
                                           .map(o -> runs.get(queryId(o)))
                                           .filter(r -> r != null && !Double.isNaN(r.measuredQuality()))
                                           .map(MatureRunReport::measuredQuality)
                                           .toList();
    final JsonNode atEnd = readOrEmpty("quality endpoint", quality::qualityState);
    return new QualityRecord(
        budget.ms(),
        budget.source(),
        MATURE_SAMPLE_RATE,
        qualities,
        since(atStart, atEnd, "matureRunsFailed"),
        since(atStart, atEnd, "matureRunsSkipped"),
        options.hedge(),
        since(atStart, atEnd, "hedgesSent"),
        since(atStart, atEnd, "hedgesWon")
    );
  }

  /** What {@code read} returns; an empty object (every counter 0) where {@code what} cannot be read. */
  private static JsonNode readOrEmpty(String what, Callable<JsonNode> read)
  {
    try {
      return read.call();
    }
    catch (Exception e) {
      System.err.println("[demo] " + what + " unreadable: " + e.getMessage());
      return JsonNodeFactory.instance.objectNode();
    }
  }

  private static long since(JsonNode atStart, JsonNode atEnd, String counter)
  {
    return Math.max(0, atEnd.path(counter).asLong() - atStart.path(counter).asLong());
  }

  private static String queryId(QueryOutcome outcome)
  {
    return outcome.query().query().get("context") instanceof Map<?, ?> context
           ? String.valueOf(context.get("queryId"))
           : "";
  }

  private static boolean check(Waits.Check condition)
  {
    try {
      return condition.ready();
    }
    catch (Exception e) {
      return false;
    }
  }

  /** Index of the Historical with the largest cap: the one whose loss of capacity hurts most. */
  private int strongest()
  {
    return IntStream.range(0, options.historicals()).boxed()
                    .max((a, b) -> Double.compare(options.cpuQuotas().get(a), options.cpuQuotas().get(b)))
                    .orElse(0);
  }

  /** Per segment (in {@code segmentIds} order), how many of the queries read its hour. */
  static long[] segmentAccesses(SyntheticDataset dataset, List<String> segmentIds, List<QueryOutcome> outcomes)
  {
    final int[] segmentOfHour = new int[dataset.hours()];
    for (int h = 0; h < dataset.hours(); h++) {
      final String prefix = dataset.dataSource() + "_"
                            + SEGMENT_START.format(dataset.start().plus(h, ChronoUnit.HOURS));
      segmentOfHour[h] = IntStream.range(0, segmentIds.size())
                                  .filter(i -> segmentIds.get(i).startsWith(prefix))
                                  .findFirst()
                                  .orElse(-1);
    }
    final long[] accesses = new long[segmentIds.size()];
    for (QueryOutcome o : outcomes) {
      for (int h = Math.max(0, o.query().fromHour()); h < Math.min(dataset.hours(), o.query().toHourExclusive()); h++) {
        if (segmentOfHour[h] >= 0) {
          accesses[segmentOfHour[h]]++;
        }
      }
    }
    return accesses;
  }

  private String describeCluster(LocalDruidCluster cluster)
  {
    final String caps = options.cpuQuotas().stream().map(q -> q + "").collect(Collectors.joining(" / "));
    return "Druid 33.0.0 on localhost: ZooKeeper, a Coordinator that is also the Overlord, a Broker and "
           + options.historicals() + " Historicals capped at " + caps + " cores"
           + (cluster.cgroupsEnabled()
              ? " by cgroup v1 CPU quotas; the " + options.cpuQuotas().get(strongest()) + "-core Historical is "
                + "throttled to " + options.stragglerCores() + " core "
                + (options.stalls() == null
                   ? "halfway through each measurement."
                   : options.stalls().describe() + " from each warm-up to the end of its measurement.")
              : " (cgroups not writable here: caps approximated by processing threads, no straggler).")
           + " Machine: " + Runtime.getRuntime().availableProcessors() + " cores.";
  }

  private void progress(String message)
  {
    final long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
    out.printf(Locale.ROOT, "[demo %02d:%02d] %s%n", seconds / 60, seconds % 60, message);
  }
}
