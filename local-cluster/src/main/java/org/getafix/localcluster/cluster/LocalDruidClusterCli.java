package org.getafix.localcluster.cluster;

import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;

import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Command line of {@link LocalDruidCluster}:
 * <pre>
 * LocalDruidCluster start [--work-dir DIR] [--druid-lib DIR] [--historicals N] [--quotas 1.0,0.5,0.25]
 *                         [--extension DIR]... [--prop SCOPE:KEY=VALUE]...
 *                         [--ingest-hours N] [--rows-per-hour N] [--workload-seconds S] [--threads T] [--exit]
 * LocalDruidCluster stop  [--work-dir DIR]
 * </pre>
 * SCOPE is common, coordinator, broker, historical or historical-N (1-based). {@code start} keeps the cluster running
 * until Ctrl-C (the shutdown hook tears it down) unless {@code --exit} is given. {@code stop} kills whatever processes
 * of a cluster in DIR are still alive (e.g. after {@code kill -9} of the CLI).
 */
final class LocalDruidClusterCli
{
  /** Relative to the repository root, where the CLI is run from, like {@link ClusterConfig#DEFAULT_DRUID_LIB_DIR}. */
  private static final Path DEFAULT_WORK_DIR = Paths.get("local-cluster/target/druid-cluster");
  private static final String USAGE = String.join(
      System.lineSeparator(),
      "usage: LocalDruidCluster start [--work-dir DIR] [--druid-lib DIR] [--historicals N] [--quotas 1.0,0.5,0.25]",
      "                               [--extension DIR]... [--prop SCOPE:KEY=VALUE]...",
      "                               [--ingest-hours N] [--rows-per-hour N] [--workload-seconds S] [--threads T] [--exit]",
      "       LocalDruidCluster stop  [--work-dir DIR]",
      "SCOPE: common | coordinator | broker | historical | historical-N (1-based)"
  );

  private LocalDruidClusterCli()
  {
  }

  static int run(String[] args) throws Exception
  {
    final PrintStream out = System.out;
    if (args.length == 0 || !List.of("start", "stop").contains(args[0])) {
      System.err.println(USAGE);
      return 2;
    }
    final ClusterConfig.Builder builder = ClusterConfig.builder().workDir(DEFAULT_WORK_DIR);
    int ingestHours = 0;
    int rowsPerHour = 5_000;
    int workloadSeconds = 0;
    int threads = 4;
    boolean exit = false;
    Path workDir = DEFAULT_WORK_DIR;
    final List<String[]> historicalProps = new ArrayList<>();
    int historicals = 3;
    final ClusterConfig config;
    try {
      for (int i = 1; i < args.length; i++) {
        final String arg = args[i];
        switch (arg) {
          case "--work-dir" -> {
            workDir = Paths.get(value(args, ++i, arg));
            builder.workDir(workDir);
          }
          case "--druid-lib" -> builder.druidLibDir(Paths.get(value(args, ++i, arg)));
          case "--historicals" -> {
            historicals = Integer.parseInt(value(args, ++i, arg));
            builder.historicals(historicals);
          }
          case "--quotas" -> builder.cpuQuotas(
              Arrays.stream(value(args, ++i, arg).split(",")).map(String::trim).map(Double::parseDouble).toList()
          );
          case "--extension" -> builder.extension(Paths.get(value(args, ++i, arg)));
          case "--prop" -> {
            final String prop = value(args, ++i, arg);
            final int colon = prop.indexOf(':');
            final int eq = prop.indexOf('=', colon + 1);
            if (colon < 0 || eq < 0) {
              throw new IllegalArgumentException("--prop wants SCOPE:KEY=VALUE, got " + prop);
            }
            final String scope = prop.substring(0, colon).toLowerCase(Locale.ROOT);
            final String key = prop.substring(colon + 1, eq);
            final String v = prop.substring(eq + 1);
            if (scope.equals("common")) {
              builder.commonProperty(key, v);
            } else if (scope.startsWith("historical-")) {
              historicalProps.add(new String[]{scope.substring("historical-".length()), key, v});
            } else {
              builder.property(DruidRole.valueOf(scope.toUpperCase(Locale.ROOT)), key, v);
            }
          }
          case "--ingest-hours" -> ingestHours = Integer.parseInt(value(args, ++i, arg));
          case "--rows-per-hour" -> rowsPerHour = Integer.parseInt(value(args, ++i, arg));
          case "--workload-seconds" -> workloadSeconds = Integer.parseInt(value(args, ++i, arg));
          case "--threads" -> threads = Integer.parseInt(value(args, ++i, arg));
          case "--exit" -> exit = true;
          default -> throw new IllegalArgumentException("unknown option " + arg);
        }
      }
      for (String[] p : historicalProps) {
        final int index = Integer.parseInt(p[0]) - 1;
        if (index < 0 || index >= historicals) {
          throw new IllegalArgumentException("no historical-" + p[0] + " among " + historicals + " Historicals");
        }
        builder.historicalProperty(index, p[1], p[2]);
      }
      config = builder.build();
    }
    catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      return 2;
    }

    if (args[0].equals("stop")) {
      final int n = LocalDruidCluster.processesOf(workDir).size();
      LocalDruidCluster.reapProcesses(workDir);
      out.println("killed " + n + " leftover processes of the cluster in " + workDir.toAbsolutePath());
      return 0;
    }

    out.println("starting Druid cluster in " + config.workDir() + " ...");
    final LocalDruidCluster cluster = LocalDruidCluster.start(config);
    try {
      out.println("cluster up in " + cluster.startupTime().toSeconds() + " s: " + cluster.describe());
      if (!cluster.config().cpuQuotas().isEmpty() && !cluster.cgroupsEnabled()) {
        out.println("WARNING: cgroups not writable, CPU quotas are approximated by druid.processing.numThreads");
      }
      if (ingestHours > 0) {
        final SyntheticDataset dataset = SyntheticDataset.hourly("getafix_synthetic", ingestHours, rowsPerHour);
        final SyntheticDataset.Ingestion ingestion = dataset.ingest(
            cluster.coordinatorClient(),
            cluster.runDir().resolve("input"),
            Duration.ofMinutes(20)
        );
        out.println("ingested " + dataset.totalRows() + " rows in " + ingestHours + " hourly segments: task "
                    + ingestion.taskId() + " took " + ingestion.taskTime().toSeconds() + " s");
        final long t0 = System.nanoTime();
        cluster.coordinatorClient().awaitFullyLoaded(dataset.dataSource(), Duration.ofMinutes(10));
        out.println("all segments loaded in " + Duration.ofNanos(System.nanoTime() - t0).toSeconds() + " s: "
                    + cluster.coordinatorClient().segmentCountsPerServer(dataset.dataSource()));
        if (workloadSeconds > 0) {
          final WorkloadResult result = WorkloadRunner.run(
              cluster.brokerClient(),
              QueryMix.defaultMix(dataset),
              new WorkloadRunner.Options(threads, Duration.ofSeconds(workloadSeconds), 0, 1L)
          );
          out.println("workload: " + result.summary());
        }
      }
      if (exit) {
        return 0;
      }
      out.println("running; press Ctrl-C to stop");
      new CountDownLatch(1).await();
      return 0;
    }
    finally {
      cluster.close();
    }
  }

  private static String value(String[] args, int i, String option)
  {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
