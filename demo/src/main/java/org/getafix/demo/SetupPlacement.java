package org.getafix.demo;

import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadRunner;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the fault and churn experiments ({@link KillBench}, {@link ChurnBench}) hand one cluster to a setup before they
 * measure it: stock Druid (its rule at 2 replicas, its Broker) or druid-getafix (Getafix-H at a floor of 1, up to 3,
 * and its Broker), a warm-up of the demo's workload, and a wait until the placement is the setup's own.
 */
final class SetupPlacement
{
  /** The cluster both experiments run on: three Historicals of unequal CPU. */
  static final List<Double> CPU_QUOTAS = List.of(1.0, 0.5, 0.25);
  private static final Duration CONVERGE = Duration.ofMinutes(4);

  private SetupPlacement()
  {
  }

  /** Places the data as {@code setup} does, runs the workload for {@code warmUp}, and waits for it to settle. */
  static void prepare(LocalDruidCluster cluster, SyntheticDataset dataset, QueryMix mix, String setup, Duration warmUp)
      throws Exception
  {
    final GetafixClient getafix = new GetafixClient(cluster);
    place(cluster, dataset, setup, getafix);
    WorkloadRunner.run(cluster.brokerClient(), mix,
                       new WorkloadRunner.Options(DemoOptions.DEFAULT_CLIENTS, warmUp, Integer.MAX_VALUE, 3L));
    settle(cluster, dataset, setup, getafix);
  }

  /** Hands the data to the setup: stock Druid's rule and Broker, or Getafix-H's. */
  private static void place(LocalDruidCluster cluster, SyntheticDataset dataset, String setup, GetafixClient getafix)
      throws Exception
  {
    if (Strategy.STOCK.label().equals(setup)) {
      cluster.restartBroker(Strategy.STOCK.brokerProperties(), CONVERGE);
      GetafixSetup.handPlacementToStock(cluster, dataset.dataSource(), 2);
      return;
    }
    cluster.restartBroker(Strategy.GETAFIX.brokerProperties(), CONVERGE);
    handToGetafix(cluster, dataset.dataSource(), getafix);
  }

  /** Getafix-H places {@code dataSource} from now on, at a floor of 1 replica and up to 3; returns once it acts. */
  static void handToGetafix(LocalDruidCluster cluster, String dataSource, GetafixClient getafix) throws Exception
  {
    GetafixSetup.handPlacementToGetafix(cluster, dataSource, 1);
    getafix.setConfig(Map.of("enabled", true, "dryRun", false, "maxReplicas", 3));
    Waits.await("Getafix to act", CONVERGE, () -> "ACTIVE".equals(getafix.mode()));
  }

  /** Whether the plan covers all {@code segments} and every one is held exactly where the plan puts it. */
  static boolean realised(Map<String, Set<String>> holders, Map<String, Set<String>> planned, int segments)
  {
    return planned.size() == segments && planned.entrySet().stream().allMatch(
        e -> holders.getOrDefault(e.getKey(), Set.of()).equals(e.getValue())
    );
  }

  /**
   * Waits, after the warm-up, until the placement is the setup's own: every segment twice, or the plan (made from
   * the warm-up's queries) realised with every Historical in it.
   */
  private static void settle(LocalDruidCluster cluster, SyntheticDataset dataset, String setup, GetafixClient getafix)
      throws Exception
  {
    if (Strategy.STOCK.label().equals(setup)) {
      Waits.await("every segment to have 2 replicas", CONVERGE, Duration.ofSeconds(1), () -> {
        final Map<String, Set<String>> holders = GetafixSetup.holdersChecked(cluster, dataset.dataSource());
        return holders.size() == dataset.hours() && holders.values().stream().allMatch(h -> h.size() == 2);
      }, () -> "");
      return;
    }
    Waits.await("the plan to be realised, every Historical in it", CONVERGE, Duration.ofSeconds(1), () -> {
      final Map<String, Set<String>> holders = GetafixSetup.holdersChecked(cluster, dataset.dataSource());
      final Map<String, Set<String>> planned = getafix.plannedHolders();
      return getafix.capacities().size() == CPU_QUOTAS.size() && realised(holders, planned, dataset.hours());
    }, () -> "");
  }
}
