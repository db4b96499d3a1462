package org.getafix.it.getafix;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.it.cluster.ClusterConfig;
import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.DruidHttp;
import org.getafix.it.cluster.DruidRole;
import org.getafix.it.cluster.LocalDruidCluster;
import org.getafix.it.cluster.LocalNode;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.it.cluster.Waits;
import org.getafix.it.workload.SyntheticDataset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Getafix-H live in a real Druid 33 cluster (3 Historicals capped at 1.0 / 0.5 / 0.25 cores) with the extension
 * installed as a user would. The tests share one cluster and run in order; each waits on conditions with
 * deadlines, and every poll also checks the safety invariant: no used segment ever has zero loaded replicas.
 */
@ExtendWith(DruidClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GetafixClusterIT
{
  private static final SyntheticDataset DATASET = SyntheticDataset.hourly("getafix_live", 24, 2_000);
  /** The newest hours: the hot set of the skewed workload. */
  private static final int HOT_HOURS = 3;
  private static final Duration CONVERGE = Duration.ofMinutes(4);

  private Workload workload;

  @AfterEach
  void stopWorkload() throws InterruptedException
  {
    if (workload != null) {
      workload.close();
      workload = null;
    }
  }

  static ClusterConfig getafixConfig()
  {
    final Path root = Paths.get(System.getProperty("getafix.projectRoot", ".."));
    final Path extension = root.resolve("druid-getafix-extension/target/extension/druid-getafix-extension");
    assertTrue(Files.isDirectory(extension),
               "build the extension first (./mvnw -pl druid-getafix-extension -am package): " + extension);
    return ClusterConfig.builder()
                        // A work dir of its own: the launcher reaps every process of a work dir it starts in.
                        .workDir(Paths.get("target/getafix-it-cluster"))
                        .historicals(3)
                        .cpuQuotas(1.0, 0.5, 0.25)
                        .extension(extension)
                        .commonProperty("druid.emitter", "composing")
                        .commonProperty("druid.emitter.composing.emitters", "[\"getafix\"]")
                        .property(DruidRole.COORDINATOR, "druid.coordinator.balancer.strategy", "getafix")
                        .property(DruidRole.COORDINATOR, "druid.getafix.round.period", "PT3S")
                        .build();
  }

  @Test
  @Order(1)
  void refusesLoudlyUntilTheCoordinatorIsConfiguredThenActs() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    SharedDruidCluster.ensureIngested(DATASET);
    final GetafixClient getafix = new GetafixClient(cluster);

    // Druid's defaults (smartSegmentLoading=true) make the strategy useless: Getafix must say so and do nothing.
    Waits.await("Getafix to refuse", Duration.ofMinutes(1), () -> "REFUSED".equals(getafix.mode()));
    final String problems = getafix.status().path("problems").toString();
    assertTrue(problems.contains("smartSegmentLoading=true"), problems);

    cluster.coordinatorClient().updateDynamicConfig(Map.of(
        "smartSegmentLoading", false,
        "useRoundRobinSegmentAssignment", false,
        "replicationThrottleLimit", 100,
        "maxSegmentsInNodeLoadingQueue", 500,
        // Druid's own cost balancing would move unplanned segments in dry run: keep placement changes Getafix's.
        "maxSegmentsToMove", 0
    ));
    cluster.coordinatorClient().setRules(DATASET.dataSource(), List.of(
        Map.of("type", "getafix", "tieredReplicants", Map.of("_default_tier", 1))
    ));
    getafix.setConfig(Map.of("maxReplicas", 3, "maxLoadsPerRound", 20, "maxDropsPerRound", 20));

    Waits.await("Getafix to act", CONVERGE, () -> "ACTIVE".equals(getafix.mode()));
    // Nobody queries yet: the plan is the floor (1 replica each), reached by dropping, never below 1.
    Waits.await("replicas to shrink to the floor", CONVERGE, () -> {
      final Map<String, Set<String>> holders = holdersChecked(cluster);
      return holders.values().stream().allMatch(h -> h.size() == 1);
    });
  }

  @Test
  @Order(2)
  void historicalsCountTheQueriesTheyServe() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final List<JsonNode> before = new ArrayList<>();
    for (LocalNode h : cluster.historicals()) {
      before.add(getafix.historicalStats(h));
    }
    for (int i = 0; i < 5; i++) {
      assertEquals(DATASET.totalRows(), totalRows(cluster));
    }
    long scansAdded = 0;
    for (int i = 0; i < cluster.historicals().size(); i++) {
      final JsonNode after = getafix.historicalStats(cluster.historical(i));
      assertEquals(before.get(i).path("epoch").asText(), after.path("epoch").asText(), "same process, same epoch");
      final long added = after.path("segmentScans").asLong() - before.get(i).path("segmentScans").asLong();
      assertTrue(added >= 0, "counters are monotonic");
      assertTrue(after.path("cpuTimeMicros").asLong() >= before.get(i).path("cpuTimeMicros").asLong());
      scansAdded += added;
    }
    // 5 full scans of 24 segments, each held once; the Broker's own segmentMetadata queries may add a few.
    assertTrue(scansAdded >= 5L * DATASET.hours(), "missed scans: " + scansAdded);
    assertTrue(scansAdded < 6L * DATASET.hours(), "scans counted twice: " + scansAdded);
  }

  @Test
  @Order(3)
  void skewedWorkloadReplicatesHotSegmentsAndNothingGoesMissing() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    workload = Workload.start(cluster, DATASET, DATASET.hours() - HOT_HOURS, DATASET.hours(), 4);

    Waits.await("hot segments to get more replicas than cold ones", CONVERGE, () -> {
      final Map<String, Set<String>> holders = holdersChecked(cluster);
      // Packing splits a hot segment over nodes only where one node cannot take all its load, so not every hot
      // segment needs a second copy; cold (unqueried) segments stay at the floor of 1.
      return meanReplicas(holders, true) >= 1.5 && meanReplicas(holders, false) <= 1.1;
    });
    final Map<String, Set<String>> planned = getafix.plannedHolders();
    assertTrue(meanReplicas(planned, true) > meanReplicas(planned, false), "plan: " + planned);
    final JsonNode routing = getafix.routing();
    assertTrue(routing.path("version").asLong() > 0);
    assertEquals(DATASET.hours(), routing.path("segments").size(), "the routing table covers every segment");
    assertTrue(workload.queries() > 0, "the workload ran no query");
    assertTrue(workload.failures().isEmpty(),
               workload.failures().size() + " of " + workload.queries() + " queries failed during re-placement: "
               + workload.failures());
  }

  @Test
  @Order(4)
  void slowerAndStragglingHistoricalsAreEstimatedWeaker() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    assumeTrue(cluster.cgroupsEnabled(), "cgroup v1 CPU controller not writable on this machine");
    final GetafixClient getafix = new GetafixClient(cluster);
    workload = Workload.start(cluster, DATASET, 0, DATASET.hours(), 6);
    final String strong = cluster.historical(0).hostAndPort();
    final String weak = cluster.historical(2).hostAndPort();
    Waits.await(
        "the 1.0-core Historical to be estimated stronger than the 0.25-core one",
        CONVERGE,
        Duration.ofSeconds(5),
        () -> {
          final Map<String, Double> c = getafix.capacities();
          return c.containsKey(strong) && c.containsKey(weak) && c.get(strong) > 1.2 * c.get(weak);
        },
        () -> "capacities " + getafix.capacities()
    );

    // Straggler: the strong node drops to 0.1 core at run time and must soon be estimated below the 0.5-core one.
    final String middle = cluster.historical(1).hostAndPort();
    cluster.setCpuQuota(0, 0.1);
    try {
      Waits.await(
          "the throttled Historical to be estimated weaker than the 0.5-core one",
          CONVERGE,
          Duration.ofSeconds(5),
          () -> {
            final Map<String, Double> c = getafix.capacities();
            return c.containsKey(strong) && c.containsKey(middle) && c.get(strong) < c.get(middle);
          },
          () -> "capacities " + getafix.capacities()
      );
    }
    finally {
      cluster.setCpuQuota(0, cluster.config().cpuQuota(0));
    }
  }

  @Test
  @Order(5)
  void dryRunPlansButNeitherLoadsNorDrops() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    getafix.setConfig(Map.of("dryRun", true));
    Waits.await("dry run", Duration.ofMinutes(1), () -> "DRY_RUN".equals(getafix.mode()));
    // Loads and drops queued by the last ACTIVE run may still complete: start from a settled cluster.
    final AtomicReference<Map<String, Set<String>>> settled = new AtomicReference<>(Map.of());
    Waits.await("the placement to settle", CONVERGE, Duration.ofSeconds(8), () -> {
      final Map<String, Set<String>> now = holdersChecked(cluster);
      return now.equals(settled.getAndSet(now));
    }, () -> "");
    final Map<String, Set<String>> placement = settled.get();
    final long loads = getafix.status().path("loadsIssued").asLong();
    final long drops = getafix.status().path("dropsIssued").asLong();

    // Shift the heat to the oldest hours: the plan follows, the cluster must not.
    workload = Workload.start(cluster, DATASET, 0, HOT_HOURS, 4);
    Waits.await("the plan to want the newly hot segments replicated", CONVERGE, () -> {
      final Map<String, Set<String>> planned = getafix.plannedHolders();
      return meanOf(planned, hourIds(planned, 0, HOT_HOURS)) >= 1.5;
    });
    for (int i = 0; i < 4; i++) {
      Thread.sleep(5_000); // observation window over several rounds, not a wait for a condition
      assertEquals(placement, holdersChecked(cluster), "dry run changed the placement");
    }
    assertEquals(loads, getafix.status().path("loadsIssued").asLong());
    assertEquals(drops, getafix.status().path("dropsIssued").asLong());
    assertEquals(0, getafix.routing().path("segments").size(), "Brokers get no routing table in dry run");

    getafix.setConfig(Map.of("dryRun", false));
    Waits.await("the plan to be realised once dry run ends", CONVERGE, () -> {
      final Map<String, Set<String>> holders = holdersChecked(cluster);
      return meanOf(holders, hourIds(holders, 0, HOT_HOURS)) >= 1.5;
    });
  }

  @Test
  @Order(6)
  void badConfigIsRejectedWithTheReasonAndChangesNothing() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final JsonNode before = getafix.config();
    for (String body : List.of("{\"gamma\": 2}", "{\"minReplicas\": 0}", "{\"roundPeriod\": \"soon\"}",
                               "{\"gamma\": ", "{\"maxReplicaz\": 2}")) {
      try {
        getafix.setConfig(body);
        fail("accepted " + body);
      }
      catch (DruidHttp.DruidHttpException e) {
        assertEquals(400, e.status(), body);
        assertTrue(e.body().contains("error"), e.body());
      }
    }
    assertEquals(before, getafix.config());
  }

  @Test
  @Order(7)
  void deadHistoricalLeavesThePlanAndItsSegmentsStayAvailable() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final LocalNode victim = cluster.historical(1);
    cluster.killHistorical(1);
    Waits.await("the plan to drop the dead " + victim.name(), Duration.ofMinutes(1), () ->
        getafix.plannedHolders().values().stream().noneMatch(h -> h.contains(victim.hostAndPort()))
    );
    Waits.await("every segment to be served by the living", CONVERGE, () -> {
      final Map<String, Set<String>> holders = GetafixClient.holdersBySegment(
          cluster.coordinatorClient().segmentsPerServer(DATASET.dataSource())
      );
      return holders.size() == DATASET.hours()
             && holders.values().stream().allMatch(h -> h.stream().anyMatch(s -> !s.equals(victim.hostAndPort())));
    });
    Waits.await("all rows to be answered without " + victim.name(), CONVERGE,
                () -> totalRows(cluster) == DATASET.totalRows());
    cluster.restartHistorical(1, Duration.ofMinutes(4));
    Waits.await(victim.name() + " to rejoin the plan", CONVERGE, () ->
        getafix.capacities().containsKey(victim.hostAndPort())
    );
  }

  /** Holders of each used segment now; fails at once if a used segment has no loaded replica. */
  private static Map<String, Set<String>> holdersChecked(LocalDruidCluster cluster)
  {
    final Map<String, Set<String>> holders = GetafixClient.holdersBySegment(
        cluster.coordinatorClient().segmentsPerServer(DATASET.dataSource())
    );
    for (String id : cluster.coordinatorClient().usedSegments(DATASET.dataSource())) {
      if (!holders.containsKey(id)) {
        throw new Waits.AbortWait("used segment " + id + " has no loaded replica");
      }
    }
    return holders;
  }

  private static double meanReplicas(Map<String, Set<String>> holders, boolean hot)
  {
    final List<String> ids = hot ? hourIds(holders, DATASET.hours() - HOT_HOURS, DATASET.hours())
                                 : hourIds(holders, 0, DATASET.hours() - HOT_HOURS);
    return meanOf(holders, ids);
  }

  private static double meanOf(Map<String, Set<String>> holders, List<String> ids)
  {
    return ids.stream().mapToInt(id -> holders.get(id).size()).average().orElse(0);
  }

  /** Ids (among {@code holders}' keys) of the segments of hours [from, to). */
  private static List<String> hourIds(Map<String, Set<String>> holders, int from, int to)
  {
    final List<String> ids = new ArrayList<>();
    for (int hour = from; hour < to; hour++) {
      final String start = DATASET.interval(hour, hour + 1).split("/")[0].replace("Z", ".000Z");
      holders.keySet().stream()
             .filter(id -> id.startsWith(DATASET.dataSource() + "_" + start))
             .forEach(ids::add);
    }
    return ids;
  }

  private static long totalRows(LocalDruidCluster cluster)
  {
    final JsonNode result = cluster.brokerClient().nativeQuery(rowCountQuery(DATASET.interval()));
    return result.size() == 0 ? 0 : result.get(0).path("result").path("rows").asLong();
  }

  private static Map<String, Object> rowCountQuery(String interval)
  {
    return Map.of(
        "queryType", "timeseries",
        "dataSource", DATASET.dataSource(),
        "intervals", List.of(interval),
        "granularity", "all",
        "aggregations", List.of(Map.of("type", "longSum", "name", "rows", "fieldName", "count")),
        "context", Map.of("useCache", false, "populateCache", false)
    );
  }

  /** Background queries over hours [from, to) from a few threads, until closed; failures are kept. */
  private static final class Workload implements AutoCloseable
  {
    private final ExecutorService threads;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong queries = new AtomicLong();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

    private Workload(int threadCount)
    {
      this.threads = Executors.newFixedThreadPool(threadCount);
    }

    static Workload start(LocalDruidCluster cluster, SyntheticDataset dataset, int from, int to, int threadCount)
    {
      final Workload w = new Workload(threadCount);
      final String interval = dataset.interval(from, to);
      for (int t = 0; t < threadCount; t++) {
        w.threads.submit(() -> {
          while (w.running.get()) {
            try {
              cluster.brokerClient().nativeQuery(rowCountQuery(interval));
              w.queries.incrementAndGet();
            }
            catch (RuntimeException e) {
              if (w.running.get()) {
                w.failures.add(e.getMessage());
              }
            }
          }
        });
      }
      return w;
    }

    long queries()
    {
      return queries.get();
    }

    List<String> failures()
    {
      return List.copyOf(failures);
    }

    @Override
    public void close() throws InterruptedException
    {
      running.set(false);
      threads.shutdown();
      threads.awaitTermination(1, TimeUnit.MINUTES);
      threads.shutdownNow();
    }
  }
}
