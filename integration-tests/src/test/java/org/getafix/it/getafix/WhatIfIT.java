package org.getafix.it.getafix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;
import org.getafix.simulator.WhatIf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./getafix whatif} against the local cluster run as stock Druid (loadForever 2, Getafix disabled), as an
 * operator would run it before installing anything: it reads the Coordinator's servers and segments and the
 * Historicals' request logs of a recency-skewed workload, and simulates stock placement against Getafix-H.
 */
@ExtendWith(DruidClusterExtension.class)
class WhatIfIT
{
  private static final SyntheticDataset DATASET = GetafixItCluster.DATASET;

  @Test
  void whatIfFitsTheLocalClusterAndItsLogsAndComparesStockWithGetafixH() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(GetafixItCluster.config());
    SharedDruidCluster.ensureIngested(DATASET);
    GetafixSetup.handPlacementToStock(cluster, DATASET.dataSource(), 2);
    Waits.await("every segment to have the stock rule's 2 replicas", Duration.ofMinutes(4), () -> {
      final Map<String, Set<String>> holders = GetafixClusterIT.holdersChecked(cluster);
      return holders.size() == DATASET.hours() && holders.values().stream().allMatch(h -> h.size() == 2);
    });
    // The shared cluster's request logs hold the queries of every test before this one; the what-if reads this
    // workload's alone, as an operator would point it at the logs of the workload to plan for.
    final Map<Path, Long> logSizes = new HashMap<>();
    for (LocalNode historical : cluster.historicals()) {
      for (Path file : requestLogFiles(historical)) {
        logSizes.put(file, Files.size(file));
      }
    }
    // Queries that end 3 hours back on average: the newest segments draw most of the accesses.
    final WorkloadResult workload = WorkloadRunner.run(
        cluster.brokerClient(),
        new QueryMix(DATASET, 3, 0.5, 0.3, 0.2, 0.33),
        new WorkloadRunner.Options(2, Duration.ofSeconds(20), 400, 11)
    );
    assertTrue(workload.successCount() >= 20, "the workload hardly ran: " + workload.summary());

    final Path target = Paths.get(System.getProperty("getafix.projectRoot", "..")).resolve("integration-tests/target");
    final List<String> logs = new ArrayList<>();
    for (LocalNode historical : cluster.historicals()) {
      final Path dir = target.resolve("whatif-request-logs").resolve(historical.name());
      Files.createDirectories(dir);
      for (Path file : requestLogFiles(historical)) {
        final long from = logSizes.getOrDefault(file, 0L);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
             FileChannel copy = FileChannel.open(dir.resolve(file.getFileName()), StandardOpenOption.CREATE,
                                                 StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
          in.transferTo(from, in.size() - from, copy);
        }
      }
      logs.add(dir.toString());
    }
    final Path out = target.resolve("whatif");
    final int status = WhatIf.run(new String[]{
        "--coordinator", cluster.coordinatorClient().uri().toString(),
        "--request-logs", String.join(",", logs),
        "--datasource", DATASET.dataSource(),
        "--cores", "1",
        "--duration", "120",
        "--out", out.toString()
    });
    assertEquals(0, status, "whatif failed; see its output above");

    final JsonNode whatIf = new ObjectMapper().readTree(out.resolve("whatif.json").toFile());
    System.out.println("what-if on the local cluster: " + whatIf);
    assertEquals(cluster.historicals().size(), whatIf.path("historicals").asInt());
    assertEquals(DATASET.hours(), whatIf.path("segments").asInt());
    assertEquals(2.0, whatIf.path("meanReplicas").asDouble(), 0.05, "read from the Coordinator: loadForever 2");
    final JsonNode fit = whatIf.path("fit");
    assertTrue(fit.path("queries").asLong() >= workload.successCount(),
               "every query of the workload is in the Historicals' logs: " + fit);
    assertTrue(fit.path("recencyExponent").asDouble() > 0, "the workload favours recent hours: " + fit);
    assertTrue(fit.path("newestTenthShare").asDouble() > 0.2, "the newest tenth of the hours is hot: " + fit);
    final JsonNode comparison = whatIf.path("comparison");
    assertTrue(comparison.path("replicas").asDouble() < 0.9,
               "Getafix-H needs fewer replicas than 2 of every segment: " + comparison);
    assertTrue(comparison.path("p99").asDouble() > 0, comparison.toString());
    assertTrue(Files.isRegularFile(out.resolve("report.html")));
    assertTrue(Files.isRegularFile(out.resolve("scenario.json")));
  }

  private static List<Path> requestLogFiles(LocalNode historical) throws IOException
  {
    try (Stream<Path> files = Files.list(historical.requestLogDir().orElseThrow())) {
      return files.filter(f -> f.getFileName().toString().endsWith(".log")).toList();
    }
  }
}
