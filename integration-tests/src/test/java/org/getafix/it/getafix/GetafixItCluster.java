package org.getafix.it.getafix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one cluster all Getafix ITs share (through {@link SharedDruidCluster}, so it starts once per {@code verify}):
 * 3 Historicals capped at 1.0 / 0.5 / 0.25 cores, the Coordinator/Historical extension, the Broker routing extension
 * (ABR: it follows the plan's routing table, and falls back to connection counting when Getafix publishes none), the
 * quality monitor (budgeted queries; queries without a budget run as in stock Druid), and the test-only harness
 * extension: its authorization (requests without the test user header are {@code admin}, so the launcher's own
 * clients keep working; {@link GetafixAuthIT} checks the other users) and its statistics faults, which a test switches
 * on for a Historical by writing {@link #statsFaultFile}. The Historicals' segment cache is on for search queries
 * only, which no test but the cache's own sends, so that every other test measures scans.
 */
public final class GetafixItCluster
{
  /** 100 hourly segments of 5,000 rows, the launcher's standard dataset. */
  public static final SyntheticDataset DATASET = SharedDruidCluster.defaultDataset();
  /** Index of the Historical with the largest CPU quota (1.0 core), the middle one (0.5) and the weakest (0.25). */
  public static final int STRONG = 0;
  public static final int MIDDLE = 1;
  public static final int WEAK = 2;
  private static final int HISTORICALS = 3;
  /** Every query type Druid's Historicals can cache but search. */
  private static final String UNCACHED_QUERY_TYPES =
      "[\"timeseries\",\"topN\",\"groupBy\",\"timeBoundary\",\"segmentMetadata\",\"dataSourceMetadata\"]";

  private GetafixItCluster()
  {
  }

  /** {@link GetafixSetup#handPlacementToGetafix} for {@link #DATASET}. */
  public static void handPlacementToGetafix(LocalDruidCluster cluster, int floorReplicas)
  {
    GetafixSetup.handPlacementToGetafix(cluster, DATASET.dataSource(), floorReplicas);
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

  /**
   * The file that makes Historical {@code historical} (0-based) rewrite the statistics it serves while it exists (the
   * harness' {@code StatsFaultFilter}: {@code {"set": {field: value}, "add": {field: n}}}).
   */
  public static Path statsFaultFile(int historical)
  {
    return Paths.get(System.getProperty("getafix.projectRoot", "..")).toAbsolutePath().normalize()
                .resolve("integration-tests/target/stats-faults/historical-" + (historical + 1) + ".json");
  }

  public static ClusterConfig config()
  {
    final Path root = Paths.get(System.getProperty("getafix.projectRoot", ".."));
    final Path harness = root.resolve("druid-getafix-extension/target/extension/getafix-test-harness");
    assertTrue(Files.isDirectory(harness), "build the extensions first (./mvnw -B install -DskipTests): " + harness);
    final ClusterConfig.Builder config = GetafixSetup.clusterConfig(root);
    for (int i = 0; i < HISTORICALS; i++) {
      config.historicalProperty(i, "getafixtest.statsFaultFile", statsFaultFile(i).toString());
      config.historicalProperty(i, "druid.historical.cache.useCache", "true");
      config.historicalProperty(i, "druid.historical.cache.populateCache", "true");
      config.historicalProperty(i, "druid.historical.cache.unCacheable", UNCACHED_QUERY_TYPES);
    }
    return config.historicals(HISTORICALS)
                 .cpuQuotas(1.0, 0.5, 0.25)
                 .extension(harness)
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
