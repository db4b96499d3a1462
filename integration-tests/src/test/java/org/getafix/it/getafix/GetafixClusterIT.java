package org.getafix.it.getafix;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.contract.PlacementKnobs;
import org.getafix.it.cluster.DruidClusterExtension;
import org.getafix.it.cluster.SharedDruidCluster;
import org.getafix.localcluster.client.DruidHttp;
import org.getafix.localcluster.client.GetafixClient;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.LocalNode;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Getafix-H live in a real Druid 33 cluster ({@link GetafixItCluster}: 3 Historicals capped at 1.0 / 0.5 / 0.25 cores,
 * 100 hourly segments) with the extensions installed as a user would. The tests share one cluster and run in order;
 * each waits on conditions with deadlines, and every poll of the placement also checks the safety invariant: no used
 * segment ever has zero loaded replicas.
 */
@ExtendWith(DruidClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GetafixClusterIT
{
  private static final SyntheticDataset DATASET = GetafixItCluster.DATASET;
  /** The hot set of the skewed workload: the newest hours. */
  private static final int HOT_HOURS = 5;
  /**
   * Extra (load-driven) replicas the hot set must gain. Capacity-proportional packing splits only the segments that
   * straddle a node's bin, so of equally hot segments on 3 nodes about 2 (plus remainders) get a second copy.
   */
  private static final int HOT_EXTRA_REPLICAS = 2;
  /** A rebalancing budget no test's loads reach (the knob's upper bound). */
  private static final double UNBUDGETED_REBALANCING = 1000;
  private static final int HOT_FROM = DATASET.hours() - HOT_HOURS;
  /** First hour of the hot set of the dry-run test, never hot before it. */
  private static final int DRY_RUN_FROM = 20;
  private static final Duration CONVERGE = Duration.ofMinutes(4);
  /** The replicas of the Druid rule the getafix rule replaces (stockReplicants), from the dry-run test on. */
  private static final int STOCK_REPLICAS = 2;
  private static final int ROLLBACK_LOADS_PER_RUN = 20;

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
    return GetafixItCluster.config();
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

    GetafixItCluster.handPlacementToGetafix(cluster, 1);
    getafix.setConfig(Map.of("maxReplicas", 3, "maxLoadsPerRound", 50, "maxDropsPerRound", 50));

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
    final List<JsonNode> before = statsOf(cluster, getafix);
    for (int i = 0; i < 5; i++) {
      assertEquals(DATASET.totalRows(), totalRows(cluster));
    }
    final List<JsonNode> after = statsOf(cluster, getafix);
    for (int i = 0; i < cluster.historicals().size(); i++) {
      assertEquals(before.get(i).path("epoch").asText(), after.get(i).path("epoch").asText(), "same process, same epoch");
      assertTrue(after.get(i).path("segmentScans").asLong() >= before.get(i).path("segmentScans").asLong(),
                 "counters are monotonic");
      assertTrue(after.get(i).path("cpuTimeMicros").asLong() >= before.get(i).path("cpuTimeMicros").asLong());
    }
    final long scansAdded = added(before, after, "segmentScans");
    // 5 full scans of every segment, each held once; the Broker's own segmentMetadata queries may add a few.
    assertTrue(scansAdded >= 5L * DATASET.hours(), "missed scans: " + scansAdded);
    assertTrue(scansAdded < 6L * DATASET.hours(), "scans counted twice: " + scansAdded);
  }

  /**
   * A scan the Historical answers from its segment cache still counts as a scan of that segment, at the little time
   * the cache took: otherwise a segment whose answers are cached would look cold. The test cluster's Historicals cache
   * only search queries ({@link GetafixItCluster#config}), which no other test sends, so this is the only test that
   * meets the cache.
   */
  @Test
  @Order(2)
  void scansAnsweredFromTheHistoricalCacheStillCount() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final int passes = 3;
    final List<JsonNode> start = statsOf(cluster, getafix);
    for (int i = 0; i < passes; i++) {
      assertFalse(cluster.brokerClient().nativeQuery(scanningSearch(false)).isEmpty(), "the search found nothing");
    }
    final List<JsonNode> scanned = statsOf(cluster, getafix);
    // Fills the cache; the passes after it are answered from it.
    cluster.brokerClient().nativeQuery(scanningSearch(true));
    final List<JsonNode> filled = statsOf(cluster, getafix);
    for (int i = 0; i < passes; i++) {
      assertFalse(cluster.brokerClient().nativeQuery(scanningSearch(true)).isEmpty(), "the search found nothing");
    }
    final List<JsonNode> cached = statsOf(cluster, getafix);

    final long scansUncached = added(start, scanned, "segmentScans");
    final long scansCached = added(filled, cached, "segmentScans");
    final long millisUncached = added(start, scanned, "segmentTimeMillis");
    final long millisCached = added(filled, cached, "segmentTimeMillis");
    final String figures = "scans uncached " + scansUncached + " in " + millisUncached + " ms, from the cache "
                           + scansCached + " in " + millisCached + " ms";
    System.out.println("Historical segment cache: " + figures);
    // Every segment is held once; the Broker's own segmentMetadata queries may add a few scans.
    assertTrue(scansUncached >= (long) passes * DATASET.hours() && scansUncached < (passes + 1L) * DATASET.hours(),
               figures);
    assertTrue(scansCached >= (long) passes * DATASET.hours() && scansCached < (passes + 1L) * DATASET.hours(),
               "cached scans should count as scans: " + figures);
    // That the cache answered: the search's filter costs every row a regular expression, milliseconds per segment,
    // while a cache hit costs a fraction of one (Druid reports whole milliseconds): 418 ms against 12 for 300 scans
    // in one run. A plain search of 5,000 rows was too cheap to tell apart: 425 ms against 200 for 1,000 scans.
    assertTrue(millisUncached >= passes * 50L, "the uncached search was too cheap to tell a cache hit: " + figures);
    assertTrue(millisCached * 4 <= millisUncached, "the Historicals' cache did not answer: " + figures);
  }

  /**
   * A search that reads every row of every segment (no indexes) and matches a regular expression against each, with
   * the Historicals' segment cache on or off.
   */
  private static Map<String, Object> scanningSearch(boolean cache)
  {
    final Map<String, Object> query = new LinkedHashMap<>();
    query.put("queryType", "search");
    query.put("dataSource", DATASET.dataSource());
    query.put("granularity", "all");
    query.put("intervals", List.of(DATASET.interval()));
    query.put("searchDimensions", List.of("page", "user"));
    query.put("query", Map.of("type", "contains", "value", "7"));
    query.put("filter", Map.of(
        "type", "expression",
        "expression", "regexp_like(concat(page, '/', user, '/', country), '^[^7]*7.*[^7]7.*$')"
    ));
    query.put("limit", 10);
    query.put("context", Map.of("searchStrategy", "cursorOnly", "useCache", cache, "populateCache", cache));
    return query;
  }

  private static List<JsonNode> statsOf(LocalDruidCluster cluster, GetafixClient getafix) throws Exception
  {
    final List<JsonNode> stats = new ArrayList<>();
    for (LocalNode h : cluster.historicals()) {
      stats.add(getafix.historicalStats(h));
    }
    return stats;
  }

  /** The sum over Historicals of {@code counter}'s growth from {@code before} to {@code after}. */
  private static long added(List<JsonNode> before, List<JsonNode> after, String counter)
  {
    long sum = 0;
    for (int i = 0; i < before.size(); i++) {
      sum += after.get(i).path(counter).asLong() - before.get(i).path(counter).asLong();
    }
    return sum;
  }

  @Test
  @Order(3)
  void skewedWorkloadReplicatesHotSegmentsOntoTheStrongestNode() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final String strong = cluster.historical(GetafixItCluster.STRONG).hostAndPort();
    final String middle = cluster.historical(GetafixItCluster.MIDDLE).hostAndPort();
    final String weak = cluster.historical(GetafixItCluster.WEAK).hostAndPort();
    workload = Workload.start(cluster, HOT_FROM, DATASET.hours(), 4);
    // Where hot segments go, not how fast: once the plan has settled, the rebalancing budget paces a hot segment's
    // new holders to a few per hour, and this test must not depend on starting within the settling rounds.
    getafix.setConfig(Map.of("maxRebalanceDataPerHour", UNBUDGETED_REBALANCING));
    try {
      Waits.await("hot segments to gain replicas and cold ones to stay at the floor, in plan and cluster", CONVERGE,
                  Duration.ofSeconds(1), () -> {
        // Packing splits a hot segment over nodes only where one node cannot take all its load, so not every hot
        // segment needs a second copy; unqueried segments converge to the floor of 1.
        final Map<String, Set<String>> holders = holdersChecked(cluster);
        final Map<String, Set<String>> planned = getafix.plannedHolders();
        return extraReplicas(holders, HOT_FROM, DATASET.hours()) >= HOT_EXTRA_REPLICAS
               && meanOf(holders, hourIds(holders, 0, HOT_FROM)) <= 1.05
               && extraReplicas(planned, HOT_FROM, DATASET.hours()) >= HOT_EXTRA_REPLICAS
               && meanOf(planned, hourIds(planned, 0, HOT_FROM)) <= 1.05;
      }, () -> "; planned " + getafix.plannedHolders());

      // The hottest segments' load lands mostly on the 1.0-core Historical, in the plan (routing shares)...
      Waits.await(
          "the plan to give the 1.0-core Historical the largest share of the hot load",
          CONVERGE,
          Duration.ofSeconds(2),
          () -> {
            final Map<String, Double> hot = hotLoadShares(getafix.plannedShares(), HOT_FROM, DATASET.hours());
            return hot.getOrDefault(strong, 0.0) > Math.max(hot.getOrDefault(middle, 0.0), hot.getOrDefault(weak, 0.0))
                   && hot.getOrDefault(strong, 0.0) > 1.0 / 3;
          },
          () -> "; hot load shares " + hotLoadShares(getafix.plannedShares(), HOT_FROM, DATASET.hours())
                + ", capacities " + getafix.capacities()
      );
      System.out.println("skewed workload: hot load shares in the plan "
                         + hotLoadShares(getafix.plannedShares(), HOT_FROM, DATASET.hours())
                         + ", capacities " + getafix.capacities() + ", tiers " + getafix.tiers());

      // ... and in what the Historicals really scanned (the Broker routes by the plan's table). Measured once every
      // planned holder of a hot segment serves it: until then the Broker falls back to connection counting for that
      // segment, which spreads it evenly over whichever nodes serve it.
      Waits.await("every planned holder of a hot segment to serve it", CONVERGE, Duration.ofSeconds(1), () -> {
        final Map<String, Set<String>> holders = holdersChecked(cluster);
        final Map<String, Set<String>> planned = getafix.plannedHolders();
        return hourIds(planned, HOT_FROM, DATASET.hours()).stream().allMatch(
            id -> holders.getOrDefault(id, Set.of()).containsAll(planned.get(id))
        );
      }, () -> "; planned " + getafix.plannedHolders());
      final Map<String, Long> scansBefore = hotScans(cluster, getafix);
      final long queriesBefore = workload.queries();
      Waits.await("the workload to run 200 more queries", Duration.ofMinutes(2),
                  () -> workload.queries() >= queriesBefore + 200);
      final Map<String, Long> scansAfter = hotScans(cluster, getafix);
      final Map<String, Long> scanned = new TreeMap<>();
      scansAfter.forEach((node, n) -> scanned.put(node, n - scansBefore.getOrDefault(node, 0L)));
      System.out.println("hot segment scans per Historical over 200 queries: " + scanned);
      assertTrue(scanned.get(strong) > scanned.get(weak), "scans of hot segments: " + scanned);
      assertTrue(scanned.get(strong) >= scanned.get(middle), "scans of hot segments: " + scanned);

      // The API reports a tier for every Historical: the 1.0-core node HOT, the 0.25-core node COLD, and the
      // capacities rank the nodes as their CPU quotas do.
      final Map<String, String> tiers = getafix.tiers();
      assertEquals(Set.of(strong, middle, weak), tiers.keySet(), "tiers: " + tiers);
      assertTrue(tierRank(tiers.get(strong)) >= tierRank(tiers.get(middle))
                 && tierRank(tiers.get(middle)) >= tierRank(tiers.get(weak))
                 && tierRank(tiers.get(strong)) > tierRank(tiers.get(weak)), "tiers: " + tiers);
      if (cluster.cgroupsEnabled()) {
        // Only real CPU quotas give the Historicals a CPU allowance to measure against; the thread-count fallback does not.
        assertEquals("HOT", tiers.get(strong), "tiers: " + tiers);
        assertEquals("COLD", tiers.get(weak), "tiers: " + tiers);
        final Map<String, Double> capacities = getafix.capacities();
        assertTrue(capacities.get(strong) > capacities.get(middle) && capacities.get(middle) > capacities.get(weak),
                   "capacities: " + capacities);
      }

      final JsonNode routing = getafix.routing();
      assertTrue(routing.path("version").asLong() > 0);
      assertEquals(DATASET.hours(), routing.path("segments").size(), "the routing table covers every segment");
      assertTrue(workload.queries() > 0, "the workload ran no query");
      assertTrue(workload.failures().isEmpty(),
                 workload.failures().size() + " of " + workload.queries() + " queries failed during re-placement: "
                 + workload.failures());
    }
    finally {
      getafix.setConfig(Map.of("maxRebalanceDataPerHour", PlacementKnobs.MAX_REBALANCE_DATA_PER_HOUR.defaultValue()));
    }
  }

  @Test
  @Order(4)
  void stragglerLosesItsPopularReplicas() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    assumeTrue(cluster.cgroupsEnabled(), "cgroup v1 CPU controller not writable on this machine");
    final GetafixClient getafix = new GetafixClient(cluster);
    final String strong = cluster.historical(GetafixItCluster.STRONG).hostAndPort();
    final String middle = cluster.historical(GetafixItCluster.MIDDLE).hostAndPort();
    final String weak = cluster.historical(GetafixItCluster.WEAK).hostAndPort();
    workload = Workload.start(cluster, HOT_FROM, DATASET.hours(), 6);
    Waits.await(
        "the 1.0-core Historical to be estimated stronger than the 0.25-core one",
        CONVERGE,
        Duration.ofSeconds(2),
        () -> {
          final Map<String, Double> c = getafix.capacities();
          return c.containsKey(strong) && c.containsKey(weak) && c.get(strong) > 1.2 * c.get(weak);
        },
        () -> "; capacities " + getafix.capacities()
    );
    final double shareBefore = hotLoadShares(getafix.plannedShares(), HOT_FROM, DATASET.hours()).getOrDefault(strong, 0.0);

    // Straggler: the strong node drops to 0.1 core at run time. Within a few rounds it is estimated below the
    // 0.5-core node and its share of the hot segments' load moves off it.
    cluster.setCpuQuota(GetafixItCluster.STRONG, 0.1);
    final long throttledAt = getafix.round();
    try {
      Waits.await(
          "the throttled Historical to lose most of its share of the hot load",
          CONVERGE,
          Duration.ofSeconds(2),
          () -> {
            final Map<String, Double> c = getafix.capacities();
            final Map<String, Double> hot = hotLoadShares(getafix.plannedShares(), HOT_FROM, DATASET.hours());
            return c.get(strong) < c.get(middle)
                   && hot.getOrDefault(strong, 0.0) < shareBefore / 2
                   && hot.getOrDefault(strong, 0.0) < hot.getOrDefault(middle, 0.0);
          },
          () -> "; capacities " + getafix.capacities() + ", hot load shares "
                + hotLoadShares(getafix.plannedShares(), HOT_FROM, DATASET.hours()) + ", share before " + shareBefore
      );
      final long rounds = getafix.round() - throttledAt;
      System.out.println("straggler: hot load share of " + strong + " fell from " + shareBefore + " to "
                         + hotLoadShares(getafix.plannedShares(), HOT_FROM, DATASET.hours()).get(strong)
                         + " in " + rounds + " Getafix rounds; capacities " + getafix.capacities());
      // "A few rounds": the capacity average halves the old estimate's weight each round.
      assertTrue(rounds <= 20, "took " + rounds + " rounds");
      // The replicas follow the plan: the straggler holds fewer of the hot segments than it is planned to lose.
      Waits.await("the straggler's hot replicas to follow the plan", CONVERGE, () -> {
        final Map<String, Set<String>> holders = holdersChecked(cluster);
        final Map<String, Set<String>> plan = getafix.plannedHolders();
        return hourIds(holders, HOT_FROM, DATASET.hours()).stream().allMatch(
            id -> !holders.get(id).contains(strong) || plan.getOrDefault(id, Set.of()).contains(strong)
        );
      });
      assertTrue(workload.failures().isEmpty(), "queries failed: " + workload.failures());
    }
    finally {
      cluster.setCpuQuota(GetafixItCluster.STRONG, cluster.config().cpuQuota(GetafixItCluster.STRONG));
    }
  }

  @Test
  @Order(5)
  void popularityShiftsLeaveNoSegmentUnavailableAndFailNoQuery() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final long loadsBefore = getafix.status().path("loadsIssued").asLong();
    final long dropsBefore = getafix.status().path("dropsIssued").asLong();
    final List<String> failures = new ArrayList<>();
    long queries = 0;
    try (AvailabilityMonitor monitor = AvailabilityMonitor.start(cluster)) {
      final int[][] shifts = {{0, HOT_HOURS}, {45, 45 + HOT_HOURS}, {70, 70 + HOT_HOURS}};
      for (int i = 0; i < shifts.length; i++) {
        final int[] hot = shifts[i];
        workload = Workload.start(cluster, hot[0], hot[1], 4);
        Waits.await("hours " + hot[0] + ".." + hot[1] + " to become the replicated hot set", CONVERGE, () -> {
          final Map<String, Set<String>> holders = holdersChecked(cluster);
          return extraReplicas(holders, hot[0], hot[1]) >= HOT_EXTRA_REPLICAS;
        });
        if (i == shifts.length - 1) {
          // A new hot set can be replicated before the old ones have cooled enough to lose theirs: the drops may
          // come after the last shift's loads, so they are awaited under load and under the monitor.
          Waits.await(
              "the cooled hot sets to lose replicas",
              CONVERGE,
              () -> getafix.status().path("dropsIssued").asLong() > dropsBefore
          );
        }
        workload.close();
        queries += workload.queries();
        failures.addAll(workload.failures());
        workload = null;
      }
      final long checks = monitor.checks();
      Waits.await("the monitor to check once more", Duration.ofMinutes(1), () -> monitor.checks() > checks);
      monitor.close();
      System.out.println("churn: " + monitor.checks() + " availability checks, " + queries + " workload queries, "
                         + (getafix.status().path("loadsIssued").asLong() - loadsBefore) + " plan loads, "
                         + (getafix.status().path("dropsIssued").asLong() - dropsBefore) + " plan drops");
      assertTrue(monitor.checks() >= 10, "the monitor hardly ran: " + monitor.checks());
      assertEquals(List.of(), monitor.problems(), "unavailable segments or failed monitor queries");
    }
    assertTrue(queries > 0);
    assertEquals(List.of(), failures, "failed workload queries out of " + queries);
    assertTrue(getafix.status().path("loadsIssued").asLong() > loadsBefore, "the shifts moved nothing");
  }

  @Test
  @Order(6)
  void dryRunIsTheStockRuleItReplacesWhileItPlans() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    getafix.setConfig(Map.of("dryRun", true));
    Waits.await("dry run", Duration.ofMinutes(1), () -> "DRY_RUN".equals(getafix.mode()));
    final long loads = getafix.status().path("loadsIssued").asLong();
    final long drops = getafix.status().path("dropsIssued").asLong();
    // The rule replaces Druid's loadForever 2: in dry run the cluster must look exactly as under that rule.
    setGetafixRule(cluster, STOCK_REPLICAS);

    // Shift the heat to hours never hot before: the plan follows, the cluster keeps the stock rule's replicas.
    workload = Workload.start(cluster, DRY_RUN_FROM, DRY_RUN_FROM + HOT_HOURS, 4);
    Waits.await("every segment to have the stock rule's 2 replicas", CONVERGE, () ->
        holdersChecked(cluster).values().stream().allMatch(h -> h.size() == STOCK_REPLICAS)
    );
    Waits.await("the plan to want the newly hot segments replicated", CONVERGE, () -> {
      final Map<String, Set<String>> planned = getafix.plannedHolders();
      return extraReplicas(planned, DRY_RUN_FROM, DRY_RUN_FROM + HOT_HOURS) >= HOT_EXTRA_REPLICAS
             && meanOf(planned, hourIds(planned, 0, DRY_RUN_FROM)) < STOCK_REPLICAS;
    });
    final Map<String, Set<String>> placement = holdersChecked(cluster);
    for (int i = 0; i < 2; i++) {
      Thread.sleep(5_000); // observation window over several rounds, not a wait for a condition
      assertEquals(placement, holdersChecked(cluster), "dry run changed the stock rule's placement");
    }
    assertEquals(loads, getafix.status().path("loadsIssued").asLong(), "a load was issued for the plan");
    assertEquals(drops, getafix.status().path("dropsIssued").asLong(), "a drop was issued for the plan");
    assertEquals(0, getafix.routing().path("segments").size(), "Brokers get no routing table in dry run");

    getafix.setConfig(Map.of("dryRun", false));
    Waits.await("the plan to be realised once dry run ends: cold segments back to the floor", CONVERGE, () -> {
      final Map<String, Set<String>> holders = holdersChecked(cluster);
      return extraReplicas(holders, DRY_RUN_FROM, DRY_RUN_FROM + HOT_HOURS) >= HOT_EXTRA_REPLICAS
             && meanOf(holders, hourIds(holders, 0, DRY_RUN_FROM)) <= 1.05;
    });
    assertTrue(workload.failures().isEmpty(), "queries failed: " + workload.failures());
  }

  @Test
  @Order(7)
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
    // The rule's own fields are checked as Druid reads the rules: a 400 that names the field, the rules unchanged.
    final JsonNode rules = cluster.coordinatorClient().rules(DATASET.dataSource());
    for (Map<String, Object> stock : List.<Map<String, Object>>of(Map.of("_default_tier", -1), Map.of("_default_tier", 0))) {
      final Map<String, Object> rule = Map.of(
          "type", "getafix",
          "tieredReplicants", Map.of("_default_tier", 1),
          "stockReplicants", stock
      );
      try {
        cluster.coordinatorClient().setRules(DATASET.dataSource(), List.of(rule));
        fail("accepted " + rule);
      }
      catch (DruidHttp.DruidHttpException e) {
        assertEquals(400, e.status(), rule.toString());
        assertTrue(e.body().contains("stockReplicants"), e.body());
      }
    }
    assertEquals(rules, cluster.coordinatorClient().rules(DATASET.dataSource()));
  }

  @Test
  @Order(9)
  void deadHistoricalLeavesThePlanAndFullAvailabilityReturnsWithinTwoRounds() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final LocalNode victim = cluster.historical(GetafixItCluster.MIDDLE);
    final String dead = victim.hostAndPort();
    Waits.await("the plan to use " + victim.name(), CONVERGE, () -> plannedOn(getafix, dead) > 0);
    final long killedAt = getafix.round();
    cluster.killHistorical(GetafixItCluster.MIDDLE);
    try {
      Waits.await("the plan to drop the dead " + victim.name(), Duration.ofMinutes(1), Duration.ofMillis(200), () ->
          getafix.plannedHolders().values().stream().noneMatch(h -> h.contains(dead)), () -> ""
      );
      final long droppedAt = getafix.round();
      final long t0 = System.nanoTime();
      // Every segment served by a living Historical, and the Broker answering over every hour from the living.
      Waits.await("full availability without " + victim.name(), CONVERGE, Duration.ofMillis(250), () -> {
        final Map<String, Set<String>> holders = GetafixClient.holdersBySegment(
            cluster.coordinatorClient().segmentsPerServer(DATASET.dataSource())
        );
        return cluster.coordinatorClient().usedSegments(DATASET.dataSource()).stream().allMatch(
            id -> holders.getOrDefault(id, Set.of()).stream().anyMatch(s -> !s.equals(dead))
        ) && AvailabilityMonitor.missingHours(cluster).isEmpty();
      }, () -> "");
      final Duration toAvailable = Duration.ofNanos(System.nanoTime() - t0);
      final long rounds = getafix.round() - droppedAt;
      System.out.println("dead Historical: left the plan " + (droppedAt - killedAt) + " Getafix rounds after the kill;"
                         + " full availability " + toAvailable.toMillis() + " ms (" + rounds + " Getafix rounds) later");
      // A failed stats pull per round, two in a row, then one more round to publish: well before ZooKeeper's 30 s.
      assertTrue(droppedAt - killedAt <= 5, "the plan dropped the dead node after " + (droppedAt - killedAt) + " rounds");
      // "Within 2 rounds": the realising rounds are the Coordinator's runs (druid.coordinator.period = 5 s in the
      // launcher); 10 s more for the Historicals to fetch, open and announce the segment files.
      assertTrue(toAvailable.compareTo(Duration.ofSeconds(2 * 5 + 10)) <= 0, "took " + toAvailable);
    }
    finally {
      cluster.restartHistorical(GetafixItCluster.MIDDLE, Duration.ofMinutes(4));
    }
    Waits.await(victim.name() + " to rejoin the plan", CONVERGE, () -> getafix.capacities().containsKey(dead));
  }

  /**
   * A startup validation error reaches the Coordinator's log in words: Druid formats a Guice error by reading the
   * failing module's class files, which its bundled ASM cannot do for Java 17 ones, so a thrown error alone would be
   * logged as "Unsupported class file major version 61"; the module logs the reason as an ERROR first.
   */
  @Test
  @Order(10)
  void aCoordinatorGivenABadSettingStopsAndItsLogSaysWhy() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final Path log = cluster.coordinator().logFile();
    // Out of bounds, and a word where a number goes, which Jackson cannot bind: both must be named in the log.
    final Map<String, String> reasons = Map.of(
        "1.5", "druid.getafix.popularity.decay must be in [0, 1), got [1.5]",
        "abc", "Problem parsing object at prefix[druid.getafix]: Cannot deserialize value of type `double` from String \"abc\""
    );
    try {
      for (Map.Entry<String, String> bad : reasons.entrySet()) {
        final long before = Files.size(log);
        final Exception refused = assertThrows(Exception.class, () -> cluster.restartCoordinator(
            Map.of("druid.getafix.popularity.decay", bad.getKey()), Duration.ofMinutes(2)
        ));
        final String written;
        try (InputStream in = Files.newInputStream(log)) {
          in.skipNBytes(before);
          written = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(
            written.lines().anyMatch(line -> line.contains(" ERROR ") && line.contains(bad.getValue())),
            bad.getKey() + ": " + refused.getMessage()
        );
      }
    }
    finally {
      cluster.restartCoordinator(Map.of(), CONVERGE);
    }
    Waits.await("Getafix to act again", CONVERGE, () -> "ACTIVE".equals(getafix.mode()));
  }

  /**
   * A Historical whose statistics come late keeps its place in the plan. Here it is frozen (SIGSTOP) for a few rounds,
   * as a long garbage-collection pause freezes one: the Coordinator's pulls time out, which says nothing of its capacity
   * or its health (ZooKeeper still counts it in), so the plan keeps its segments on it. The freeze stays well
   * inside the 20 s after which the node's own ZooKeeper client would give its connection up: a node that has left
   * ZooKeeper has left the cluster, for Druid and for the plan. It is the strongest Historical, not the one killed
   * before, whose dead process ZooKeeper declares gone about 30 s after the kill, taking its announcement with it.
   */
  @Test
  @Order(11)
  void aHistoricalWhoseStatisticsComeLateKeepsItsSegments() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final LocalNode victim = cluster.historical(GetafixItCluster.STRONG);
    final String frozen = victim.hostAndPort();
    Waits.await("the plan to use " + victim.name(), CONVERGE, () -> plannedOn(getafix, frozen) > 0);
    final long plannedBefore = plannedOn(getafix, frozen);
    final long missingBefore = getafix.status().path("statsMissing").asLong();
    final long roundBefore = getafix.round();
    final List<Long> planned = new ArrayList<>();
    final long thawAt = System.nanoTime() + Duration.ofSeconds(12).toNanos();
    victim.freeze(true);
    try {
      while (System.nanoTime() < thawAt
             && getafix.status().path("statsMissing").asLong() < missingBefore + 2) {
        planned.add(plannedOn(getafix, frozen));
        Thread.sleep(500);
      }
    }
    finally {
      victim.freeze(false);
    }
    final long missing = getafix.status().path("statsMissing").asLong() - missingBefore;
    final long thawedRound = getafix.round();
    // The rounds that planned on the late statistics, and the first one after.
    Waits.await("a Getafix round after the thaw", Duration.ofMinutes(1), () -> getafix.round() > thawedRound);
    planned.add(plannedOn(getafix, frozen));
    System.out.println("statistics late: " + missing + " Historical-rounds without them over "
                       + (thawedRound - roundBefore) + " rounds; segments planned on " + victim.name() + " before "
                       + plannedBefore + ", while frozen and one round after " + planned);
    assertTrue(missing >= 1, "the frozen node's statistics were never late");
    assertTrue(getafix.capacities().containsKey(frozen), "still planned for: " + getafix.capacities());
    // The plan may move a segment or two with the workload's noise; it must not move the node's share away.
    final long fewest = planned.stream().mapToLong(Long::longValue).min().orElseThrow();
    assertTrue(fewest >= plannedBefore * 0.8, "segments planned on the late node: " + plannedBefore + " before, "
                                               + planned + " while its statistics were late and after");
  }

  /**
   * The weakest Historical (0.25 cores) serves absurd statistics for a few rounds, one fault after another, and then
   * genuine ones again: counters at {@code Long.MAX_VALUE}, a CPU spike of 9e15 us, an uptime that jumps by 30 years,
   * and {@code cpuCores} of -4, 1e308 and 5e-324; then a claim of 2.4 cores, which passes the bounds. Each of these,
   * taken at face value, once rated that node the strongest of the tier and moved most segments onto it, or made
   * every later genuine report look as if it went backwards. Here the Coordinator rejects each absurd one, the node's
   * capacity estimate and the segments planned on it stay where they were, and its genuine statistics are used again
   * once the fault ends. The harness' fault filter on that Historical ({@link GetafixItCluster#statsFaultFile})
   * rewrites the reports a real node serves.
   */
  @Test
  @Order(12)
  void poisonedStatisticsNeitherRaiseANodesCapacityNorMoveSegmentsOntoIt() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    final LocalNode weak = cluster.historical(GetafixItCluster.WEAK);
    final String node = weak.hostAndPort();
    final Path faultFile = GetafixItCluster.statsFaultFile(GetafixItCluster.WEAK);
    Files.createDirectories(faultFile.getParent());
    Files.deleteIfExists(faultFile);
    workload = Workload.start(cluster, HOT_FROM, DATASET.hours(), 2);
    // The workload's plan in force: segments on the weak node, and the same number of them for 3 rounds.
    final long[] settled = {-1, -1};
    Waits.await("the plan on " + weak.name() + " to settle", CONVERGE, () -> {
      final long planned = plannedOn(getafix, node);
      final long round = getafix.round();
      if (planned == 0 || planned != settled[1]) {
        settled[0] = round;
        settled[1] = planned;
      }
      return getafix.capacities().containsKey(node) && round >= settled[0] + 3;
    });

    final List<StatsFault> faults = List.of(
        StatsFault.rejected("counters at Long.MAX_VALUE", "{\"set\": {\"cpuTimeMicros\": 9223372036854775807, "
                                                          + "\"processCpuMicros\": 9223372036854775807, "
                                                          + "\"segmentTimeMillis\": 9223372036854775807, "
                                                          + "\"queryTimeMillis\": 9223372036854775807}}"),
        // One absurd counter report and one absurd core count stand for all: a CPU spike, an uptime jump, -4 or
        // 5e-324 cores fail the same bounds, which the unit tests check each.
        StatsFault.rejected("cpuCores 1e308", "{\"set\": {\"cpuCores\": 1e308}}"),
        // A quota raised at runtime is genuine, so a rise this size is not rejected; the CPU the node delivers
        // must still rate it.
        StatsFault.plausible("cpuCores 2.4 (0.25 claimed 9.6 times over)", "{\"set\": {\"cpuCores\": 2.4}}")
    );

    final List<String> figures = new ArrayList<>();
    final Map<String, Long> plannedPerNode = new TreeMap<>();
    for (LocalNode h : cluster.historicals()) {
      plannedPerNode.put(h.name(), plannedOn(getafix, h.hostAndPort()));
    }
    figures.add("segments planned per Historical before the faults: " + plannedPerNode + ", capacities "
                + getafix.capacities() + ", hot load shares " + hotLoadShares(getafix.plannedShares(), HOT_FROM,
                                                                               DATASET.hours()));
    final List<String> poisoned = new ArrayList<>();
    for (StatsFault fault : faults) {
      final double capacityBefore = getafix.capacities().get(node);
      final long plannedBefore = plannedOn(getafix, node);
      final long rejectedBefore = statsRejected(getafix);
      double highestCapacity = capacityBefore;
      long mostPlanned = plannedBefore;
      Files.writeString(faultFile, fault.json());
      try {
        if (fault.rejected()) {
          // Three rejected rounds: a report plausible on its own but not after the last one becomes the baseline
          // at the third, so the rounds after that use it.
          Waits.await(fault.name() + " to be rejected in 3 rounds", Duration.ofMinutes(1),
                      () -> statsRejected(getafix) >= rejectedBefore + 3);
        }
        final long poisonedUntil = getafix.round() + (fault.rejected() ? 2 : 8);
        while (getafix.round() < poisonedUntil) {
          highestCapacity = Math.max(highestCapacity, getafix.capacities().getOrDefault(node, 0.0));
          mostPlanned = Math.max(mostPlanned, plannedOn(getafix, node));
          // Pacing of the samples while the fault lasts, not a wait for a condition.
          Thread.sleep(500);
        }
      }
      finally {
        Files.deleteIfExists(faultFile);
      }
      // Genuine reports are used again: two whole rounds in a row without a rejection.
      final long[] quiet = {getafix.round(), statsRejected(getafix)};
      Waits.await("the genuine statistics of " + weak.name() + " to be accepted after " + fault.name(),
                  Duration.ofMinutes(2), () -> {
            final long rejected = statsRejected(getafix);
            final long round = getafix.round();
            if (rejected != quiet[1]) {
              quiet[0] = round;
              quiet[1] = rejected;
            }
            return round >= quiet[0] + 2;
          });
      highestCapacity = Math.max(highestCapacity, getafix.capacities().getOrDefault(node, 0.0));
      mostPlanned = Math.max(mostPlanned, plannedOn(getafix, node));
      figures.add(String.format(
          "%s: %d reports rejected; capacity %.3g before, at most %.3g; segments planned %d before, at most %d",
          fault.name(), quiet[1] - rejectedBefore, capacityBefore, highestCapacity, plannedBefore, mostPlanned
      ));
      // The estimate wanders with the workload's noise; a poisoned one was millions of times the node's capacity.
      if (highestCapacity > 2 * capacityBefore || mostPlanned > plannedBefore * 3 / 2 + 3) {
        poisoned.add(fault.name());
      }
    }
    System.out.println("poisoned statistics on " + weak.name() + ":\n  " + String.join("\n  ", figures));
    assertTrue(getafix.capacities().containsKey(node), "still planned for: " + getafix.capacities());
    assertTrue(poisoned.isEmpty(), "poisoned plans after " + poisoned + ": " + figures);
  }

  /** What {@link GetafixItCluster#statsFaultFile} makes a Historical report, and whether every such report is rejected. */
  private record StatsFault(String name, String json, boolean rejected)
  {
    static StatsFault rejected(String name, String json)
    {
      return new StatsFault(name, json, true);
    }

    static StatsFault plausible(String name, String json)
    {
      return new StatsFault(name, json, false);
    }
  }

  private static long statsRejected(GetafixClient getafix)
  {
    return getafix.status().path("statsRejected").asLong();
  }

  private static long plannedOn(GetafixClient getafix, String node)
  {
    return getafix.plannedHolders().values().stream().filter(holders -> holders.contains(node)).count();
  }

  @Test
  @Order(8)
  void rollbackWalksBackToTheStockRuleLoadingBeforeDroppingAndSaysWhenDone() throws Exception
  {
    final LocalDruidCluster cluster = SharedDruidCluster.acquire(getafixConfig());
    final GetafixClient getafix = new GetafixClient(cluster);
    Waits.await("Getafix to act", CONVERGE, () -> "ACTIVE".equals(getafix.mode()));
    // Loads and drops of the plan in force (e.g. of the replicas a restarted Historical brought back) still under
    // way would land during the rollback: start from a settled cluster, with enough replicas missing to the stock
    // count that a rollback paced at ROLLBACK_LOADS_PER_RUN takes several Coordinator runs.
    final AtomicReference<Map<String, Set<String>>> settled = new AtomicReference<>(Map.of());
    Waits.await("the placement to settle, most segments below the stock rule's 2", CONVERGE, Duration.ofSeconds(8),
                () -> {
                  final Map<String, Set<String>> now = holdersChecked(cluster);
                  return now.equals(settled.getAndSet(now))
                         && missingToStock(now) >= 3 * ROLLBACK_LOADS_PER_RUN;
                }, () -> "; missing to stock " + missingToStock(settled.get()));
    final int missing = missingToStock(settled.get());
    final long loadsBefore = getafix.status().path("loadsIssued").asLong();
    getafix.setConfig(Map.of("rollback", true, "maxLoadsPerRound", ROLLBACK_LOADS_PER_RUN));
    try {
      final Set<Long> belowStockSeen = new TreeSet<>();
      // Watched from the first Coordinator run that rolled back on: that run cancels what drops the last ACTIVE run
      // still had queued, and any that were under way have ended by the next.
      final AtomicReference<Map<String, Set<String>>> last = new AtomicReference<>();
      final AtomicLong dropsWhileLoading = new AtomicLong(-1);
      Waits.await("the rollback to say it is done", Duration.ofMinutes(6), Duration.ofMillis(500), () -> {
        final Map<String, Set<String>> now = holdersChecked(cluster);
        final Map<String, Set<String>> before = getafix.status().path("rollback").isMissingNode()
                                                ? null
                                                : last.getAndSet(now);
        if (before != null && before.values().stream().anyMatch(h -> h.size() < STOCK_REPLICAS)) {
          // Loading before dropping: while a segment lacks a stock replica, no segment loses one.
          before.forEach((id, holders) -> assertTrue(
              now.getOrDefault(id, Set.of()).containsAll(holders),
              id + " lost a replica while others were still below the stock count: " + holders + " -> " + now.get(id)
          ));
        }
        final JsonNode status = getafix.status();
        final JsonNode rollback = status.path("rollback");
        if ("LOADING".equals(rollback.path("phase").asText())) {
          belowStockSeen.add(rollback.path("belowStock").asLong());
          if (dropsWhileLoading.get() < 0) {
            dropsWhileLoading.set(status.path("dropsIssued").asLong());
          }
          assertEquals(dropsWhileLoading.get(), status.path("dropsIssued").asLong(), "a drop issued while loading");
        }
        return "ROLLING_BACK".equals(status.path("mode").asText()) && "DONE".equals(rollback.path("phase").asText());
      }, () -> "; status " + getafix.status());
      holdersChecked(cluster).forEach((id, holders) -> assertEquals(STOCK_REPLICAS, holders.size(), id));
      final long loads = getafix.status().path("loadsIssued").asLong() - loadsBefore;
      System.out.println("rollback: " + loads + " loads for " + missing + " missing replicas; segments below the"
                         + " stock count after each run seen " + belowStockSeen);
      // Paced: at most ROLLBACK_LOADS_PER_RUN loads per Coordinator run, so the count of segments below stock was
      // seen to fall step by step (the launcher's Coordinator runs every 5 s, status is polled every 0.5 s).
      assertTrue(loads >= missing, "the rollback loaded " + loads + " of the " + missing + " missing replicas");
      assertTrue(belowStockSeen.size() >= 3, "the rollback was not seen loading step by step: " + belowStockSeen);
    }
    finally {
      getafix.setConfig(Map.of("rollback", false, "maxLoadsPerRound", 50));
    }
    Waits.await("Getafix to act again once the rollback is off", CONVERGE, () -> "ACTIVE".equals(getafix.mode()));
  }

  /** Replicas missing for every segment to have the stock rule's count. */
  private static int missingToStock(Map<String, Set<String>> holders)
  {
    return holders.values().stream().mapToInt(h -> Math.max(0, STOCK_REPLICAS - h.size())).sum();
  }

  /** Sets the datasource's rule to {@code getafix} with a floor of 1 that replaces {@code loadForever stock}. */
  private static void setGetafixRule(LocalDruidCluster cluster, int stock)
  {
    cluster.coordinatorClient().setRules(DATASET.dataSource(), List.of(Map.of(
        "type", "getafix",
        "tieredReplicants", Map.of("_default_tier", 1),
        "stockReplicants", Map.of("_default_tier", stock)
    )));
  }

  /** Holders of each used segment now; fails at once if a used segment has no loaded replica. */
  static Map<String, Set<String>> holdersChecked(LocalDruidCluster cluster)
  {
    return GetafixSetup.holdersChecked(cluster, DATASET.dataSource());
  }

  /** Replicas of the segments of hours [from, to) beyond one each. */
  private static int extraReplicas(Map<String, Set<String>> holders, int from, int to)
  {
    return hourIds(holders, from, to).stream().mapToInt(id -> holders.get(id).size() - 1).sum();
  }

  static double meanOf(Map<String, Set<String>> holders, List<String> ids)
  {
    return ids.stream().mapToInt(id -> holders.get(id).size()).average().orElse(0);
  }

  /** Ids (among {@code holders}' keys) of the segments of hours [from, to). */
  static List<String> hourIds(Map<String, ?> holders, int from, int to)
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

  /** Each Historical's share of the queries of the segments of hours [from, to) in the plan (the mean share). */
  static Map<String, Double> hotLoadShares(Map<String, Map<String, Double>> plan, int from, int to)
  {
    final List<String> ids = hourIds(plan, from, to);
    final Map<String, Double> shares = new TreeMap<>();
    for (String id : ids) {
      plan.get(id).forEach((node, share) -> shares.merge(node, share / ids.size(), Double::sum));
    }
    return shares;
  }

  /** Scans of the hot segments each Historical has counted since it started. */
  private static Map<String, Long> hotScans(LocalDruidCluster cluster, GetafixClient getafix)
  {
    final Map<String, Boolean> used = new TreeMap<>();
    cluster.coordinatorClient().usedSegments(DATASET.dataSource()).forEach(id -> used.put(id, true));
    final Set<String> hot = Set.copyOf(hourIds(used, HOT_FROM, DATASET.hours()));
    final Map<String, Long> scans = new TreeMap<>();
    for (LocalNode h : cluster.historicals()) {
      final long[] n = {0};
      getafix.historicalStats(h).path("segments").fields().forEachRemaining(e -> {
        if (hot.contains(e.getKey())) {
          n[0] += e.getValue().path("scans").asLong();
        }
      });
      scans.put(h.hostAndPort(), n[0]);
    }
    return scans;
  }

  private static int tierRank(String tier)
  {
    return switch (tier) {
      case "HOT" -> 2;
      case "WARM" -> 1;
      case "COLD" -> 0;
      default -> throw new AssertionError("unknown tier " + tier);
    };
  }

  private static long totalRows(LocalDruidCluster cluster)
  {
    final JsonNode result = cluster.brokerClient().nativeQuery(rowCountQuery(DATASET.interval()));
    return result.size() == 0 ? 0 : result.get(0).path("result").path("rows").asLong();
  }

  private static Map<String, Object> rowCountQuery(String interval)
  {
    return NativeQuery.timeseries(DATASET.dataSource(), List.of(interval))
                      .granularity("all")
                      .longSum("rows", "count")
                      .context("useCache", false)
                      .context("populateCache", false)
                      .toMap();
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

    static Workload start(LocalDruidCluster cluster, int from, int to, int threadCount)
    {
      final Workload w = new Workload(threadCount);
      final String interval = DATASET.interval(from, to);
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

  /**
   * Polls, until closed, the Coordinator's load status (every used segment loaded at least once) and the Broker's
   * answer over every hourly segment (each hour present with all its rows), and keeps every problem it sees:
   * an unavailable segment or a failed query.
   */
  static final class AvailabilityMonitor implements AutoCloseable
  {
    private final Thread thread;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong checks = new AtomicLong();
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

    private AvailabilityMonitor(LocalDruidCluster cluster)
    {
      this.thread = new Thread(() -> {
        while (running.get()) {
          try {
            final double loaded = cluster.coordinatorClient().loadStatus().getOrDefault(DATASET.dataSource(), 0.0);
            if (loaded < 100.0) {
              problems.add("Coordinator load status " + loaded + "% at " + Instant.now());
            }
            final List<Integer> missing = missingHours(cluster);
            if (!missing.isEmpty()) {
              problems.add("Broker answered without (all rows of) hours " + missing + " at " + Instant.now());
            }
            checks.incrementAndGet();
            // Pacing between checks of a monitor, not a wait for a condition.
            Thread.sleep(250);
          }
          catch (InterruptedException e) {
            return;
          }
          catch (RuntimeException e) {
            if (running.get()) {
              problems.add("monitor query failed at " + Instant.now() + ": " + e.getMessage());
            }
          }
        }
      }, "availability-monitor");
    }

    static AvailabilityMonitor start(LocalDruidCluster cluster)
    {
      final AvailabilityMonitor monitor = new AvailabilityMonitor(cluster);
      monitor.thread.start();
      return monitor;
    }

    /** Hours whose segment the Broker did not answer for in full (one hourly bucket per segment). */
    static List<Integer> missingHours(LocalDruidCluster cluster)
    {
      final Map<String, Object> query = NativeQuery.timeseries(DATASET.dataSource(), List.of(DATASET.interval()))
                                                   .granularity("hour")
                                                   .longSum("rows", "count")
                                                   .context("useCache", false)
                                                   .context("populateCache", false)
                                                   .toMap();
      final Map<Instant, Long> rows = new TreeMap<>();
      for (JsonNode bucket : cluster.brokerClient().nativeQuery(query)) {
        rows.put(Instant.parse(bucket.path("timestamp").asText()), bucket.path("result").path("rows").asLong());
      }
      final List<Integer> missing = new ArrayList<>();
      for (int hour = 0; hour < DATASET.hours(); hour++) {
        if (rows.getOrDefault(DATASET.start().plus(Duration.ofHours(hour)), 0L) != DATASET.rowsPerHour()) {
          missing.add(hour);
        }
      }
      return missing;
    }

    long checks()
    {
      return checks.get();
    }

    List<String> problems()
    {
      return List.copyOf(problems);
    }

    @Override
    public void close() throws InterruptedException
    {
      running.set(false);
      thread.interrupt();
      thread.join(Duration.ofMinutes(1).toMillis());
    }
  }
}
