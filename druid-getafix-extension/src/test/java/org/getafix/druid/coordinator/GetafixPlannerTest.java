package org.getafix.druid.coordinator;

import org.apache.druid.client.DruidServer;
import org.apache.druid.client.ServerInventoryView;
import org.apache.druid.common.config.JacksonConfigManager;
import org.apache.druid.discovery.DiscoveryDruidNode;
import org.apache.druid.discovery.DruidNodeDiscovery;
import org.apache.druid.discovery.DruidNodeDiscoveryProvider;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.java.util.metrics.StubServiceEmitter;
import org.apache.druid.metadata.MetadataRuleManager;
import org.apache.druid.server.DruidNode;
import org.apache.druid.server.coordination.ServerType;
import org.apache.druid.server.coordinator.CoordinatorConfigManager;
import org.apache.druid.server.coordinator.CoordinatorDynamicConfig;
import org.apache.druid.server.coordinator.DruidCoordinator;
import org.apache.druid.server.coordinator.rules.Rule;
import org.apache.druid.timeline.DataSegment;
import org.easymock.EasyMock;
import org.getafix.core.placement.tiering.Tier;
import org.getafix.core.realise.Rollback;
import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.core.wire.HistoricalStatsReport.SegmentStats;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.druid.coordinator.load.GetafixBalancerStrategyFactory;
import org.getafix.druid.coordinator.load.GetafixLoadRule;
import org.getafix.druid.coordinator.load.GetafixRunHandoff;
import org.getafix.druid.coordinator.load.RealiseMonitor;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanPublisher;
import org.getafix.druid.coordinator.plan.PlanSnapshot;
import org.getafix.druid.coordinator.stats.RoundReader;
import org.getafix.druid.coordinator.stats.StatsPuller;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One planning round at a time over a fake two-Historical cluster: real getafix-core planning, Druid's metric
 * emitter stub, and a stats source the test scripts (good counters, garbage, silence).
 */
class GetafixPlannerTest
{
  private static final String H1 = "h1:8083";
  private static final String H2 = "h2:8083";

  private final List<DataSegment> segments = new ArrayList<>();
  private final GetafixPlanHolder holder = new GetafixPlanHolder();
  private final GetafixRunHandoff handoff = new GetafixRunHandoff();
  private final StubServiceEmitter emitter = new StubServiceEmitter("coordinator", "c:8081");
  private final AtomicBoolean leader = new AtomicBoolean(true);
  private final AtomicReference<CoordinatorDynamicConfig> coordinatorConfig = new AtomicReference<>(
      CoordinatorDynamicConfig.builder().withSmartSegmentLoading(false).withUseRoundRobinSegmentAssignment(false)
                              .build()
  );
  /** What each Historical answers next round; a missing entry means it does not answer. */
  private final Map<String, StatsPuller.Pulled> answers = new HashMap<>();
  private final Map<String, Long> scansOfS0 = new HashMap<>(Map.of(H1, 0L, H2, 0L));
  private long uptime = 1000;
  private java.util.function.Function<GetafixConfig, GetafixPlanner> plannerFactory;
  private GetafixPlanner planner;
  private GetafixBalancerStrategyFactory strategyFactory;

