package org.getafix.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.DruidRole;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * One experiment of {@code ./getafix bench live} that starts a cluster of its own (routing, control, admission) as the
 * bench asks it to run: its fresh cluster and dataset, its progress lines, and its report.
 *
 * @param experiment  its name in the bench, which heads its progress lines
 * @param quick       the short variant: a smaller dataset, and shorter phases where the experiment times them
 * @param repetitions how many times it repeats its measurement
 * @param secondFirst whether its first repetition runs its second setup (druid-getafix's) first, as
 *                    {@code --strategies getafix,stock} asks; the order is reversed every other repetition either way
 * @param stragglerCores the cores of the Historical an experiment throttles to a straggler ({@code --straggler-cores}),
 *                    for the experiments that take it (control, admission)
 * @param root        the project's root, where the extensions and Druid's libraries are built
 * @param outDir      its own directory: the cluster's files, {@code results.json} and {@code report.html}
 * @param out         where the progress and the summary go
 */
record BenchRun(
    String experiment,
    boolean quick,
    int repetitions,
    boolean secondFirst,
    double stragglerCores,
    Path root,
    Path outDir,
    PrintStream out
)
{
  void progress(String message)
  {
    out.println("[bench " + experiment + "] " + message);
  }

  /**
   * Starts druid-getafix's cluster ({@link GetafixSetup#clusterConfig}) with a Historical per entry of
   * {@code cpuQuotas}, capped at it, its files under {@code outDir/cluster}. Without writable cgroups there are no
   * caps and no straggler, which the progress says, with {@code withoutCgroups}: what that does to the experiment.
   */
  LocalDruidCluster startCluster(List<Double> cpuQuotas, String withoutCgroups) throws IOException, TimeoutException
  {
    return startCluster(cpuQuotas, Map.of(), withoutCgroups);
  }

  /** As above, with {@code historicalProperties} on top of the launcher's on every Historical. */
  LocalDruidCluster startCluster(
      List<Double> cpuQuotas,
      Map<String, String> historicalProperties,
      String withoutCgroups
  ) throws IOException, TimeoutException
  {
    final ClusterConfig.Builder builder = clusterConfig().historicals(cpuQuotas.size()).cpuQuotas(cpuQuotas);
    historicalProperties.forEach((key, value) -> builder.property(DruidRole.HISTORICAL, key, value));
    final ClusterConfig config = builder.build();
    progress("starting a cluster of " + cpuQuotas.size() + " Historicals at " + cpuQuotas + " cores");
    final LocalDruidCluster cluster = LocalDruidCluster.start(config);
    if (!cluster.cgroupsEnabled()) {
      progress("WARNING: cgroups not writable: no CPU caps and no straggler, so " + withoutCgroups);
    }
    return cluster;
  }

  /** druid-getafix's cluster ({@link GetafixSetup#clusterConfig}) with its files under {@code outDir/cluster}. */
  ClusterConfig.Builder clusterConfig()
  {
    return GetafixSetup.clusterConfig(root)
                       .workDir(outDir.resolve("cluster"))
                       .druidLibDir(root.resolve(ClusterConfig.DEFAULT_DRUID_LIB_DIR));
  }

  /** Ingests {@code dataset} into {@code cluster} and waits until every segment is loaded. */
  SyntheticDataset ingest(LocalDruidCluster cluster, SyntheticDataset dataset) throws IOException, TimeoutException
  {
    progress("ingesting " + dataset.hours() + " hourly segments x " + dataset.rowsPerHour() + " rows");
    dataset.ingest(cluster.coordinatorClient(), cluster.runDir().resolve("input"), Duration.ofMinutes(15));
    cluster.coordinatorClient().awaitFullyLoaded(dataset.dataSource(), Duration.ofMinutes(10));
    return dataset;
  }

  /** Writes {@code results.json} and {@code report.html}, prints {@code summary} and the report's path; returns it. */
  Path report(ObjectNode json, String html, String summary) throws IOException
  {
    final Path report = RepetitionsReport.write(outDir, json, html);
    out.println();
    out.print(summary);
    out.println("report:  " + report);
    return report;
  }
}
