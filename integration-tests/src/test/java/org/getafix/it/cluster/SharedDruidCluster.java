package org.getafix.it.cluster;

import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * One running {@link LocalDruidCluster} shared by all integration test classes of a {@code verify} run (failsafe runs
 * them in one JVM). A test asks for the cluster it needs with {@link #acquire(ClusterConfig)}: if that is the running
 * one it is reused, otherwise the running one is stopped and the asked-for one started. Datasets ingested with
 * {@link #ensureIngested} are remembered per cluster, so a second test class does not ingest again.
 *
 * <p>The cluster is stopped by {@link DruidClusterExtension} at the end of the test run, and in any case by the
 * launcher's JVM shutdown hook.
 */
public final class SharedDruidCluster
{
  private static LocalDruidCluster cluster;
  private static final Set<SyntheticDataset> INGESTED = new HashSet<>();

  private SharedDruidCluster()
  {
  }

  /**
   * The default test cluster: 3 Historicals capped at 1.0, 0.5 and 0.25 cores, no extensions.
   */
  public static ClusterConfig defaultConfig()
  {
    return ClusterConfig.builder().historicals(3).cpuQuotas(1.0, 0.5, 0.25).build();
  }

  /**
   * The standard dataset of the integration tests: 100 hourly segments of 5,000 rows.
   */
  public static SyntheticDataset defaultDataset()
  {
    return SyntheticDataset.hourly("getafix_it", 100, 5_000);
  }

  public static synchronized LocalDruidCluster acquire() throws IOException, TimeoutException
  {
    return acquire(defaultConfig());
  }

  /**
   * The running cluster if it was started with {@code config}, else a newly started one (the old one is stopped).
   */
  public static synchronized LocalDruidCluster acquire(ClusterConfig config) throws IOException, TimeoutException
  {
    if (cluster != null && !cluster.isClosed() && cluster.config().equals(config)) {
      return cluster;
    }
    stop();
    cluster = LocalDruidCluster.start(config);
    System.out.println("shared Druid cluster up in " + cluster.startupTime().toSeconds() + " s: " + cluster.describe());
    return cluster;
  }

  /**
   * Ingests {@code dataset} into the current cluster unless it already holds it, and waits until it is fully loaded.
   */
  public static synchronized SyntheticDataset ensureIngested(SyntheticDataset dataset) throws IOException, TimeoutException
  {
    if (cluster == null || cluster.isClosed()) {
      throw new IllegalStateException("acquire() a cluster first");
    }
    if (INGESTED.add(dataset)) {
      try {
        final SyntheticDataset.Ingestion ingestion = dataset.ingest(
            cluster.coordinatorClient(),
            cluster.runDir().resolve("input").resolve(dataset.dataSource()),
            Duration.ofMinutes(15)
        );
        System.out.println("ingested " + dataset + ": files written in " + ingestion.writeTime().toMillis()
                           + " ms, task " + ingestion.taskId() + " took " + ingestion.taskTime().toSeconds() + " s");
      }
      catch (IOException | TimeoutException | RuntimeException e) {
        INGESTED.remove(dataset);
        throw e;
      }
    }
    final long t0 = System.nanoTime();
    cluster.coordinatorClient().awaitFullyLoaded(dataset.dataSource(), Duration.ofMinutes(10));
    System.out.println(dataset.dataSource() + " fully loaded (waited " + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms)");
    return dataset;
  }

  /**
   * Stops the shared cluster, if one is running.
   */
  public static synchronized void stop()
  {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
    INGESTED.clear();
  }
}