  @BeforeEach
  void setUp()
  {
    final DruidServer h1 = historical(H1);
    final DruidServer h2 = historical(H2);
    for (int i = 0; i < 4; i++) {
      final DataSegment s = DataSegment.builder()
                                       .dataSource("wiki")
                                       .interval(Intervals.of("2024-01-0" + (i + 1) + "/P1D"))
                                       .version("v1")
                                       .size(1000)
                                       .build();
      segments.add(s);
      (i % 2 == 0 ? h1 : h2).addDataSegment(s);
    }
    final ServerInventoryView inventory = EasyMock.createNiceMock(ServerInventoryView.class);
    EasyMock.expect(inventory.getInventory()).andReturn(List.of(h1, h2)).anyTimes();
    final DruidNodeDiscoveryProvider discovery = EasyMock.createNiceMock(DruidNodeDiscoveryProvider.class);
    EasyMock.expect(discovery.getForNodeRole(NodeRole.HISTORICAL)).andReturn(new DruidNodeDiscovery()
    {
      @Override
      public List<DiscoveryDruidNode> getAllNodes()
      {
        return List.of(node("h1"), node("h2"));
      }

      @Override
      public void registerListener(Listener listener)
      {
      }
    }).anyTimes();
    final MetadataRuleManager rules = EasyMock.createNiceMock(MetadataRuleManager.class);
    final List<Rule> getafixRule =
        List.of(new GetafixLoadRule(Map.of("_default_tier", 1), null, null, holder, handoff));
    EasyMock.expect(rules.getRulesWithDefault("wiki")).andReturn(getafixRule).anyTimes();
    final DruidCoordinator coordinator = EasyMock.createNiceMock(DruidCoordinator.class);
    EasyMock.expect(coordinator.isLeader()).andAnswer(leader::get).anyTimes();
    final CoordinatorConfigManager coordinatorConfigs = EasyMock.createNiceMock(CoordinatorConfigManager.class);
    EasyMock.expect(coordinatorConfigs.getCurrentDynamicConfig()).andAnswer(coordinatorConfig::get).anyTimes();
    final JacksonConfigManager configs = EasyMock.createNiceMock(JacksonConfigManager.class);
    EasyMock.expect(configs.watch(
        EasyMock.eq(GetafixDynamicConfig.CONFIG_KEY),
        EasyMock.eq(GetafixDynamicConfig.class),
        EasyMock.anyObject(GetafixDynamicConfig.class)
    )).andReturn(new AtomicReference<>(GetafixDynamicConfig.defaults())).anyTimes();
    EasyMock.replay(inventory, discovery, rules, coordinator, coordinatorConfigs, configs);

    strategyFactory = new GetafixBalancerStrategyFactory(null, holder, handoff); // as with balancer.strategy=getafix
    plannerFactory = config -> new GetafixPlanner(
        config,
        coordinator,
        configs,
        new RealiseMonitor(coordinatorConfigs, handoff),
        new RoundReader(config, inventory, discovery, rules, (urls, timeout) -> {
          assertEquals(Set.of(H1, H2), urls.keySet());
          assertEquals("http://h1:8083", urls.get(H1));
          return new HashMap<>(answers);
        }, () -> uptime), // the Coordinator's clock runs with the Historicals' uptimes
        new PlanPublisher(config, holder, emitter)
    );
    planner = plannerFactory.apply(new GetafixConfig());
  }

  @Test
  void tieringAccuracyIsEmittedAgainstTheHardwareTiers() throws Exception
  {
    planner = plannerFactory.apply(new DefaultObjectMapper().readValue(
        "{\"hardwareTiers\": {\"h1:8083\": \"HOT\", \"h2:8083\": \"COLD\"}}", GetafixConfig.class
    ));
    round(10, 10);
    round(500, 10);
    final List<Number> accuracy = metric("getafix/tiering/accuracy");
    assertEquals(1, accuracy.size(), "one value per planned round");
    final double expected = holder.snapshot().nodeTiers().get(H1) == Tier.HOT
                            ? (holder.snapshot().nodeTiers().get(H2) == Tier.COLD ? 1.0 : 0.5)
                            : (holder.snapshot().nodeTiers().get(H2) == Tier.COLD ? 0.5 : 0.0);
    assertEquals(expected, accuracy.get(0).doubleValue(), 1e-9, "tiers " + holder.snapshot().nodeTiers());
    assertEquals(2, emitter.getMetricValues("getafix/node/tier", Map.of()).size());
  }

