package org.getafix.localcluster.experiment;

import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.MetricsReceiver;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Broker strategies compared on one live cluster with a straggler: each phase restarts the Broker with one
 * {@code druid.broker.balancer.type}, warms it on equal Historicals, throttles one Historical and measures the same
 * query sequence. Every Historical holds every segment (the {@code getafix} rule with a floor of all of them), so every
 * strategy has the same full choice of replicas, and Getafix stays active, so that ABR has a routing table. The
 * Broker's metrics are read as an operator's collector reads them, from Druid's {@code http} emitter: sub-queries per
 * Historical are its {@code query/node/time} events, the policy in use the {@code policy} dimension of
 * {@code getafix/route/picks}. Shared by the routing integration test and {@code ./getafix bench live}.
 */
public final class RoutingComparison
{
  public static final String CONNECTION_COUNT = "connectionCount";
  public static final String ADAPTIVE = "getafixAdaptive";
  public static final String ABR = "getafixAbr";
  private static final String PICKS = GetafixMetric.ROUTE_PICKS.metricName();
  /** The routing extension's emitters, beside the http one the figures are read from. */
  private static final List<String> EMITTERS = List.of("getafix", "getafixRouting");
  private static final Duration BROKER_RESTART = Duration.ofMinutes(3);

  /**
   * How a comparison runs.
   *
   * @param straggler      index of the Historical throttled while measured
   * @param equalCores     every Historical's cores while warming up
   * @param stragglerCores the straggler's cores while measured
   * @param clients        closed-loop clients
   * @param seed           the query sequence's seed, the same in every phase
   * @param clusterWarmUp  workload once, before the first phase, until the Historicals' JIT compilers settle (and the
   *                       pages of the replicas are read), so that the first phase is not the one that compiles
   * @param warmUp         workload of each phase on equal Historicals, after its Broker restart
   * @param measure        workload of each phase measured with the straggler
   */
  public record Settings(
      int straggler,
      double equalCores,
      double stragglerCores,
      int clients,
      long seed,
      JitCompilerCpu.WarmUp clusterWarmUp,
      Duration warmUp,
      Duration measure
  )
  {
  }

  /** What one strategy did while the straggler was throttled. */
  public record Phase(
      String type,
      WorkloadResult run,
      Map<String, Long> subQueriesPerServer,
      Map<String, Double> picksPerPolicy,
      Map<String, Double> fallbacksPerReason,
      int tableAgeReports
  )
  {
    /** The share of the Broker's sub-queries that went to {@code server}; NaN when none were seen. */
    public double shareOf(String server)
    {
      final long total = subQueriesPerServer.values().stream().mapToLong(Long::longValue).sum();
      return total == 0 ? Double.NaN : subQueriesPerServer.getOrDefault(server, 0L) / (double) total;
    }

    public double p99Millis()
    {
      return run.latencyMicros().getValueAtPercentile(99) / 1000.0;
    }

    public double p50Millis()
    {
      return run.latencyMicros().getValueAtPercentile(50) / 1000.0;
    }
  }

  private final LocalDruidCluster cluster;
  private final SyntheticDataset dataset;
  private final MetricsReceiver metrics;
  private final Settings settings;
  private final QueryMix mix;

  public RoutingComparison(LocalDruidCluster cluster, SyntheticDataset dataset, MetricsReceiver metrics, Settings settings)
  {
    this.cluster = cluster;
    this.dataset = dataset;
    this.metrics = metrics;
    this.settings = settings;
    this.mix = QueryMix.defaultMix(dataset);
  }

  /** The Broker's picks metric names the policy by the strategy's type; Druid's own strategies report none. */
  public static boolean isGetafixStrategy(String type)
  {
    return type.startsWith("getafix");
  }

  /**
   * Hands placement to Getafix with every segment on every Historical, waits until they are there and the routing
   * table covers them, and runs the cluster warm-up on equal Historicals until their JIT compilers settle.
   */
  public JitCompilerCpu.Settling prepare() throws Exception
  {
    final GetafixClient getafix = new GetafixClient(cluster);
    final int all = cluster.historicals().size();
    GetafixSetup.handPlacementToGetafix(cluster, dataset.dataSource(), all);
    getafix.setConfig(Map.of("enabled", true, "dryRun", false, "maxReplicas", all));
    Waits.await(
        "every segment on all " + all + " Historicals and a routing table for all of them",
        Duration.ofMinutes(5),
        Duration.ofSeconds(1),
        () -> "ACTIVE".equals(getafix.mode())
              && holders().size() == dataset.hours()
              && holders().values().stream().allMatch(h -> h.size() == all)
              && getafix.routing().path("segments").size() == dataset.hours(),
        () -> "mode " + getafix.mode() + ", holders " + holders()
    );
    equalQuotas();
    return cluster.warmUntilSettled(settings.clusterWarmUp(), window -> run(window, settings.seed() + 2000));
  }

