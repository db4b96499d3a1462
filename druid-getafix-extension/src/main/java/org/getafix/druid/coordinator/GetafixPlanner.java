package org.getafix.druid.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Inject;
import org.apache.druid.client.DruidServer;
import org.apache.druid.client.ServerInventoryView;
import org.apache.druid.common.config.JacksonConfigManager;
import org.apache.druid.discovery.DiscoveryDruidNode;
import org.apache.druid.discovery.DruidNodeDiscoveryProvider;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.guice.annotations.EscalatedGlobal;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.lifecycle.LifecycleStart;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;
import org.apache.druid.java.util.emitter.EmittingLogger;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.java.util.http.client.HttpClient;
import org.apache.druid.metadata.MetadataRuleManager;
import org.apache.druid.server.DruidNode;
import org.apache.druid.server.coordinator.CoordinatorConfigManager;
import org.apache.druid.server.coordinator.CoordinatorDynamicConfig;
import org.apache.druid.server.coordinator.DruidCoordinator;
import org.apache.druid.server.coordinator.rules.Rule;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.placement.PlacementConstraints;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.core.placement.PlacementStrategies;
import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.Strategies;
import org.getafix.core.placement.Tier;
import org.getafix.core.placement.UnplacedSegment;
import org.joda.time.DateTime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Getafix round on the leading Coordinator: read the round from Druid (stats pulled from every Historical of the
 * Getafix tier, the segments it governs and who serves them, the nodes' memory), run getafix-core's
 * {@link PlanningRound} (the same round the simulator runs), and publish an immutable {@link PlanSnapshot} that the
 * getafix rule, the getafix strategy and the HTTP endpoints read.
 *
 * <p>Runs on an executor of its own, managed by Druid's lifecycle, rather than as a {@code CoordinatorCustomDuty}:
 * a custom duty gets neither the {@code DruidCluster} nor the server inventory, runs at the Coordinator period
 * (PT60S by default, far from the thesis' 5 s round) and would add blocking HTTP pulls to the Coordinator's duty
 * thread. Our executor keeps the round period, and a slow Historical delays only the plan, never Druid's duties.
 * The state that spans rounds (popularity, capacity, counters) is reset on every leader change, so a new leader
 * warms up before it acts.
 */
public class GetafixPlanner
{
  private static final EmittingLogger log = new EmittingLogger(GetafixPlanner.class);
  /** Share changes up to this keep the routing table's version (see {@link PlanSnapshot#sameRouting}). */
  private static final double SHARE_TOLERANCE = 0.02;
  /**
   * Consecutive rounds a Historical must fail to answer before the plan stops placing replicas on it. Druid itself
   * notices a dead Historical only when its ZooKeeper session expires (30 s by default); by then its segments
   * already have planned copies elsewhere. Two rounds, so that one lost request does not move data.
   */
  private static final int UNREACHABLE_ROUNDS = 2;

  private final GetafixConfig config;
  private final GetafixPlanHolder holder;
  private final GetafixRunHandoff handoff;
  private final JacksonConfigManager configManager;
  private final CoordinatorConfigManager coordinatorConfigManager;
  private final DruidCoordinator coordinator;
  private final ServerInventoryView inventory;
  private final DruidNodeDiscoveryProvider discoveryProvider;
  private final MetadataRuleManager ruleManager;
  private final StatsSource statsSource;
  private final ServiceEmitter emitter;
  private final PlanningRound.Settings planningSettings;

  private ScheduledExecutorService exec;
  private AtomicReference<GetafixDynamicConfig> dynamicConfig;

  // Round state, touched by the round thread only.
  private boolean leading;
  private boolean warm;
  private long round;
  private long loadsReported;
  private long dropsReported;
  private final NodeStatsTracker statsTracker = new NodeStatsTracker();
  private final Map<String, Integer> failedPulls = new HashMap<>();
  private PlanningRound planning;

  @Inject
  public GetafixPlanner(
      GetafixConfig config,
      GetafixPlanHolder holder,
      GetafixRunHandoff handoff,
      JacksonConfigManager configManager,
      CoordinatorConfigManager coordinatorConfigManager,
      DruidCoordinator coordinator,
      ServerInventoryView inventory,
      DruidNodeDiscoveryProvider discoveryProvider,
      MetadataRuleManager ruleManager,
      @EscalatedGlobal HttpClient httpClient,
      @Json ObjectMapper jsonMapper,
      ServiceEmitter emitter
  )
  {
    this(config, holder, handoff, configManager, coordinatorConfigManager, coordinator, inventory, discoveryProvider,
         ruleManager, new StatsPuller(httpClient, jsonMapper), emitter);
  }

  GetafixPlanner(
      GetafixConfig config,
      GetafixPlanHolder holder,
      GetafixRunHandoff handoff,
      JacksonConfigManager configManager,
      CoordinatorConfigManager coordinatorConfigManager,
      DruidCoordinator coordinator,
      ServerInventoryView inventory,
      DruidNodeDiscoveryProvider discoveryProvider,
      MetadataRuleManager ruleManager,
      StatsSource statsSource,
      ServiceEmitter emitter
  )
  {
    this.config = config;
    this.holder = holder;
    this.handoff = handoff;
    this.configManager = configManager;
    this.coordinatorConfigManager = coordinatorConfigManager;
    this.coordinator = coordinator;
    this.inventory = inventory;
    this.discoveryProvider = discoveryProvider;
    this.ruleManager = ruleManager;
    this.statsSource = statsSource;
    this.emitter = emitter;
    this.planningSettings = new PlanningRound.Settings(
        PlacementStrategies.getafixH(config.getSplitPolicy()).name(),
        config.getCapacityEstimator(),
        config.getCapacitySmoothing(),
        config.getPopularityDecay(),
        config.isPopularityBiasCorrected(),
        Strategies.DEFAULT_DRUID_REPLICATION_FACTOR,
        config.isPopularityInherited()
    );
    // Fails the Coordinator's start on an unknown estimator name or a bad value, naming it.
    resetRoundState();
  }

  @LifecycleStart
  public synchronized void start()
  {
    handoff.setServedSegments(new InventoryServedSegments(inventory));
    exec = Execs.scheduledSingleThreaded("getafix-round-%d");
    exec.schedule(this::runRound, config.getRoundPeriodMillis(), TimeUnit.MILLISECONDS);
    log.info("Getafix planner started for tier [%s], round period [%d] ms.", config.getTier(),
             config.getRoundPeriodMillis());
  }

  @LifecycleStop
  public synchronized void stop()
  {
    if (exec != null) {
      exec.shutdownNow();
      exec = null;
    }
  }

  private void runRound()
  {
    long periodMillis = config.getRoundPeriodMillis();
    try {
      final GetafixDynamicConfig dynamic = currentDynamicConfig();
      if (dynamic.validate().isEmpty()) {
        periodMillis = dynamic.roundPeriodMillisOr(periodMillis);
      }
      doRound(dynamic);
    }
    catch (Throwable t) {
      // Never let a round kill the loop; the last published snapshot stays in force.
      log.makeAlert(t, "Getafix round [%d] failed; keeping the previous plan", round).emit();
    }
    finally {
      synchronized (this) {
        if (exec != null && !exec.isShutdown()) {
          exec.schedule(this::runRound, periodMillis, TimeUnit.MILLISECONDS);
        }
      }
    }
  }

  private GetafixDynamicConfig currentDynamicConfig()
  {
    if (dynamicConfig == null) {
      dynamicConfig = configManager.watch(
          GetafixDynamicConfig.CONFIG_KEY,
          GetafixDynamicConfig.class,
          GetafixDynamicConfig.defaults()
      );
    }
    final GetafixDynamicConfig current = dynamicConfig.get();
    return current == null ? GetafixDynamicConfig.defaults() : current;
  }

  private void resetRoundState()
  {
    warm = false;
    statsTracker.clear();
    failedPulls.clear();
    planning = new PlanningRound(planningSettings);
  }

  void doRound(GetafixDynamicConfig dynamic)
  {
    final long startNanos = System.nanoTime();
    round++;
    final String tier = config.getTier();
    if (!coordinator.isLeader()) {
      if (leading) {
        log.info("No longer the leading Coordinator: Getafix stops planning.");
        leading = false;
        resetRoundState();
      }
      holder.publish(PlanSnapshot.withoutPlan(round, DateTimes.nowUtc(), Mode.NOT_LEADER,
                                              List.of("this Coordinator is not the leader"), tier, dynamic));
      return;
    }
    if (!leading) {
      log.info("Leading Coordinator: Getafix warms up (one full round of stats) before acting.");
      leading = true;
      resetRoundState();
    }
    if (!dynamic.isEnabled()) {
      // Re-enabling must warm up again: stats gathered before were not diffed in the meantime.
      resetRoundState();
      holder.publish(PlanSnapshot.withoutPlan(round, DateTimes.nowUtc(), Mode.DISABLED,
                                              List.of("enabled=false in the Getafix dynamic config"), tier, dynamic));
      return;
    }

    final List<String> invalid = dynamic.validate();
    if (!invalid.isEmpty()) {
      // Only reachable if the metadata store holds a config the endpoint would have rejected.
      invalid.forEach(problem -> log.error("Getafix refuses to act: invalid dynamic config: %s", problem));
      emit(ServiceMetricEvent.builder(), GetafixMetric.REFUSED, 1);
      holder.publish(PlanSnapshot.withoutPlan(round, DateTimes.nowUtc(), Mode.REFUSED, invalid, tier, dynamic));
      return;
    }
    final List<String> problems = configurationProblems();
    for (String problem : problems) {
      log.error("Getafix refuses to act: %s", problem);
    }
    emit(ServiceMetricEvent.builder(), GetafixMetric.REFUSED, problems.isEmpty() ? 0 : 1);

    // The tier's live Historicals: in the inventory (segments, sizes) and announced (alive, URL) right now.
    final Map<String, DruidServer> servers = new TreeMap<>();
    for (DruidServer server : inventory.getInventory()) {
      if (InventoryServedSegments.isHistoricalOf(server, tier)) {
        servers.put(server.getName(), server);
      }
    }
    final Map<String, String> baseUrls = new HashMap<>();
    for (DiscoveryDruidNode node : discoveryProvider.getForNodeRole(NodeRole.HISTORICAL).getAllNodes()) {
      final DruidNode druidNode = node.getDruidNode();
      final String name = druidNode.getHostAndPortToUse();
      if (servers.containsKey(name)) {
        baseUrls.put(name, druidNode.getServiceScheme() + "://" + name);
      }
    }
    servers.keySet().retainAll(baseUrls.keySet());
    failedPulls.keySet().retainAll(servers.keySet());

    final Set<String> failedStats = new HashSet<>();
    final Map<String, NodeStatsTracker.NodeDelta> deltas = pullStats(baseUrls, failedStats);

    // The segments Getafix governs: served in the tier, and whose first matching rule is a getafix rule.
    final Map<String, DataSegment> segments = new HashMap<>();
    final Map<String, Set<String>> holders = new HashMap<>();
    final Map<String, Long> otherBytes = new HashMap<>();
    final DateTime now = DateTimes.nowUtc();
    final Map<String, Boolean> governedCache = new HashMap<>();
    servers.forEach((name, server) -> {
      long other = 0;
      for (DataSegment segment : server.iterateAllSegments()) {
        final String id = segment.getId().toString();
        if (governedCache.computeIfAbsent(id, k -> isGoverned(segment, now, tier))) {
          segments.putIfAbsent(id, segment);
          holders.computeIfAbsent(id, k -> new HashSet<>()).add(name);
        } else {
          other += segment.getSize();
        }
      }
      otherBytes.put(name, other);
    });

    final RoundStats stats = RoundStats.of(deltas);
    final List<PlanningRound.SegmentSample> segmentSamples = new ArrayList<>(segments.size());
    final Map<String, String> predecessors =
        planningSettings.popularityInheritance() ? SegmentPredecessors.of(segments.values()) : Map.of();
    segments.forEach((id, segment) -> segmentSamples.add(new PlanningRound.SegmentSample(
        id, segment.getSize(), stats.accessTime().getOrDefault(id, 0.0), 0, predecessors.get(id)
    )));
    final List<PlanningRound.NodeSample> nodeSamples = new ArrayList<>(servers.size());
    servers.forEach((name, server) -> {
      final boolean answering = failedPulls.getOrDefault(name, 0) < UNREACHABLE_ROUNDS;
      nodeSamples.add(new PlanningRound.NodeSample(
          name,
          Math.max(0, server.getMaxSize() - otherBytes.getOrDefault(name, 0L)),
          stats.nodeStats().get(name),
          failedStats.contains(name),
          answering
      ));
    });
    final PlanningRound.Observed observed = planning.observe(segmentSamples, nodeSamples);
    for (String node : observed.departed()) {
      log.info("Historical [%s] left tier [%s]: it leaves the plan.", node, tier);
      statsTracker.forget(node);
    }
    observed.rejections().forEach(
        (node, why) -> log.warn("Getafix keeps the last capacity estimate of [%s]: %s", node, why)
    );
    if (!deltas.isEmpty()) {
      warm = true;
    }

    final Map<String, Double> capacities = observed.capacities();
    capacities.forEach((node, capacity) -> emit(forServer(node), GetafixMetric.NODE_CAPACITY, capacity));
    emit(ServiceMetricEvent.builder(), GetafixMetric.REPLICAS_ACTUAL,
         holders.values().stream().mapToInt(Set::size).sum());
    emitChurn();

    final PlanSnapshot previous = holder.snapshot();
    if (!warm || servers.isEmpty()) {
      final String why = servers.isEmpty()
                         ? "no live Historical in tier [" + tier + "]"
                         : "warming up: waiting for one full round of stats";
      final List<String> all = new ArrayList<>(problems);
      all.add(why);
      holder.publish(new PlanSnapshot(round, 0, DateTimes.nowUtc(), Mode.WARMING_UP, all, tier, Map.of(),
                                      observed.popularity(), capacities, Map.of(), List.of(), dynamic));
      emitRoundTime(startNanos);
      return;
    }

    for (PlanningRound.NodeSample node : nodeSamples) {
      if (!node.placeable()) {
        log.warn("Historical [%s] did not answer for %d rounds: the plan places nothing on it.", node.nodeId(),
                 failedPulls.get(node.nodeId()));
      }
    }
    final PlanningRound.Result result = planning.plan(
        new PlacementConstraints(
            dynamic.getMinReplicas(),
            dynamic.getMaxReplicas(),
            dynamic.getGamma(),
            dynamic.getHotLoadShare(),
            dynamic.getHotMinNodeLoadShare()
        ),
        holders
    );
    final PlacementPlan plan = result.plan();
    if (!plan.unplaced().isEmpty()) {
      final UnplacedSegment first = plan.unplaced().get(0);
      log.warn(
          "Getafix could not place [%d] segments as wanted, e.g. [%s]: %d of %d replicas (%s). See /plan.",
          plan.unplaced().size(), first.segmentId(), first.placedReplicas(), first.wantedReplicas(), first.reason()
      );
    }

    final Map<String, Tier> nodeTiers = result.tiers();
    nodeTiers.forEach((node, t) -> emit(
        forServer(node).setDimension(MetricDimension.GETAFIX_TIER, t.name()),
        GetafixMetric.NODE_TIER,
        t == Tier.HOT ? 2 : t == Tier.WARM ? 1 : 0
    ));
    result.tieringAccuracy(config.getHardwareTiers()).ifPresent(
        accuracy -> emit(ServiceMetricEvent.builder(), GetafixMetric.TIERING_ACCURACY, accuracy)
    );
    emit(ServiceMetricEvent.builder(), GetafixMetric.REPLICAS_PLANNED, plan.totalReplicas());

    final Mode mode = !problems.isEmpty() ? Mode.REFUSED : dynamic.isDryRun() ? Mode.DRY_RUN : Mode.ACTIVE;
    final boolean unchanged = previous.version() > 0
                              && PlanSnapshot.sameRouting(previous.shares(), plan.shares(), SHARE_TOLERANCE);
    holder.publish(new PlanSnapshot(
        round,
        unchanged ? previous.version() : round,
        DateTimes.nowUtc(),
        mode,
        problems,
        tier,
        unchanged ? previous.shares() : plan.shares(),
        observed.popularity(),
        capacities,
        nodeTiers,
        plan.unplaced(),
        dynamic
    ));
    emitRoundTime(startNanos);
  }

  /** Why Getafix must not act with the Coordinator configured as it is; empty when all is well. */
  private List<String> configurationProblems()
  {
    final List<String> problems = new ArrayList<>();
    final CoordinatorDynamicConfig coordinatorConfig = coordinatorConfigManager.getCurrentDynamicConfig();
    if (coordinatorConfig.isSmartSegmentLoading()) {
      problems.add("Coordinator dynamic config has smartSegmentLoading=true: Druid then assigns loads round-robin"
                   + " and ignores the getafix strategy; set smartSegmentLoading=false");
    }
    if (coordinatorConfig.isUseRoundRobinSegmentAssignment()) {
      problems.add("Coordinator dynamic config has useRoundRobinSegmentAssignment=true: Druid then ignores the"
                   + " getafix strategy for loads; set useRoundRobinSegmentAssignment=false");
    }
    if (!handoff.isStrategyInstalled()) {
      problems.add("druid.coordinator.balancer.strategy is not [getafix]: nothing would load onto the plan");
    }
    return problems;
  }

  private boolean isGoverned(DataSegment segment, DateTime now, String tier)
  {
    for (Rule rule : ruleManager.getRulesWithDefault(segment.getDataSource())) {
      if (rule.appliesTo(segment, now)) {
        return rule instanceof GetafixLoadRule getafix && getafix.getTieredReplicants().containsKey(tier);
      }
    }
    return false;
  }

  /**
   * @param failed filled with the nodes that answered nothing usable this round (they keep their last estimate)
   */
  private Map<String, NodeStatsTracker.NodeDelta> pullStats(Map<String, String> baseUrls, Set<String> failed)
  {
    final Map<String, NodeStatsTracker.NodeDelta> deltas = new HashMap<>();
    statsSource.pull(baseUrls, config.getStatsTimeoutMillis()).forEach((node, pulled) -> {
      final NodeStatsTracker.Outcome outcome = pulled.report() == null
                                               ? NodeStatsTracker.Outcome.rejected(pulled.problem())
                                               : statsTracker.observe(node, pulled.report());
      if (pulled.unreachable()) {
        failedPulls.merge(node, 1, Integer::sum);
      } else {
        failedPulls.remove(node);
      }
      if (outcome.problem() != null) {
        log.warn("Getafix has no usable stats from Historical [%s] this round (%s); keeping its last estimate.",
                 node, outcome.problem());
        emit(forServer(node), GetafixMetric.STATS_MISSING, 1);
        failed.add(node);
      } else if (outcome.delta() != null) {
        deltas.put(node, outcome.delta());
      }
    });
    return deltas;
  }

  private void emitChurn()
  {
    final long loads = handoff.loadsIssued();
    final long drops = handoff.dropsIssued();
    emit(ServiceMetricEvent.builder(), GetafixMetric.SEGMENT_LOADS, loads - loadsReported);
    emit(ServiceMetricEvent.builder(), GetafixMetric.SEGMENT_DROPS, drops - dropsReported);
    loadsReported = loads;
    dropsReported = drops;
  }

  private void emitRoundTime(long startNanos)
  {
    emit(ServiceMetricEvent.builder(), GetafixMetric.ROUND_TIME,
         TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
  }

  private static ServiceMetricEvent.Builder forServer(String node)
  {
    return ServiceMetricEvent.builder().setDimension(MetricDimension.SERVER, node);
  }

  private void emit(ServiceMetricEvent.Builder builder, GetafixMetric metric, Number value)
  {
    emitter.emit(builder.setDimension(MetricDimension.TIER, config.getTier()).setMetric(metric.metricName(), value));
  }
}