  @Test
  void warmsUpThenPlansEveryGovernedSegmentOntoLiveNodes()
  {
    round(10, 10);
    assertEquals(Mode.WARMING_UP, holder.snapshot().mode(), "the first report is only a baseline");
    assertTrue(holder.snapshot().shares().isEmpty());

    round(500, 10);
    final PlanSnapshot s = holder.snapshot();
    assertEquals(Mode.ACTIVE, s.mode(), String.valueOf(s.problems()));
    assertEquals(4, s.shares().size(), "every segment on a governed Historical is planned");
    s.shares().values().forEach(shares -> assertTrue(Set.of(H1, H2).containsAll(shares.keySet())));
    final String hot = segments.get(0).getId().toString();
    final String cold = segments.get(1).getId().toString();
    assertTrue(s.popularity().get(hot) > s.popularity().get(cold), "popularity: " + s.popularity());
    assertTrue(s.plannedHolders(hot).size() >= s.plannedHolders(cold).size());
    assertEquals(Set.of(H1, H2), s.capacities().keySet());
    assertTrue(s.version() > 0);
    assertEquals(List.of(0, 0), metric("getafix/refused"), "not refused");
    assertTrue(!metric("getafix/replicas/planned").isEmpty());
    assertTrue(!metric("getafix/round/time").isEmpty());
  }

  @Test
  void garbageOrSilenceKeepsTheLastEstimateAndIsCounted()
  {
    round(10, 10);
    round(200, 200);
    final double h2Capacity = holder.snapshot().capacities().get(H2);

    answers.put(H1, good(H1, 400));
    // What StatsPuller makes of a report with a negative uptime.
    answers.put(H2, new StatsPuller.Pulled(null, "uptimeMillis [-4] is negative", false));
    tick();
    planner.doRound(GetafixDynamicConfig.defaults());
    assertEquals(h2Capacity, holder.snapshot().capacities().get(H2), 1e-9, "garbage keeps the last estimate");
    assertEquals(List.of(1), metricFor("getafix/stats/missing", H2));
    assertEquals(Mode.ACTIVE, holder.snapshot().mode());

    // H2 stops answering: after two silent rounds nothing is planned on it any more.
    for (int i = 0; i < 2; i++) {
      answers.put(H1, good(H1, 400 + 100 * (i + 1)));
      answers.put(H2, new StatsPuller.Pulled(null, "connection refused", true));
      tick();
      planner.doRound(GetafixDynamicConfig.defaults());
    }
    holder.snapshot().shares().values().forEach(shares -> assertEquals(Set.of(H1), shares.keySet()));
    assertEquals(3, metricFor("getafix/stats/missing", H2).size());
  }

  @Test
  void lateStatsKeepTheEstimateAndTheSegmentsForABoundedNumberOfRounds()
  {
    round(10, 10);
    round(200, 200);
    final double h2Capacity = holder.snapshot().capacities().get(H2);
    assertTrue(plannedOn(H2), "H2 serves part of the plan");

    // H2 answers its stats later than the deadline: busy, not gone, and not weak.
    for (int i = 1; i < RoundReader.SILENT_ROUNDS; i++) {
      answers.put(H1, good(H1, 200 + 10L * i));
      answers.put(H2, late());
      tick();
      planner.doRound(GetafixDynamicConfig.defaults());
      assertEquals(h2Capacity, holder.snapshot().capacities().get(H2), 1e-9, "late round " + i);
      assertTrue(plannedOn(H2), "late round " + i + ": H2's segments are not moved away");
    }
    assertEquals(RoundReader.SILENT_ROUNDS - 1, metricFor("getafix/stats/missing", H2).size());
    assertTrue(metricFor("getafix/stats/rejected", H2).isEmpty(), "late is not implausible");

    // Silent for a minute while still announced: hung, and the plan stops relying on it.
    answers.put(H1, good(H1, 400));
    answers.put(H2, late());
    tick();
    planner.doRound(GetafixDynamicConfig.defaults());
    assertTrue(!plannedOn(H2), "after the bound nothing is planned on H2: " + holder.snapshot().shares());

    // It answers again: its next report is diffed against the last accepted one and it takes replicas again.
    answers.put(H1, good(H1, 500));
    answers.put(H2, good(H2, 300));
    tick();
    planner.doRound(GetafixDynamicConfig.defaults());
    assertEquals(RoundReader.SILENT_ROUNDS, metricFor("getafix/stats/missing", H2).size());
    assertTrue(plannedOn(H2), "H2 is back in the plan");
  }

