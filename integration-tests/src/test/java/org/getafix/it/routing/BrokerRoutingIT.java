package org.getafix.it.routing;

import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.it.getafix.GetafixItCluster;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.cluster.MetricsReceiver;
import org.getafix.localcluster.experiment.RoutingComparison;
import org.getafix.localcluster.experiment.RoutingComparison.Phase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.getafix.localcluster.experiment.RoutingComparison.ABR;
import static org.getafix.localcluster.experiment.RoutingComparison.ADAPTIVE;
import static org.getafix.localcluster.experiment.RoutingComparison.CONNECTION_COUNT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Broker strategies on the shared live cluster ({@link GetafixItCluster}) through {@link RoutingComparison}, one
 * Broker restart per {@code druid.broker.balancer.type}: Druid's own {@code connectionCount}, {@code getafixLbr},
 * {@code getafixLbrMl}, {@code getafixAdaptive} and {@code getafixAbr}, each measured with one Historical throttled to a
 * straggler. Asserts that every strategy serves the workload and reports its policy, that ABR follows its table, and
 * that adaptive selection sends the straggler a smaller share than {@code connectionCount}. Latencies are measured,
 * repeated and order-balanced, by {@code ./getafix bench live}, not here.
 */
@ExtendWith(DruidClusterExtension.class)
class BrokerRoutingIT
{
  /**
   * At most 25 s: the assertions compare shares of sub-queries, not latencies, so the JIT compilers need not have
   * settled (a fresh cluster's take more than 2 minutes at 0.5 core).
   */
  private static final JitCompilerCpu.WarmUp CLUSTER_WARM_UP =
      new JitCompilerCpu.WarmUp(0.10, Duration.ofSeconds(15), Duration.ofSeconds(25));
  private static final RoutingComparison.Settings SETTINGS = new RoutingComparison.Settings(
      GetafixItCluster.STRONG,
      0.5,
      0.1,
      4,
      7L,
      CLUSTER_WARM_UP,
      Duration.ofSeconds(5),
      // Hundreds of queries per strategy (300-600 at 6 s), enough to compare shares of sub-queries.
      Duration.ofSeconds(6)
  );
  /** ABR runs last: it loads the straggler most, and the phase after it ran slower in earlier runs. */
  private static final List<String> ORDER = List.of(CONNECTION_COUNT, "getafixLbr", "getafixLbrMl", ADAPTIVE, ABR);

  private static final List<Phase> PHASES = new ArrayList<>();
  private static LocalDruidCluster cluster;
  private static MetricsReceiver metrics;
  private static RoutingComparison comparison;

  @BeforeAll
  static void runTheWorkloadUnderEveryStrategy() throws Exception
  {
    cluster = SharedDruidCluster.acquire(GetafixItCluster.config());
    SharedDruidCluster.ensureIngested(GetafixItCluster.DATASET);
    metrics = MetricsReceiver.start();
    comparison = new RoutingComparison(cluster, GetafixItCluster.DATASET, metrics, SETTINGS);
    try {
      final JitCompilerCpu.Settling warmUp = comparison.prepare();
      System.out.println("cluster warm-up: " + warmUp.took().toSeconds() + " s, JIT share " + warmUp.lastShare());
      for (String type : ORDER) {
        final Phase phase = comparison.runPhase(type);
        System.out.println(type + " with a straggler: " + phase.run().summary() + "; sub-queries per Historical "
                           + phase.subQueriesPerServer() + ", picks " + phase.picksPerPolicy()
                           + ", fallbacks " + phase.fallbacksPerReason());
        PHASES.add(phase);
      }
    }
    finally {
      comparison.restore();
    }
  }

  @AfterAll
  static void stopReceiver()
  {
    if (metrics != null) {
      metrics.close();
    }
  }

  @Test
  void everyStrategyServesTheWorkloadAndItsMetricsShowThePolicyInUse()
  {
    assertEquals(ORDER, PHASES.stream().map(Phase::type).toList(), "a phase did not run");
    for (Phase phase : PHASES) {
      final String type = phase.type();
      final String policy = RoutingComparison.isGetafixStrategy(type) ? type : "";
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
    final double adaptive = phase(ADAPTIVE).get(0).shareOf(comparison.straggler());
    for (Phase connectionCount : phase(CONNECTION_COUNT)) {
      assertTrue(
          adaptive < connectionCount.shareOf(comparison.straggler()),
          "straggler's share of sub-queries: adaptive " + adaptive + " vs connectionCount "
          + connectionCount.shareOf(comparison.straggler()) + " (each connectionCount run: "
          + phase(CONNECTION_COUNT).stream().map(p -> p.shareOf(comparison.straggler())).toList() + ")"
      );
    }
  }

  private static List<Phase> phase(String type)
  {
    return PHASES.stream().filter(p -> p.type().equals(type)).toList();
  }
}
