package org.getafix.druid.coordinator.load;

import org.apache.druid.client.DruidServer;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.granularity.Granularities;
import org.apache.druid.server.coordination.ServerType;
import org.apache.druid.server.coordinator.CoordinatorDynamicConfig;
import org.apache.druid.server.coordinator.CreateDataSegments;
import org.apache.druid.server.coordinator.DruidCoordinator;
import org.apache.druid.server.coordinator.balancer.BalancerStrategyFactory;
import org.apache.druid.server.coordinator.rules.ForeverLoadRule;
import org.apache.druid.server.coordinator.rules.Rule;
import org.apache.druid.server.coordinator.simulate.CoordinatorSimulation;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.realise.Rollback;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The getafix rule and strategy inside Druid's real Coordinator duties (RunRules, StrategicSegmentAssigner, load
 * queues) over simulated Historicals, with Druid 33.0.0's own simulation harness. The harness only knows the
 * built-in balancer names, so the test puts our factory into the simulated {@link DruidCoordinator} by reflection
 * before the simulation starts (the Coordinator builds its duties, and reads the factory, only when it becomes
 * leader at start).
 */
class GetafixCoordinatorSimulationTest
{
  private static final String TIER = DruidServer.DEFAULT_TIER;
  private static final String DS = "wiki";

  private final List<DruidServer> servers = List.of(historical("A"), historical("B"), historical("C"));
  private final List<DataSegment> segments = CreateDataSegments.ofDatasource(DS)
                                                               .forIntervals(4, Granularities.DAY)
                                                               .startingAt("2024-01-01")
                                                               .withNumPartitions(1)
                                                               .eachOfSizeInMb(100);
  private final GetafixPlanHolder holder = new GetafixPlanHolder();
  private final GetafixRunHandoff handoff = new GetafixRunHandoff();
  private CoordinatorSimulation sim;

  @AfterEach
  void tearDown()
  {
    if (sim != null) {
      sim.stop();
    }
  }

  @Test
  void plannedCopiesLoadBeforeStaleOnesDrop() throws Exception
  {
    startWithFloor(1, GetafixDynamicConfig.defaults());
    final Map<String, Set<String>> initial = settleWarmingUp();
    initial.values().forEach(h -> assertEquals(1, h.size(), "warm-up loads exactly the floor: " + initial));

    final DataSegment wide = segments.get(0);
    final DataSegment moved = segments.get(1);
    final String oldHolder = only(initial.get(id(moved)));
    final String newHolder = otherThan(oldHolder);
    final Map<String, Map<String, Double>> plan = keepCurrent(initial);
    plan.put(id(wide), Map.of("A", 0.4, "B", 0.3, "C", 0.3));
    plan.put(id(moved), Map.of(newHolder, 1.0));
    publish(Mode.ACTIVE, plan, GetafixDynamicConfig.defaults());

    sim.coordinator().runCoordinatorCycle();
    // Loads are queued, nothing has loaded yet: the stale copy must still be there.
    assertEquals(Set.of(oldHolder), holders(moved));
    sim.cluster().loadQueuedSegments();
    assertEquals(Set.of(oldHolder, newHolder), holders(moved), "the planned copy loads while the old one stays");
    assertEquals(Set.of("A", "B", "C"), holders(wide));

    sim.coordinator().runCoordinatorCycle();
    sim.cluster().loadQueuedSegments();
    assertEquals(Set.of(newHolder), holders(moved), "once the planned copy serves, the unplanned one is dropped");
    assertEquals(Set.of("A", "B", "C"), holders(wide), "planned copies are never dropped");
    for (DataSegment s : segments.subList(2, 4)) {
      assertEquals(initial.get(id(s)), holders(s), "segments planned where they are do not move");
    }
  }