  @Test
  void anImplausibleReportIsCountedKeepsTheEstimateAndIsNotTheNextBaseline()
  {
    round(10, 10);
    round(200, 200);
    final double h2Capacity = holder.snapshot().capacities().get(H2);

    final long max = Long.MAX_VALUE;
    answers.put(H1, good(H1, 300));
    answers.put(H2, new StatsPuller.Pulled(
        new HistoricalStatsReport("epoch-" + H2, uptime + 5000, 2, max, max, max, max, max, max, max, Map.of()),
        null,
        false
    ));
    tick();
    planner.doRound(GetafixDynamicConfig.defaults());
    assertEquals(h2Capacity, holder.snapshot().capacities().get(H2), 1e-9);
    assertEquals(List.of(1), emitter.getMetricValues(
        "getafix/stats/rejected", Map.of("server", H2, "reason", "cpuTimeMicros")
    ));
    assertEquals(List.of(1), metricFor("getafix/stats/missing", H2));

    round(400, 300);
    assertEquals(1, metricFor("getafix/stats/missing", H2).size(), "the genuine report after it is used");
    assertEquals(1, metricFor("getafix/stats/rejected", H2).size());
    assertEquals(emitter.getMetricValues("getafix/stats/rejected", Map.of()).size(), holder.statsRejected(),
                 "the status endpoint's running total follows the metric, all Historicals together");
    assertEquals(emitter.getMetricValues("getafix/stats/missing", Map.of()).size(), holder.statsMissing());
    assertTrue(holder.statsRejected() >= 1);
  }

  @Test
  void refusesLoudlyWhenDruidWouldIgnoreTheStrategy()
  {
    coordinatorConfig.set(CoordinatorDynamicConfig.builder().build()); // Druid's defaults: smartSegmentLoading=true
    round(10, 10);
    round(50, 50);
    assertEquals(Mode.REFUSED, holder.snapshot().mode());
    assertTrue(holder.snapshot().problems().toString().contains("smartSegmentLoading=true"));
    assertEquals(List.of(1, 1), metric("getafix/refused"));
    assertEquals(4, holder.snapshot().shares().size(), "the plan is still computed and shown");
  }

  @Test
  void aDryRunPlansWhereDruidWouldIgnoreTheStrategyAndOnlyWarns()
  {
    coordinatorConfig.set(CoordinatorDynamicConfig.builder().build()); // Druid's defaults: smartSegmentLoading=true
    final GetafixDynamicConfig dryRun = new GetafixDynamicConfig(true, true, 0.2, 1, 3, null, 50, 50);
    round(10, 10, dryRun);
    round(50, 50, dryRun);
    assertEquals(Mode.DRY_RUN, holder.snapshot().mode(), "a dry run changes nothing, so nothing need be refused");
    assertTrue(holder.snapshot().problems().toString().contains("smartSegmentLoading=true"));
    assertEquals(4, holder.snapshot().shares().size());
  }

  @Test
  void aRollbackPlansNothingAndSaysWhereItStands()
  {
    round(10, 10);
    round(50, 50);
    final GetafixDynamicConfig rollback = new GetafixDynamicConfig(
        true, false, 0.2, 1, 3, null, 10, 10, null, null, null, null, null, true
    );
    planner.doRound(rollback);
    assertEquals(Mode.ROLLING_BACK, holder.snapshot().mode());
    assertTrue(holder.snapshot().shares().isEmpty());

    // A Coordinator run rolls back: the rule counts 3 segments below their stock count, 1 above.
    strategyFactory.createBalancerStrategy(1);
    final Rollback.Tally tally = handoff.currentRun().rollback();
    tally.count(2, 1);
    tally.count(2, 1);
    tally.count(2, 1);
    tally.count(2, 3);
    strategyFactory.createBalancerStrategy(1); // the next run
    planner.doRound(rollback);
    assertTrue(holder.snapshot().problems().get(1).startsWith("rollback loading: 3 of 4 segments"),
               holder.snapshot().problems().toString());
    assertEquals(List.of(3), metric("getafix/rollback/belowStock"));
    assertEquals(List.of(1), metric("getafix/rollback/aboveStock"));

    coordinatorConfig.set(CoordinatorDynamicConfig.builder().build());
    planner.doRound(rollback);
    assertEquals(Mode.REFUSED, holder.snapshot().mode(), "without the strategy's pacing nothing may change");
    assertTrue(holder.snapshot().problems().toString().contains("smartSegmentLoading=true"));

    assertEquals(
        List.of("rollback and dryRun cannot both be true: a rollback loads and drops, a dry run must not"),
        new GetafixDynamicConfig(true, true, 0.2, 1, 3, null, 10, 10, null, null, null, null, null, true).validate()
    );
  }

