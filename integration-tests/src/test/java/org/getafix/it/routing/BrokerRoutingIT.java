package org.getafix.it.routing;

import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.cluster.MetricsReceiver;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.it.getafix.GetafixItCluster;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Broker strategies on the shared live cluster ({@link GetafixItCluster}), one Broker restart per
 * {@code druid.broker.balancer.type}: Druid's own {@code connectionCount}, {@code getafixLbr}, {@code getafixLbrMl},
 * {@code getafixAdaptive}, {@code connectionCount} again, and {@code getafixAbr}.
 *
 * <p>Every Historical holds every segment (the {@code getafix} rule with a floor of 3), so each strategy has the same
 * full choice of replicas, and Getafix stays active, so that ABR has a routing table. Each phase runs the same
 * workload on equal Historicals (all capped at {@value #EQUAL_CORES} cores) as a warm-up, then throttles one Historical
 * to {@value #STRAGGLER_CORES} cores and measures. The Broker's metrics are read as an operator's collector reads them,
 * from Druid's {@code http} emitter ({@link MetricsReceiver}): sub-queries per Historical are its
 * {@code query/node/time} events, the policy in use is the {@code policy} dimension of {@code getafix/route/picks}.
 *
 * <p>{@code connectionCount} runs first and again before ABR, to expose drift. Writes every phase's figures (p50/p99, p99
 * ratio to the better {@code connectionCount} run, the straggler's share of
 * sub-queries) to {@code integration-tests/target/broker-routing.json}; asserts that every strategy serves the
 * workload and reports its policy, and that adaptive selection sends the straggler a smaller share than
 * {@code connectionCount}. Latency ratios are reported, not asserted.
 */
@ExtendWith(DruidClusterExtension.class)
class BrokerRoutingIT
{
  private static final SyntheticDataset DATASET = GetafixItCluster.DATASET;
  private static final int STRAGGLER = GetafixItCluster.STRONG;
  private static final double EQUAL_CORES = 0.5;
  private static final double STRAGGLER_CORES = 0.1;
  private static final int THREADS = 4;
  private static final long SEED = 7L;
  private static final Duration CLUSTER_WARM_UP = Duration.ofSeconds(45);
  private static final Duration WARM_UP = Duration.ofSeconds(15);
  private static final Duration MEASURE = Duration.ofSeconds(40);
  private static final Duration BROKER_RESTART = Duration.ofMinutes(3);
  private static final String CONNECTION_COUNT = "connectionCount";
  private static final String ADAPTIVE = "getafixAdaptive";
  private static final String ABR = "getafixAbr";
  private static final String PICKS = "getafix/route/picks";
  private static final String FALLBACKS = "getafix/route/fallbacks";
  private static final String TABLE_AGE = "getafix/route/table/age";

  /**
   * Broker strategy type → the {@code policy} its picks metric must carry: a Getafix policy reports its own type
   * (one name everywhere); "" for Druid's own strategy, which reports none.
   */
  private static final Map<String, String> POLICIES = Map.of(
      CONNECTION_COUNT, "",
      ABR, ABR,
      "getafixLbr", "getafixLbr",
      "getafixLbrMl", "getafixLbrMl",
      ADAPTIVE, ADAPTIVE
  );
  /**
   * The phases in order. {@code connectionCount} runs first and again after the other load-based strategies, so that
   * a drift of the cluster over the run (warmer JITs and page caches, other load on the machine) shows as a difference
   * between its two runs instead of passing for a difference between strategies. ABR runs last: it loads the
   * straggler most, and the phase after it ran slower in earlier runs.
   */
  private static final List<String> ORDER = List.of(
      CONNECTION_COUNT, "getafixLbr", "getafixLbrMl", ADAPTIVE, CONNECTION_COUNT, ABR
  );

  private static final List<Phase> PHASES = new ArrayList<>();
  private static LocalDruidCluster cluster;
  private static MetricsReceiver metrics;

  /** What one strategy did while the straggler was throttled. */
  private record Phase(
      String type,
      WorkloadResult run,
      Map<String, Long> subQueriesPerServer,
      Map<String, Double> picksPerPolicy,
      Map<String, Double> fallbacksPerReason,
      int tableAgeReports
  )
  {
    double shareOf(String server)
    {
      final long total = subQueriesPerServer.values().stream().mapToLong(Long::longValue).sum();
      return total == 0 ? Double.NaN : subQueriesPerServer.getOrDefault(server, 0L) / (double) total;
    }

    double p99Millis()
    {
      return run.latencyMicros().getValueAtPercentile(99) / 1000.0;
    }
  }

  @BeforeAll
  static void runTheWorkloadUnderEveryStrategy() throws Exception
  {
    cluster = SharedDruidCluster.acquire(GetafixItCluster.config());
    SharedDruidCluster.ensureIngested(DATASET);
    metrics = MetricsReceiver.start();
    final GetafixClient getafix = new GetafixClient(cluster);
    GetafixItCluster.handPlacementToGetafix(cluster, 3);
    getafix.setConfig(Map.of("enabled", true, "dryRun", false, "maxReplicas", 3));
    Waits.await(
        "every segment on all 3 Historicals and a routing table for all of them",
        Duration.ofMinutes(5),
        Duration.ofSeconds(1),
        () -> "ACTIVE".equals(getafix.mode())
              && holders().size() == DATASET.hours()
              && holders().values().stream().allMatch(h -> h.size() == 3)
              && getafix.routing().path("segments").size() == DATASET.hours(),
        () -> "mode " + getafix.mode() + ", holders " + holders()
    );
    try {
      // The Historicals' JITs and the pages of the replicas just loaded warm up once, before any phase.
      for (int i = 0; i < cluster.historicals().size(); i++) {
        cluster.setCpuQuota(i, EQUAL_CORES);
      }
      System.out.println("cluster warm-up: " + run(QueryMix.defaultMix(DATASET), CLUSTER_WARM_UP, SEED + 2000).summary());
      for (String type : ORDER) {
        PHASES.add(runPhase(type));
      }
    }
    finally {
      for (int i = 0; i < cluster.historicals().size(); i++) {
        cluster.setCpuQuota(i, cluster.config().cpuQuota(i));
      }
      // Hand the shared cluster on with the Broker it was started with.
      cluster.restartBroker(Map.of(), BROKER_RESTART);
    }
    writeFigures();
  }

  @AfterAll
  static void stopReceiver()
  {
    if (metrics != null) {
      metrics.close();
    }
  }

  private static Phase runPhase(String type) throws Exception
  {
    for (int i = 0; i < cluster.historicals().size(); i++) {
      cluster.setCpuQuota(i, EQUAL_CORES);
    }
    final Map<String, String> broker = new HashMap<>(metrics.emitterProperties(List.of("getafix", "getafixRouting")));
    broker.put("druid.broker.balancer.type", type);
    cluster.restartBroker(broker, BROKER_RESTART);
    final QueryMix mix = QueryMix.defaultMix(DATASET);
    final WorkloadResult warmUp = run(mix, WARM_UP, SEED + 1000);
    System.out.println(type + " warm-up on equal Historicals: " + warmUp.summary());

    cluster.setCpuQuota(STRAGGLER, STRAGGLER_CORES);
    final Instant from = Instant.now();
    final WorkloadResult run = run(mix, MEASURE, SEED);
    final Instant to = Instant.now();
    // The http emitter flushes every half second: wait until the Broker's query/time of every measured query is in
    // (the Broker creates it just after the response, so possibly after `to`: nothing else queries meanwhile), and,
    // for a Getafix strategy, a routing round has reported the picks made up to the end of the run.
    final boolean getafixStrategy = !POLICIES.get(type).isEmpty();
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
    final Phase phase = new Phase(
        type,
        run,
        metrics.countBy("query/node/time", "server", from, reported),
        metrics.sumBy(PICKS, "policy", from, reported),
        metrics.sumBy(FALLBACKS, "reason", from, reported),
        metrics.events(TABLE_AGE, from, reported, e -> true).size()
    );
    System.out.println(type + " with a straggler: " + run.summary() + "; sub-queries per Historical "
                       + phase.subQueriesPerServer() + ", picks " + phase.picksPerPolicy()
                       + ", fallbacks " + phase.fallbacksPerReason());
    return phase;
  }

  private static WorkloadResult run(QueryMix mix, Duration duration, long seed) throws InterruptedException
  {
    return WorkloadRunner.run(cluster.brokerClient(), mix, new WorkloadRunner.Options(THREADS, duration, 0, seed));
  }

  private static Map<String, Set<String>> holders()
  {
    return GetafixClient.holdersBySegment(cluster.coordinatorClient().segmentsPerServer(DATASET.dataSource()));
  }

  private static String straggler()
  {
    return cluster.historical(STRAGGLER).hostAndPort();
  }

  @Test
  void everyStrategyServesTheWorkloadAndItsMetricsShowThePolicyInUse()
  {
    assertEquals(ORDER, PHASES.stream().map(Phase::type).toList(), "a phase did not run");
    for (Phase phase : PHASES) {
      final String type = phase.type();
      final String policy = POLICIES.get(type);
      assertTrue(phase.run().successCount() >= 20, type + " served too few queries: " + phase.run().summary());
      assertTrue(
          phase.run().failures().size() <= phase.run().outcomes().size() / 100,
          type + " failed queries: " + phase.run().failures().stream().limit(3).toList()
      );
      assertEquals(
          cluster.historicals().stream().map(LocalNode::hostAndPort).collect(Collectors.toSet()),
          phase.subQueriesPerServer().keySet(),
          type + ": the Broker's query/node/time should name every Historical"
      );
      if (policy.isEmpty()) {
        assertTrue(phase.picksPerPolicy().isEmpty(), "Druid's own strategy, yet Getafix picks were reported: " + phase.picksPerPolicy());
      } else {
        assertEquals(Set.of(policy), phase.picksPerPolicy().keySet(), type + " should report picks of policy " + policy);
        // Each query picks a Historical for each of its segments: at least one pick per query.
        assertTrue(
            phase.picksPerPolicy().get(policy) >= phase.run().successCount(),
            type + " reported " + phase.picksPerPolicy() + " picks for " + phase.run().successCount() + " queries"
        );
      }
    }
    final Phase abr = phase(ABR).get(0);
    assertTrue(abr.tableAgeReports() > 0, "ABR never reported an installed routing table");
    final double abrFallbacks = abr.fallbacksPerReason().values().stream().mapToDouble(Double::doubleValue).sum();
    assertTrue(
        abrFallbacks < 0.1 * abr.picksPerPolicy().get(ABR),
        "ABR should follow the table for nearly every pick, but fell back " + abr.fallbacksPerReason()
        + " of " + abr.picksPerPolicy() + " picks"
    );
  }

  @Test
  void adaptiveSelectionSendsTheStragglerASmallerShareThanConnectionCount()
  {
    final double adaptive = phase(ADAPTIVE).get(0).shareOf(straggler());
    for (Phase connectionCount : phase(CONNECTION_COUNT)) {
      assertTrue(
          adaptive < connectionCount.shareOf(straggler()),
          "straggler's share of sub-queries: adaptive " + adaptive + " vs connectionCount "
          + connectionCount.shareOf(straggler()) + " (each connectionCount run: "
          + phase(CONNECTION_COUNT).stream().map(p -> p.shareOf(straggler())).toList() + ")"
      );
    }
  }

  private static void writeFigures() throws Exception
  {
    // Against the better of the two connectionCount runs, so that no drift flatters our strategies.
    final double baseP99 = phase(CONNECTION_COUNT).stream().mapToDouble(Phase::p99Millis).min().orElseThrow();
    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("measuredAt", Instant.now().toString());
    figures.put("cluster", "3 Historicals capped at " + EQUAL_CORES + " cores each (cgroups " + cluster.cgroupsEnabled()
                           + "), every segment on all 3; " + DATASET.hours() + " hourly segments x "
                           + DATASET.rowsPerHour() + " rows");
    figures.put("workload", "QueryMix.defaultMix, " + THREADS + " closed-loop clients, seed " + SEED + "; once "
                            + CLUSTER_WARM_UP.toSeconds() + " s of cluster warm-up; per phase "
                            + WARM_UP.toSeconds() + " s warm-up on equal Historicals, then "
                            + MEASURE.toSeconds() + " s measured with one Historical throttled to "
                            + STRAGGLER_CORES + " cores");
    figures.put("straggler", straggler());
    final List<Map<String, Object>> phases = new ArrayList<>();
    for (Phase phase : PHASES) {
      final Map<String, Object> row = new LinkedHashMap<>();
      row.put("strategy", phase.type());
      row.put("queries", phase.run().outcomes().size());
      row.put("failures", phase.run().failures().size());
      row.put("queriesPerSecond", phase.run().queriesPerSecond());
      row.put("p50Millis", phase.run().latencyMicros().getValueAtPercentile(50) / 1000.0);
      row.put("p99Millis", phase.p99Millis());
      row.put("p99RatioToBestConnectionCount", phase.p99Millis() / baseP99);
      row.put("stragglerShareOfSubQueries", phase.shareOf(straggler()));
      row.put("subQueriesPerServer", phase.subQueriesPerServer());
      row.put("picksPerPolicy", phase.picksPerPolicy());
      row.put("fallbacksPerReason", phase.fallbacksPerReason());
      phases.add(row);
    }
    figures.put("phases", phases);
    GetafixItCluster.writeFigures("broker-routing.json", "Broker routing on a live cluster", figures);
  }

  private static List<Phase> phase(String type)
  {
    return PHASES.stream().filter(p -> p.type().equals(type)).toList();
  }
}