  @Test
  void churnPerRunIsBoundedByTheLoadBudget() throws Exception
  {
    final GetafixDynamicConfig oneLoad = new GetafixDynamicConfig(true, false, 0.2, 1, 3, null, 1, 50);
    startWithFloor(1, oneLoad);
    final Map<String, Set<String>> initial = settleWarmingUp();
    final Map<String, Map<String, Double>> plan = new HashMap<>();
    for (DataSegment s : segments) {
      plan.put(id(s), Map.of("A", 1.0 / 3, "B", 1.0 / 3, "C", 1.0 / 3));
    }
    publish(Mode.ACTIVE, plan, oneLoad);

    sim.coordinator().runCoordinatorCycle();
    sim.cluster().loadQueuedSegments();
    assertEquals(totalReplicas(initial) + 1, totalReplicas(currentHolders()), "one plan-driven load per run");
    assertEquals(segments.get(0).getSize(), handoff.loadBytesIssued(), "its bytes are counted");

    sim.coordinator().runCoordinatorCycle();
    sim.cluster().loadQueuedSegments();
    assertEquals(totalReplicas(initial) + 2, totalReplicas(currentHolders()), "and one more in the next run");
  }

  @Test
  void warmUpAndRefusalNeitherLoadNorDrop() throws Exception
  {
    startWithFloor(1, GetafixDynamicConfig.defaults());
    final Map<String, Set<String>> initial = settleWarmingUp();
    // A plan that would add replicas everywhere and move every segment.
    final Map<String, Map<String, Double>> plan = new HashMap<>();
    for (DataSegment s : segments) {
      final String current = only(initial.get(id(s)));
      plan.put(id(s), Map.of(otherThan(current), 1.0));
    }
    for (Mode mode : List.of(Mode.WARMING_UP, Mode.REFUSED)) {
      publish(mode, plan, GetafixDynamicConfig.defaults());
      sim.coordinator().runCoordinatorCycle();
      sim.cluster().loadQueuedSegments();
      assertEquals(initial, currentHolders(), "mode " + mode + " must not change any placement");
    }
  }

  @Test
  void aDryRunPlacesExactlyAsTheStockRuleItReplaces() throws Exception
  {
    // The stock cluster: loadForever 2 with Druid's default smart segment loading and the cost strategy.
    final CoordinatorDynamicConfig druidDefaults = CoordinatorDynamicConfig.builder().build();
    sim = simulation(new ForeverLoadRule(Map.of(TIER, 2), null), druidDefaults);
    sim.start();
    final List<Map<String, Set<String>>> stock = runAndLoad(3);
    sim.stop();

    // The same cluster with the getafix rule in dry run, a plan that wants every segment on A alone published.
    final GetafixDynamicConfig dryRun = new GetafixDynamicConfig(true, true, 0.2, 1, 3, null, 50, 50);
    final GetafixLoadRule rule = new GetafixLoadRule(Map.of(TIER, 1), null, Map.of(TIER, 2), holder, handoff);
    sim = simulation(rule, druidDefaults);
    installGetafixStrategy(sim, new GetafixBalancerStrategyFactory(null, holder, handoff));
    handoff.setServedSegments(servedBySimulation());
    final Map<String, Map<String, Double>> plan = new HashMap<>();
    segments.forEach(s -> plan.put(id(s), Map.of("A", 1.0)));
    publish(Mode.DRY_RUN, plan, dryRun);
    sim.start();
    assertEquals(stock, runAndLoad(3), "run by run, the dry run's placement is the stock rule's");
    stock.get(2).values().forEach(h -> assertEquals(2, h.size()));
    assertEquals(0, handoff.loadsIssued() + handoff.dropsIssued(), "no load or drop was issued for the plan");
  }