  @Test
  void aNewLeaderWarmsUpAgainAndDisabledPlansNothing()
  {
    round(10, 10);
    round(50, 50);
    assertEquals(Mode.ACTIVE, holder.snapshot().mode());
    leader.set(false);
    round(60, 60);
    assertEquals(Mode.NOT_LEADER, holder.snapshot().mode());
    leader.set(true);
    round(70, 70);
    assertEquals(Mode.WARMING_UP, holder.snapshot().mode(), "leadership regained: stats must be fresh again");
    round(80, 80);
    assertEquals(Mode.ACTIVE, holder.snapshot().mode());

    planner.doRound(new GetafixDynamicConfig(false, false, 0.2, 1, 3, null, 50, 50));
    assertEquals(Mode.DISABLED, holder.snapshot().mode());
    planner.doRound(new GetafixDynamicConfig(true, true, 0.2, 1, 3, null, 50, 50));
    assertEquals(Mode.WARMING_UP, holder.snapshot().mode(), "re-enabled: warm up again");
  }

  @Test
  void anInvalidStoredConfigIsRefusedWithoutPlanning()
  {
    round(10, 10);
    planner.doRound(new GetafixDynamicConfig(true, false, 1.5, 1, 3, null, 50, 50));
    assertEquals(Mode.REFUSED, holder.snapshot().mode());
    assertTrue(holder.snapshot().problems().get(0).contains("gamma must be in [0, 1], got [1.5]"));
    assertTrue(holder.snapshot().shares().isEmpty());
  }

  /** One round in which H1 and H2 have scanned segment 0 this many times in total. */
  private void round(long scansOnH1, long scansOnH2)
  {
    round(scansOnH1, scansOnH2, GetafixDynamicConfig.defaults());
  }

  private void round(long scansOnH1, long scansOnH2, GetafixDynamicConfig dynamic)
  {
    tick();
    answers.put(H1, good(H1, scansOnH1));
    answers.put(H2, good(H2, scansOnH2));
    planner.doRound(dynamic);
  }

  private void tick()
  {
    uptime += 5000;
  }

  private StatsPuller.Pulled good(String node, long scans)
  {
    scansOfS0.put(node, scans);
    final String s0 = segments.get(0).getId().toString();
    final String s1 = segments.get(1).getId().toString();
    final Map<String, SegmentStats> perSegment = Map.of(
        s0, new SegmentStats(scans * 2, scans),
        s1, new SegmentStats(1, 1)
    );
    return new StatsPuller.Pulled(
        new HistoricalStatsReport("epoch-" + node, uptime, 2, scans * 100, scans, scans * 2 + 1, scans + 1, 0,
                                  scans * 3, scans, perSegment),
        null,
        false
    );
  }

  private static StatsPuller.Pulled late()
  {
    return new StatsPuller.Pulled(null, "no answer within 2000 ms", false, true);
  }

  private boolean plannedOn(String node)
  {
    return holder.snapshot().shares().values().stream().anyMatch(shares -> shares.containsKey(node));
  }

  private List<Number> metric(String name)
  {
    return emitter.getMetricValues(name, Map.of());
  }

  private List<Number> metricFor(String name, String server)
  {
    return emitter.getMetricValues(name, Map.of("server", server));
  }

  private static DruidServer historical(String name)
  {
    return new DruidServer(name, name, null, 1L << 30, ServerType.HISTORICAL, DruidServer.DEFAULT_TIER, 0);
  }

  private static DiscoveryDruidNode node(String host)
  {
    return new DiscoveryDruidNode(new DruidNode("druid/historical", host, false, 8083, null, true, false),
                                  NodeRole.HISTORICAL, Map.of());
  }
}
