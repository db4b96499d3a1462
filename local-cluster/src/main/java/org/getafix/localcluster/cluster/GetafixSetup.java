package org.getafix.localcluster.cluster;

import org.getafix.localcluster.client.GetafixClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;

/**
 * How a local cluster runs druid-getafix, and how placement is handed to Getafix-H or back to stock Druid; shared by
 * the Getafix ITs and {@code ./getafix demo}.
 */
public final class GetafixSetup
{
  /** Getafix round period of the local clusters. */
  public static final int ROUND_SECONDS = 3;
  /** The quality monitor's extension, by the name {@code druid.extensions.loadList} knows it by. */
  public static final String QUALITY_MONITOR = "getafix-quality-monitor";

  private GetafixSetup()
  {
  }

  /**
   * A cluster with the Coordinator/Historical extension, the Broker routing extension and the quality monitor (queries
   * without a budget run as in stock Druid), all built by their modules under {@code projectRoot}: the getafix
   * balancer, rounds of {@link #ROUND_SECONDS}, the thesis' split, and Brokers on {@code getafixAbr} (override
   * {@code druid.broker.balancer.type} for another router).
   *
   * @throws IllegalStateException when an extension directory has not been built
   */
  public static ClusterConfig.Builder clusterConfig(Path projectRoot)
  {
    final Path getafix = projectRoot.resolve("druid-getafix-extension/target/extension/druid-getafix-extension");
    final Path routing = projectRoot.resolve("broker-routing/target/extension/getafix-broker-routing");
    final Path quality = projectRoot.resolve("quality-monitor/target/extension/" + QUALITY_MONITOR);
    for (Path extension : List.of(getafix, routing, quality)) {
      if (!Files.isDirectory(extension)) {
        throw new IllegalStateException(
            "build the extensions first (./mvnw -B -pl druid-getafix-extension,broker-routing,quality-monitor -am "
            + "package -DskipTests): "
            + extension
        );
      }
    }
    return ClusterConfig.builder()
                        .extension(getafix)
                        .extension(routing)
                        .extension(quality)
                        .commonProperty("druid.emitter", "composing")
                        .commonProperty("druid.emitter.composing.emitters", "[\"getafix\",\"getafixRouting\"]")
                        .property(DruidRole.COORDINATOR, "druid.coordinator.balancer.strategy", "getafix")
                        .property(DruidRole.COORDINATOR, "druid.getafix.round.period", "PT" + ROUND_SECONDS + "S")
                        // The Brokers route by the plan's table (getafixAbr), for which the thesis' split is the
                        // documented choice. The even split halves a hot segment between the 1.0- and 0.5-core
                        // nodes here, which makes the skew and tier checks near ties (failed twice at 08:20-08:45).
                        .property(DruidRole.COORDINATOR, "druid.getafix.planning.split", "thesis")
                        .property(DruidRole.BROKER, "druid.broker.balancer.type", "getafixAbr")
                        .property(DruidRole.BROKER, "druid.getafix.routing.period", "PT2S");
  }

  /**
   * A second Broker for {@link #clusterConfig}'s clusters ({@link ClusterConfig.Builder#stockBroker}): the first
   * Broker's properties and extensions, but not the quality monitor, to measure what it costs against.
   */
  public static ClusterConfig.StockBroker withoutQualityMonitor()
  {
    return new ClusterConfig.StockBroker(List.of(QUALITY_MONITOR), Map.of());
  }

  /**
   * The dynamic config and rule under which Getafix places {@code dataSource}: Druid's smart loading and round-robin
   * assignment off (Getafix refuses to act under them), Druid's own cost moves off, so that placement changes are
   * Getafix's, and the {@code getafix} rule with a floor of {@code floorReplicas}.
   */
  public static void handPlacementToGetafix(LocalDruidCluster cluster, String dataSource, int floorReplicas)
  {
    cluster.coordinatorClient().updateDynamicConfig(Map.of(
        "smartSegmentLoading", false,
        "useRoundRobinSegmentAssignment", false,
        "replicationThrottleLimit", 200,
        "maxSegmentsInNodeLoadingQueue", 500,
        "maxSegmentsToMove", 0
    ));
    cluster.coordinatorClient().setRules(dataSource, List.of(
        Map.of("type", "getafix", "tieredReplicants", Map.of("_default_tier", floorReplicas))
    ));
  }

  /**
   * Stock Druid placement: Getafix disabled (so the balancer is its {@code cost} fallback), a plain
   * {@code loadForever} rule with {@code replicas} copies and Druid's default smart segment loading. Returns once
   * Getafix reports DISABLED; the caller waits for the replicas it needs.
   */
  public static void handPlacementToStock(LocalDruidCluster cluster, String dataSource, int replicas)
      throws TimeoutException
  {
    final GetafixClient getafix = new GetafixClient(cluster);
    getafix.setConfig(Map.of("enabled", false));
    Waits.await("Getafix to stand aside", Duration.ofMinutes(1), () -> "DISABLED".equals(getafix.mode()));
    cluster.coordinatorClient().setRules(dataSource, List.of(
        Map.of("type", "loadForever", "tieredReplicants", Map.of("_default_tier", replicas))
    ));
    cluster.coordinatorClient().updateDynamicConfig(Map.of(
        "smartSegmentLoading", true,
        "useRoundRobinSegmentAssignment", true
    ));
  }

  /**
   * How long the Coordinator's view may show a used segment without a replica that a Historical still serves. The view
   * follows each Historical's announcements apart, so when Druid moves a segment (load on one node, then drop on the
   * other) it can see the drop before the load, for as long as the two announcement streams are apart.
   */
  private static final Duration VIEW_LAG = Duration.ofSeconds(10);

  /**
   * Segment id → Historicals serving it now; aborts a {@link Waits#await} when a used segment has no loaded replica
   * (a placement must never leave data unavailable) for longer than the Coordinator's view can lag behind the
   * Historicals.
   */
  public static Map<String, Set<String>> holdersChecked(LocalDruidCluster cluster, String dataSource)
  {
    final Map<String, Set<String>> holders = holders(cluster, dataSource);
    final Set<String> unserved = unserved(cluster, dataSource, holders);
    if (unserved.isEmpty()) {
      return holders;
    }
    try {
      Waits.await(
          "segments " + unserved + " to show a loaded replica again",
          VIEW_LAG,
          () -> Collections.disjoint(unserved, unserved(cluster, dataSource, holders(cluster, dataSource)))
      );
    }
    catch (TimeoutException e) {
      throw new Waits.AbortWait("used segments " + unserved + " have had no loaded replica for " + VIEW_LAG.toSeconds()
                                + " s");
    }
    return holders(cluster, dataSource);
  }

  private static Map<String, Set<String>> holders(LocalDruidCluster cluster, String dataSource)
  {
    return GetafixClient.holdersBySegment(cluster.coordinatorClient().segmentsPerServer(dataSource));
  }

  private static Set<String> unserved(LocalDruidCluster cluster, String dataSource, Map<String, Set<String>> holders)
  {
    final Set<String> unserved = new TreeSet<>(cluster.coordinatorClient().usedSegments(dataSource));
    unserved.removeAll(holders.keySet());
    return unserved;
  }
}