  @Test
  void aRollbackLoadsAtTheBudgetsPaceBeforeItDropsAndSaysWhenItIsDone() throws Exception
  {
    final GetafixDynamicConfig twoLoads = new GetafixDynamicConfig(true, false, 0.2, 1, 3, null, 2, 50);
    startWithFloor(1, Map.of(TIER, 2), twoLoads);
    settleWarmingUp();
    // The plan in force: segment 0 on all three Historicals, every other segment on one.
    final Map<String, Map<String, Double>> plan = keepCurrent(currentHolders());
    plan.put(id(segments.get(0)), Map.of("A", 0.4, "B", 0.3, "C", 0.3));
    publish(Mode.ACTIVE, plan, twoLoads);
    sim.coordinator().runCoordinatorCycle();
    sim.cluster().loadQueuedSegments();
    assertEquals(3, holders(segments.get(0)).size());

    publish(Mode.ROLLING_BACK, Map.of(), twoLoads);
    int replicas = totalReplicas(currentHolders());
    final List<Rollback.Phase> phases = new ArrayList<>();
    for (int run = 0; run < 6; run++) {
      sim.coordinator().runCoordinatorCycle();
      sim.cluster().loadQueuedSegments();
      final Map<String, Set<String>> now = currentHolders();
      final boolean belowStock = now.values().stream().anyMatch(h -> h.size() < 2);
      final int added = totalReplicas(now) - replicas;
      replicas = totalReplicas(now);
      assertTrue(added <= 2, "run " + run + " loaded " + added + " replicas, over the budget of 2");
      if (belowStock) {
        assertTrue(added >= 0, "run " + run + " dropped while a segment was below its stock count: " + now);
        assertEquals(3, holders(segments.get(0)).size(), "the extra copy stays until every segment has 2");
      }
      final Rollback.Progress known = handoff.rollbackProgress();
      phases.add(known == null ? null : known.phase());
    }
    currentHolders().values().forEach(h -> assertEquals(2, h.size(), "every segment at its stock count"));
    // What is known after each run is what the run before it counted, before its loads and drops: 3 segments lack a
    // copy, run 0 loads 2 and run 1 the third; run 3, the first to count none below, drops the extra copy.
    assertEquals(
        Arrays.asList(null, Rollback.Phase.LOADING, Rollback.Phase.LOADING, Rollback.Phase.DROPPING,
                      Rollback.Phase.DROPPING, Rollback.Phase.DONE),
        phases
    );
  }

  @Test
  void neverDropsBelowTheFloorNorForAPlanOnDeadServers() throws Exception
  {
    startWithFloor(2, GetafixDynamicConfig.defaults());
    final Map<String, Set<String>> initial = settleWarmingUp();
    initial.values().forEach(h -> assertEquals(2, h.size()));

    final Map<String, Map<String, Double>> plan = new HashMap<>();
    // Plan 1 replica (below the rule's floor of 2) for segment 0, and segment 1 only on a server that does not exist.
    plan.put(id(segments.get(0)), Map.of(initial.get(id(segments.get(0))).iterator().next(), 1.0));
    plan.put(id(segments.get(1)), Map.of("gone:8083", 1.0));
    publish(Mode.ACTIVE, plan, GetafixDynamicConfig.defaults());
    for (int i = 0; i < 3; i++) {
      sim.coordinator().runCoordinatorCycle();
      sim.cluster().loadQueuedSegments();
    }
    assertEquals(initial.get(id(segments.get(0))), holders(segments.get(0)), "the floor of 2 holds");
    assertEquals(initial.get(id(segments.get(1))), holders(segments.get(1)), "a plan on dead servers is ignored");
  }

  @Test
  void dropsOnlyUnplannedReplicasWhenThePlanShrinks() throws Exception
  {
    startWithFloor(1, GetafixDynamicConfig.defaults());
    settleWarmingUp();
    final DataSegment s = segments.get(0);
    final Map<String, Map<String, Double>> wide = keepCurrent(currentHolders());
    wide.put(id(s), Map.of("A", 0.4, "B", 0.3, "C", 0.3));
    publish(Mode.ACTIVE, wide, GetafixDynamicConfig.defaults());
    sim.coordinator().runCoordinatorCycle();
    sim.cluster().loadQueuedSegments();
    assertEquals(Set.of("A", "B", "C"), holders(s));

    final Map<String, Map<String, Double>> narrow = keepCurrent(currentHolders());
    narrow.put(id(s), Map.of("B", 1.0));
    publish(Mode.ACTIVE, narrow, GetafixDynamicConfig.defaults());
    sim.coordinator().runCoordinatorCycle();
    sim.cluster().loadQueuedSegments();
    assertEquals(Set.of("B"), holders(s), "A and C are dropped, the planned B stays");
  }

  private void startWithFloor(int floor, GetafixDynamicConfig config) throws Exception
  {
    startWithFloor(floor, null, config);
  }

  private void startWithFloor(int floor, Map<String, Integer> stock, GetafixDynamicConfig config) throws Exception
  {
    sim = simulation(
        new GetafixLoadRule(Map.of(TIER, floor), null, stock, holder, handoff),
        CoordinatorDynamicConfig.builder()
                                .withSmartSegmentLoading(false)
                                .withUseRoundRobinSegmentAssignment(false)
                                .withReplicationThrottleLimit(100)
                                .withMaxSegmentsInNodeLoadingQueue(1000)
                                .withMaxSegmentsToMove(0)
                                .build()
    );
    installGetafixStrategy(sim, new GetafixBalancerStrategyFactory(null, holder, handoff));
    handoff.setServedSegments(servedBySimulation());
    publish(Mode.WARMING_UP, Map.of(), config);
    sim.start();
  }

