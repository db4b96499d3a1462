package org.getafix.it.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.localcluster.client.CoordinatorClient;
import org.getafix.localcluster.client.DruidHttp;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.cluster.CpuCgroup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.workload.QueryKind;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.QueryOutcome;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.localcluster.workload.WorkloadResult;
import org.getafix.localcluster.workload.WorkloadRunner;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The launcher end to end on a real Druid 33 cluster: ZooKeeper, Coordinator/Overlord, Broker and 3 Historicals capped
 * at 1.0/0.5/0.25 cores; 100 hourly segments ingested and loaded; a skewed query workload; CPU caps that hold; a
 * Historical killed and restarted; and a teardown that leaves no process behind.
 */
@ExtendWith(DruidClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalDruidClusterSmokeIT
{
  private static final SyntheticDataset DATASET = SharedDruidCluster.defaultDataset();

  @Test
  @Order(1)
  void startsClusterAndServesIngestedSegments() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire();
    SharedDruidCluster.ensureIngested(DATASET);

    for (LocalNode node : cluster.historicals()) {
      assertTrue(node.isAlive(), node.name() + " should be running");
    }
    final CoordinatorClient coordinator = cluster.coordinatorClient();
    assertEquals(DATASET.hours(), coordinator.usedSegments(DATASET.dataSource()).size(), "one segment per hour");

    // Druid's default rule: 2 replicas in _default_tier. Its balancer moves a segment by loading the new replica
    // before dropping the old, so a single look may count one replica more while a move is under way.
    final AtomicReference<Map<String, Integer>> counts = new AtomicReference<>(Map.of());
    Waits.await("every segment at 2 replicas", Duration.ofMinutes(2), Duration.ofMillis(500), () -> {
      counts.set(coordinator.segmentCountsPerServer(DATASET.dataSource()));
      return counts.get().values().stream().mapToInt(Integer::intValue).sum() == 2 * DATASET.hours();
    }, () -> "replicas per Historical: " + counts.get());
    final Map<String, Integer> perServer = counts.get();
    assertEquals(3, perServer.size(), "all three Historicals serve segments: " + perServer);
    perServer.forEach((server, count) -> assertTrue(count > 0, server + " holds no segment: " + perServer));

    final JsonNode hourly = cluster.brokerClient().nativeQuery(rowsQuery("hour"));
    assertEquals(DATASET.hours(), hourly.size(), "one timeseries bucket per hourly segment");
    for (JsonNode bucket : hourly) {
      assertEquals(DATASET.rowsPerHour(), bucket.path("result").path("rows").asLong(), "rows of " + bucket);
    }
  }

  @Test
  @Order(2)
  void workloadQueriesAllSucceed() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire();
    SharedDruidCluster.ensureIngested(DATASET);

    final WorkloadResult result = WorkloadRunner.run(
        cluster.brokerClient(),
        QueryMix.defaultMix(DATASET),
        new WorkloadRunner.Options(4, Duration.ofSeconds(8), 0, 7L)
    );
    System.out.println("smoke workload: " + result.summary());

    assertTrue(result.outcomes().size() >= 20, "too few queries ran: " + result.summary());
    assertTrue(result.failures().isEmpty(), "failed queries: " + result.failures().stream().limit(3).toList());
    long total = 0;
    for (QueryKind kind : QueryKind.values()) {
      total += result.latencyMicros(kind).getTotalCount();
    }
    assertEquals(result.outcomes().size(), total, "every query is in a latency histogram");
    for (QueryOutcome outcome : result.outcomes()) {
      assertTrue(outcome.query().fromHour() >= 0 && outcome.query().toHourExclusive() <= DATASET.hours(), outcome.toString());
      assertTrue(outcome.resultRows() > 0, "empty answer to a query over ingested hours: " + outcome);
    }
    // Recency bias: the newest quarter of the hours is read by more queries than the oldest quarter.
    final long recent = result.outcomes().stream().filter(o -> o.query().toHourExclusive() > DATASET.hours() * 3 / 4).count();
    final long old = result.outcomes().stream().filter(o -> o.query().fromHour() < DATASET.hours() / 4).count();
    assertTrue(recent > old, "recent=" + recent + " old=" + old);
  }

  @Test
  @Order(3)
  void cpuQuotasCapHistoricalsAndCanChangeAtRuntime() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire();
    SharedDruidCluster.ensureIngested(DATASET);
    assumeTrue(cluster.cgroupsEnabled(), "cgroup v1 CPU controller not writable on this machine");

    final Duration probe = Duration.ofSeconds(12);
    final List<CpuSample> samples = loadHistoricals(cluster, List.of(0, 1, 2), probe);
    System.out.println("CPU probe (cores used under saturating load): " + samples);
    final CpuSample full = samples.get(0);
    final CpuSample half = samples.get(1);
    final CpuSample quarter = samples.get(2);
    for (CpuSample s : samples) {
      assertTrue(s.queries() > 0, "no query completed on " + s);
      // The cap is a hard ceiling: 25% slack for accounting granularity.
      assertTrue(s.cores() <= s.quota() * 1.25 + 0.02, "exceeded its CPU cap: " + s);
    }
    assertTrue(quarter.throttledPeriods() > 0, "the 0.25-core Historical was never throttled: " + quarter);
    assertTrue(full.cores() > 1.5 * quarter.cores(), "1.0-core Historical did not get more CPU: " + samples);
    assertTrue(half.cores() > 1.2 * quarter.cores(), "0.5-core Historical did not get more CPU: " + samples);

    // Straggler at runtime: lower historical-1 to 0.1 core, and it is held there.
    cluster.setCpuQuota(0, 0.1);
    try {
      final CpuSample straggler = loadHistoricals(cluster, List.of(0), Duration.ofSeconds(6)).get(0);
      System.out.println("straggler: " + straggler);
      assertTrue(straggler.cores() <= 0.1 * 1.3 + 0.02, "quota change did not take effect: " + straggler);
      assertTrue(straggler.cores() < full.cores() / 2, "straggler vs before: " + straggler + " / " + full);
    }
    finally {
      cluster.setCpuQuota(0, cluster.config().cpuQuota(0));
    }
  }

  @Test
  @Order(4)
  void killedHistoricalIsNoticedAndRestarts() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire();
    SharedDruidCluster.ensureIngested(DATASET);
    final LocalNode victim = cluster.historical(2);
    final long pid = victim.pid();

    cluster.killHistorical(2);
    assertFalse(victim.isAlive());
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still alive");
    Waits.await(
        "the Coordinator to notice the dead " + victim.name(),
        Duration.ofMinutes(2),
        () -> !cluster.coordinatorClient().historicalServers().contains(victim.hostAndPort())
    );
    // Every segment had 2 replicas, so the data stays complete without the dead node once the Broker has noticed.
    Waits.await(
        "the Broker to answer over all data without " + victim.name(),
        Duration.ofMinutes(2),
        () -> totalRows(cluster) == DATASET.totalRows()
    );

    cluster.restartHistorical(2, Duration.ofMinutes(4));
    assertTrue(victim.isAlive());
    Waits.await(
        victim.name() + " to serve segments again",
        Duration.ofMinutes(3),
        () -> cluster.coordinatorClient().segmentCountsPerServer(DATASET.dataSource()).getOrDefault(victim.hostAndPort(), 0) > 0
    );
    victim.cgroup().ifPresent(g -> assertTrue(g.processes().contains(victim.pid()), "restarted JVM is in its cgroup"));
  }

  @Test
  @Order(5)
  void teardownLeavesNoProcessesOrCgroups() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire();
    final List<Long> pids = new ArrayList<>();
    pids.add(cluster.zooKeeper().pid());
    pids.add(cluster.coordinator().pid());
    pids.add(cluster.broker().pid());
    final List<Path> cgroupDirs = new ArrayList<>();
    for (LocalNode h : cluster.historicals()) {
      pids.add(h.pid());
      h.cgroup().ifPresent(g -> cgroupDirs.add(CpuCgroup.DEFAULT_CPU_ROOT.resolve(g.name())));
    }
    assertFalse(LocalDruidCluster.processesOf(cluster.config().workDir()).isEmpty(), "marker finds the running cluster");

    SharedDruidCluster.stop();

    assertTrue(cluster.isClosed());
    for (long pid : pids) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " survived teardown");
    }
    assertEquals(List.of(), LocalDruidCluster.processesOf(cluster.config().workDir()), "cluster processes left");
    for (Path dir : cgroupDirs) {
      assertFalse(Files.exists(dir), "cgroup left behind: " + dir);
    }
    assertTrue(Files.size(cluster.logDir().resolve("coordinator.log")) > 0, "node logs are kept");
  }

  private static long totalRows(LocalDruidCluster cluster)
  {
    final JsonNode result = cluster.brokerClient().nativeQuery(rowsQuery("all"));
    return result.size() == 1 ? result.get(0).path("result").path("rows").asLong() : -1;
  }

  /** The dataset's row count per {@code granularity} bucket, uncached so every answer reflects the segments served. */
  private static Map<String, Object> rowsQuery(String granularity)
  {
    return NativeQuery.timeseries(DATASET.dataSource(), List.of(DATASET.interval()))
                      .granularity(granularity)
                      .longSum("rows", "count")
                      .context("useCache", false)
                      .context("populateCache", false)
                      .toMap();
  }

  /**
   * Saturates the given Historicals with CPU-heavy queries sent straight to them (3 clients each) for {@code duration},
   * and measures the CPU their cgroups used.
   */
  private static List<CpuSample> loadHistoricals(LocalDruidCluster cluster, List<Integer> indexes, Duration duration)
  {
    final DruidHttp http = DruidHttp.shared();
    // CPU-bound per row (hashing for the cardinality sketch) with a one-row answer, so the client stays cheap.
    final Map<String, Object> query = NativeQuery.timeseries(DATASET.dataSource(), List.of(DATASET.interval()))
                                                 .granularity("all")
                                                 .cardinality("users", List.of("user", "page"), true)
                                                 .longSum("added", "added")
                                                 .context("useCache", false)
                                                 .context("populateCache", false)
                                                 .toMap();
    final List<long[]> before = new ArrayList<>();
    final List<CpuCgroup.Throttling> throttlingBefore = new ArrayList<>();
    for (int i : indexes) {
      final CpuCgroup group = cluster.historical(i).cgroup().orElseThrow();
      before.add(new long[]{group.usageNanos()});
      throttlingBefore.add(group.throttling());
    }
    final AtomicBoolean stop = new AtomicBoolean();
    final List<AtomicInteger> completed = new ArrayList<>();
    final List<CompletableFuture<Void>> clients = new ArrayList<>();
    final long t0 = System.nanoTime();
    for (int i : indexes) {
      final AtomicInteger count = new AtomicInteger();
      completed.add(count);
      for (int c = 0; c < 3; c++) {
        clients.add(CompletableFuture.runAsync(() -> {
          while (!stop.get()) {
            http.postJson(cluster.historical(i).uri().resolve("/druid/v2/"), query);
            count.incrementAndGet();
          }
        }, runnable -> new Thread(runnable, "cpu-probe").start()));
      }
    }
    try {
      // A measurement window, not a wait for a condition: CPU use is averaged over exactly this time.
      Thread.sleep(duration.toMillis());
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stop.set(true);
    final long wall = System.nanoTime() - t0;
    final double[] cores = new double[indexes.size()];
    final long[] throttled = new long[indexes.size()];
    for (int k = 0; k < indexes.size(); k++) {
      final CpuCgroup group = cluster.historical(indexes.get(k)).cgroup().orElseThrow();
      cores[k] = (group.usageNanos() - before.get(k)[0]) / (double) wall;
      throttled[k] = group.throttling().minus(throttlingBefore.get(k)).throttledPeriods();
    }
    // Each client finishes the query it has in flight: on a quarter core under a busy machine one query can outlast
    // the window, and the count of completed queries must not depend on where the window happened to end.
    CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).join();
    final List<CpuSample> samples = new ArrayList<>();
    for (int k = 0; k < indexes.size(); k++) {
      final LocalNode node = cluster.historical(indexes.get(k));
      samples.add(new CpuSample(
          node.name(),
          node.cgroup().orElseThrow().quota(),
          cores[k],
          throttled[k],
          completed.get(k).get()
      ));
    }
    return samples;
  }

  private record CpuSample(String node, double quota, double cores, long throttledPeriods, int queries)
  {
  }
}
