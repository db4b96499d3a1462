package org.getafix.it.getafix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.getafix.it.cluster.ClusterConfig;
import org.getafix.it.cluster.DruidRole;
import org.getafix.it.cluster.LocalDruidCluster;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.it.workload.SyntheticDataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one cluster all Getafix ITs share (through {@link SharedDruidCluster}, so it starts once per {@code verify}):
 * 3 Historicals capped at 1.0 / 0.5 / 0.25 cores, the Coordinator/Historical extension, the Broker routing extension
 * (ABR: it follows the plan's routing table, and falls back to connection counting when Getafix publishes none), the
 * quality monitor (budgeted queries; queries without a budget run as in stock Druid), and the test-only authorization
 * extension. Requests without the test user header are {@code admin}, so the launcher's
 * own clients keep working; {@link GetafixAuthIT} checks the other users.
 */
public final class GetafixItCluster
{
  /** 100 hourly segments of 5,000 rows, the launcher's standard dataset. */
  public static final SyntheticDataset DATASET = SharedDruidCluster.defaultDataset();
  /** Index of the Historical with the largest CPU quota (1.0 core), the middle one (0.5) and the weakest (0.25). */
  public static final int STRONG = 0;
  public static final int MIDDLE = 1;
  public static final int WEAK = 2;
  /** Getafix round period in the shared cluster. */
  public static final int ROUND_SECONDS = 3;

  private GetafixItCluster()
  {
  }

  /**
   * The dynamic config and rule under which Getafix places {@link #DATASET}: Druid's smart loading and round-robin
   * assignment off (Getafix refuses to act under them), Druid's own cost moves off, so that placement changes are
   * Getafix's, and the {@code getafix} rule with a floor of {@code floorReplicas}.
   */
  public static void handPlacementToGetafix(LocalDruidCluster cluster, int floorReplicas)
  {
    cluster.coordinatorClient().updateDynamicConfig(Map.of(
        "smartSegmentLoading", false,
        "useRoundRobinSegmentAssignment", false,
        "replicationThrottleLimit", 200,
        "maxSegmentsInNodeLoadingQueue", 500,
        "maxSegmentsToMove", 0
    ));
    cluster.coordinatorClient().setRules(DATASET.dataSource(), List.of(
        Map.of("type", "getafix", "tieredReplicants", Map.of("_default_tier", floorReplicas))
    ));
  }

  /**
   * Writes an IT's measured figures as indented JSON to {@code integration-tests/target/<fileName>} (where
   * docs/benchmarks.md quotes them from), prints them under {@code title}, and returns the JSON.
   */
  public static String writeFigures(String fileName, String title, Map<String, Object> figures) throws IOException
  {
    final Path out = Paths.get(System.getProperty("getafix.projectRoot", ".."))
                          .resolve("integration-tests/target").resolve(fileName);
    Files.createDirectories(out.getParent());
    final String json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(figures);
    Files.writeString(out, json);
    System.out.println(title + ": " + json);
    return json;
  }

  public static ClusterConfig config()
  {
    final Path root = Paths.get(System.getProperty("getafix.projectRoot", ".."));
    final Path getafix = root.resolve("druid-getafix-extension/target/extension/druid-getafix-extension");
    final Path auth = root.resolve("druid-getafix-extension/target/extension/getafix-test-auth");
    final Path routing = root.resolve("broker-routing/target/extension/getafix-broker-routing");
    final Path quality = root.resolve("quality-monitor/target/extension/getafix-quality-monitor");
    for (Path extension : new Path[]{getafix, auth, routing, quality}) {
      assertTrue(Files.isDirectory(extension), "build the extensions first (./mvnw -B install -DskipTests): " + extension);
    }
    return ClusterConfig.builder()
                        .historicals(3)
                        .cpuQuotas(1.0, 0.5, 0.25)
                        .extension(getafix)
                        .extension(routing)
                        .extension(quality)
                        .extension(auth)
                        .commonProperty("druid.emitter", "composing")
                        .commonProperty("druid.emitter.composing.emitters", "[\"getafix\",\"getafixRouting\"]")
                        .property(DruidRole.COORDINATOR, "druid.coordinator.balancer.strategy", "getafix")
                        .property(DruidRole.COORDINATOR, "druid.getafix.round.period", "PT" + ROUND_SECONDS + "S")
                        // The Brokers route by the plan's table (getafixAbr), for which the thesis' split is the
                        // documented choice. The even split halves a hot segment between the 1.0- and 0.5-core
                        // nodes here, which makes the skew and tier checks near ties (failed twice at 08:20-08:45).
                        .property(DruidRole.COORDINATOR, "druid.getafix.planning.split", "thesis")
                        .property(DruidRole.BROKER, "druid.broker.balancer.type", "getafixAbr")
                        .property(DruidRole.BROKER, "druid.getafix.routing.period", "PT2S")
                        .commonProperty("druid.auth.authenticatorChain", "[\"test\"]")
                        .commonProperty("druid.auth.authenticator.test.type", "getafixTestHeader")
                        .commonProperty("druid.auth.authenticator.test.authorizerName", "test")
                        .commonProperty("druid.auth.authenticator.test.anonymousIdentity", "admin")
                        .commonProperty("druid.auth.authorizers", "[\"test\"]")
                        .commonProperty("druid.auth.authorizer.test.type", "getafixTestRoles")
                        .commonProperty("druid.escalator.type", "getafixTestHeader")
                        .commonProperty("druid.escalator.authorizerName", "test")
                        .build();
  }
}