  private CoordinatorSimulation simulation(Rule rule, CoordinatorDynamicConfig dynamicConfig)
  {
    return CoordinatorSimulation.builder()
                                .withServers(servers)
                                .withSegments(segments)
                                .withRules(DS, rule)
                                .withDynamicConfig(dynamicConfig)
                                .withImmediateSegmentLoading(false)
                                .build();
  }

  /** The placement after each of {@code runs} Coordinator runs, each followed by loading what it queued. */
  private List<Map<String, Set<String>>> runAndLoad(int runs)
  {
    final List<Map<String, Set<String>>> placements = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      sim.coordinator().runCoordinatorCycle();
      sim.cluster().loadQueuedSegments();
      placements.add(currentHolders());
    }
    return placements;
  }

  private ServedSegments servedBySimulation()
  {
    return new ServedSegments()
    {
      @Override
      public Set<String> holders(DataSegment segment, String tier)
      {
        return GetafixCoordinatorSimulationTest.this.holders(segment);
      }

      @Override
      public Set<String> liveServers(String tier)
      {
        final Set<String> live = new HashSet<>();
        servers.forEach(s -> live.add(s.getName()));
        return live;
      }
    };
  }

  private Map<String, Set<String>> settleWarmingUp()
  {
    sim.coordinator().runCoordinatorCycle();
    sim.cluster().loadQueuedSegments();
    return currentHolders();
  }

  private void publish(Mode mode, Map<String, Map<String, Double>> plan, GetafixDynamicConfig config)
  {
    final long round = holder.snapshot().round() + 1;
    holder.publish(new PlanSnapshot(round, round, DateTimes.nowUtc(), mode, List.of(), TIER, plan, Map.of(),
                                    Map.of(), Set.of(), Map.of(), List.of(), config));
  }

  private Set<String> holders(DataSegment segment)
  {
    final Set<String> holders = new HashSet<>();
    for (DruidServer server : servers) {
      final DruidServer view = sim.coordinator().getInventoryView(server.getName());
      if (view != null && view.getSegment(segment.getId()) != null) {
        holders.add(server.getName());
      }
    }
    return holders;
  }

  private Map<String, Set<String>> currentHolders()
  {
    final Map<String, Set<String>> all = new HashMap<>();
    segments.forEach(s -> all.put(id(s), holders(s)));
    return all;
  }

  private static Map<String, Map<String, Double>> keepCurrent(Map<String, Set<String>> holders)
  {
    final Map<String, Map<String, Double>> plan = new HashMap<>();
    holders.forEach((segment, nodes) -> {
      final Map<String, Double> shares = new HashMap<>();
      nodes.forEach(n -> shares.put(n, 1.0 / nodes.size()));
      plan.put(segment, shares);
    });
    return plan;
  }

  private static int totalReplicas(Map<String, Set<String>> holders)
  {
    return holders.values().stream().mapToInt(Set::size).sum();
  }

  private String otherThan(String server)
  {
    final List<String> names = new ArrayList<>();
    servers.forEach(s -> names.add(s.getName()));
    names.remove(server);
    return names.get(0);
  }

  private static String only(Set<String> holders)
  {
    assertEquals(1, holders.size(), "expected one holder, got " + holders);
    return holders.iterator().next();
  }

  private static String id(DataSegment segment)
  {
    return segment.getId().toString();
  }

  private static DruidServer historical(String name)
  {
    return new DruidServer(name, name, null, 10L << 30, ServerType.HISTORICAL, TIER, 0);
  }

  private static void installGetafixStrategy(CoordinatorSimulation sim, BalancerStrategyFactory factory)
      throws Exception
  {
    final Field coordinatorField = sim.getClass().getDeclaredField("coordinator");
    coordinatorField.setAccessible(true);
    final DruidCoordinator coordinator = (DruidCoordinator) coordinatorField.get(sim);
    final Field factoryField = DruidCoordinator.class.getDeclaredField("balancerStrategyFactory");
    factoryField.setAccessible(true);
    factoryField.set(coordinator, factory);
    assertTrue(factoryField.get(coordinator) instanceof GetafixBalancerStrategyFactory);
  }
}