  /** One phase: the Broker restarted with {@code type}, warmed on equal Historicals, then measured with the straggler. */
  public Phase runPhase(String type) throws IOException, TimeoutException, InterruptedException
  {
    equalQuotas();
    final Map<String, String> broker = new HashMap<>(metrics.emitterProperties(EMITTERS));
    broker.put("druid.broker.balancer.type", type);
    cluster.restartBroker(broker, BROKER_RESTART);
    run(settings.warmUp(), settings.seed() + 1000);

    cluster.setCpuQuota(settings.straggler(), settings.stragglerCores());
    final Instant from = Instant.now();
    final WorkloadResult run = run(settings.measure(), settings.seed());
    final Instant to = Instant.now();
    equalQuotas();
    // The http emitter flushes every half second: wait until the Broker's query/time of every measured query is in
    // (the Broker creates it just after the response, so possibly after `to`: nothing else queries meanwhile), and,
    // for a Getafix strategy, a routing round has reported the picks made up to the end of the run.
    final boolean getafixStrategy = isGetafixStrategy(type);
    Waits.await(
        "the Broker's metrics of the " + type + " run",
        Duration.ofMinutes(1),
        Duration.ofMillis(500),
        () -> metrics.events("query/time", from, Instant.now(), e -> true).size() >= run.successCount()
              && (!getafixStrategy || !metrics.events(PICKS, to, Instant.now(), e -> true).isEmpty()),
        () -> ": " + metrics.events("query/time", from, Instant.now(), e -> true).size()
              + " query/time events for " + run.successCount() + " successful queries"
    );
    final Instant reported = Instant.now();
    return new Phase(
        type,
        run,
        metrics.countBy("query/node/time", "server", from, reported),
        metrics.sumBy(PICKS, MetricDimension.POLICY, from, reported),
        metrics.sumBy(GetafixMetric.ROUTE_FALLBACKS.metricName(), MetricDimension.REASON, from, reported),
        metrics.events(GetafixMetric.ROUTE_TABLE_AGE.metricName(), from, reported, e -> true).size()
    );
  }

  /** Gives every Historical back the cores it was started with, and the cluster the Broker it was started with. */
  public void restore() throws IOException, TimeoutException
  {
    for (int i = 0; i < cluster.historicals().size(); i++) {
      cluster.setCpuQuota(i, cluster.config().cpuQuota(i));
    }
    cluster.restartBroker(Map.of(), BROKER_RESTART);
  }

  /** The Historical throttled while measured, as the Broker's metrics name it. */
  public String straggler()
  {
    return cluster.historical(settings.straggler()).hostAndPort();
  }

  public Settings settings()
  {
    return settings;
  }

  /** The setup in words, for reports. */
  public String describe()
  {
    return describe(cluster.historicals().size(), cluster.cgroupsEnabled(), dataset, settings);
  }

  static String describe(int historicals, boolean cgroups, SyntheticDataset dataset, Settings settings)
  {
    return String.format(
        Locale.ROOT,
        "%d Historicals capped at %s cores each (cgroups %s), every segment on all of them; %d hourly segments x %d "
        + "rows; QueryMix.defaultMix, %d closed-loop clients, seed %d; once, workload until no Historical's JIT "
        + "compilers took more than %.0f%% of its CPU over %d s (at most %d s); per phase a Broker restart, %d s of "
        + "warm-up on equal Historicals, then %d s measured with Historical %d throttled to %s cores",
        historicals, settings.equalCores(), cgroups, dataset.hours(), dataset.rowsPerHour(), settings.clients(),
        settings.seed(), 100 * settings.clusterWarmUp().settledShare(), settings.clusterWarmUp().window().toSeconds(),
        settings.clusterWarmUp().deadline().toSeconds(), settings.warmUp().toSeconds(), settings.measure().toSeconds(),
        settings.straggler(), settings.stragglerCores()
    );
  }

  private void equalQuotas()
  {
    for (int i = 0; i < cluster.historicals().size(); i++) {
      cluster.setCpuQuota(i, settings.equalCores());
    }
  }

  private WorkloadResult run(Duration duration, long seed) throws InterruptedException
  {
    return WorkloadRunner.run(
        cluster.brokerClient(), mix, new WorkloadRunner.Options(settings.clients(), duration, 0, seed)
    );
  }

  private Map<String, Set<String>> holders()
  {
    return GetafixClient.holdersBySegment(cluster.coordinatorClient().segmentsPerServer(dataset.dataSource()));
  }
}
