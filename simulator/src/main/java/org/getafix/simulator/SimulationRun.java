package org.getafix.simulator;

import org.HdrHistogram.Histogram;
import org.getafix.core.placement.NodeRoundStats;
import org.getafix.core.placement.PlacementConstraints;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.core.placement.Tier;
import org.getafix.core.placement.PlacementStrategies;
import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.TieringAccuracy;
import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.Historical;
import org.getafix.simulator.cluster.Query;
import org.getafix.simulator.cluster.Segment;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.report.RunResult;
import org.getafix.simulator.report.RunTrace;
import org.getafix.simulator.routing.CoreRouting;
import org.getafix.simulator.routing.RoutingPolicy;
import org.getafix.simulator.settings.ScenarioSettings;
import org.getafix.simulator.strategy.CorePlacementAdapter;
import org.getafix.simulator.strategy.RoundObservation;
import org.getafix.simulator.workload.Client;
import org.getafix.simulator.workload.QueryType;
import org.getafix.simulator.workload.SkewedLatestWorkload;
import org.getafix.simulator.workload.WorkloadGenerator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One strategy on one scenario: builds the cluster, injects the workload, plans every round with getafix-core,
 * and measures. Deterministic: every random stream is split from the scenario seed in a fixed order, and the
 * workload streams do not depend on the strategy, so all runs of a scenario see the same queries.
 */
public final class SimulationRun
{
  private static final double POPULARITY_WINDOW_SECONDS = 60;

  private final ScenarioSettings scenario;
  private final ScenarioSettings.Run run;
  private final Consumer<String> progress;

  private final EventLoop loop = new EventLoop();
  private final Cluster cluster;
  private final RoutingPolicy routing;
  private final CorePlacementAdapter adapter;
  private final WorkloadGenerator workload;
  private final List<Client> clients = new ArrayList<>();
  private final SplittableRandom segmentRandom;
  private final Histogram latency = newLatencyHistogram();
  private final Map<String, Histogram> latencyByType = new TreeMap<>();
  private final Map<String, Long> memoryLimits = new LinkedHashMap<>();
  private final Map<String, Tier> hardwareTiers = new LinkedHashMap<>();
  private final int hotCount;
  private final int warmCount;
  private final List<String> nodeIdsByCores;

  private final List<Map<String, Tier>> measuredTiers = new ArrayList<>();
  private final List<Map<String, Tier>> naturalTiers = new ArrayList<>();
  private final List<int[]> tierRows = new ArrayList<>();
  private final List<Double> roundTimes = new ArrayList<>();
  private int[] replicasAtEnd = new int[0];
  private long[] recentAccesses = new long[0];
  private long[] accessesAtWindowStart = new long[0];
  private double lastRound;
  private double lastCompletion;
  private double planNanos;
  private int plans;
  private double busyCoreSecondsMeasured;
  private long tasks;
  private int nextSegment;

  public SimulationRun(ScenarioSettings scenario, ScenarioSettings.Run run, Consumer<String> progress)
  {
    this.scenario = scenario;
    this.run = run;
    this.progress = progress;
    final SplittableRandom root = new SplittableRandom(scenario.seed());
    final SplittableRandom clientRoot = root.split();
    this.segmentRandom = root.split();
    final SplittableRandom routingRandom = root.split();

    final List<Cluster.NodeSpec> specs = new ArrayList<>();
    for (ScenarioSettings.NodeGroup g : scenario.nodes()) {
      for (int i = 0; i < g.count(); i++) {
        final String id = g.name() + "-" + i;
        specs.add(new Cluster.NodeSpec(id, g.cores(), g.speed(), g.tier()));
        memoryLimits.put(id, g.memoryBytes());
        if (g.tier() != null) {
          hardwareTiers.put(id, Tier.valueOf(g.tier()));
        }
      }
    }
    hotCount = (int) hardwareTiers.values().stream().filter(t -> t == Tier.HOT).count();
    warmCount = (int) hardwareTiers.values().stream().filter(t -> t == Tier.WARM).count();
    nodeIdsByCores = specs.stream()
                          .sorted(Comparator.comparingDouble((Cluster.NodeSpec s) -> -s.cores() * s.speed()))
                          .map(Cluster.NodeSpec::id)
                          .toList();

    final String routingName = run.routing() != null ? run.routing() : scenario.planning().routing();
    final List<String> nodeIds = specs.stream().map(Cluster.NodeSpec::id).toList();
    // A Broker trusts a routing table for a few rounds without news from the Coordinator.
    this.routing = CoreRouting.named(
        routingName,
        nodeIds,
        scenario.clients().count(),
        routingRandom,
        loop::now,
        3 * scenario.roundSeconds()
    );
    this.cluster = new Cluster(
        loop,
        specs,
        scenario.clients().count(),
        scenario.segments().loadBytesPerSecond(),
        routing,
        scenario.warmupSeconds(),
        scenario.durationSeconds()
    );
    for (ScenarioSettings.Straggler s : scenario.stragglers()) {
      cluster.nodes()[cluster.nodeIndex(s.node())].slowDown(s.fromSeconds(), s.speed());
    }

    final ScenarioSettings.Planning p = scenario.planning();
    this.adapter = CorePlacementAdapter.create(
        run.strategy(),
        estimatorName(),
        p.popularityDecay(),
        p.popularityBiasCorrection(),
        new PlacementConstraints(p.minReplicas(), p.maxReplicas(), gamma()),
        p.druidDefaultReplicas()
    );

    final List<QueryType> types = scenario.workload().queryTypes().stream()
                                          .map(t -> new QueryType(t.name(), t.weight(), t.meanTaskMillis(), t.cv()))
                                          .toList();
    this.workload = new SkewedLatestWorkload(
        scenario.workload().recencyExponent(),
        scenario.workload().meanIntervalSegments()
    );
    for (int i = 0; i < scenario.clients().count(); i++) {
      clients.add(new Client(
          i,
          scenario.clients().minQueriesPerSecond(),
          scenario.clients().maxQueriesPerSecond(),
          types,
          clientRoot.split()
      ));
    }
  }

  private double gamma()
  {
    return run.gamma() != null ? run.gamma() : scenario.planning().gamma();
  }

  private String estimatorName()
  {
    return run.capacityEstimator() != null ? run.capacityEstimator() : scenario.planning().capacityEstimator();
  }

  /** Offered load as a fraction of the cluster's nominal core capacity: a sanity figure for scenario authors. */
  public static double offeredUtilisation(ScenarioSettings s)
  {
    double meanWork = 0;
    double weights = 0;
    for (ScenarioSettings.QueryTypeSettings t : s.workload().queryTypes()) {
      meanWork += t.weight() * t.meanTaskMillis() / 1000;
      weights += t.weight();
    }
    meanWork /= weights;
    final double qps = s.clients().count() * (s.clients().minQueriesPerSecond() + s.clients().maxQueriesPerSecond()) / 2;
    double capacity = 0;
    for (ScenarioSettings.NodeGroup g : s.nodes()) {
      capacity += g.count() * g.cores() * g.speed();
    }
    return qps * s.workload().meanIntervalSegments() * meanWork / capacity;
  }

  public RunOutcome execute()
  {
    final long wallStart = System.nanoTime();
    createInitialSegments();
    cluster.setQueryListener(this::onQueryDone);
    for (Client client : clients) {
      loop.schedule(client.nextInterArrival(), () -> arrive(client));
    }
    // Handoffs before rounds: events at the same instant run in the order they were scheduled, and a segment
    // handed off at the moment of a Coordinator run is assigned by that run's rules, whose load of an unavailable
    // segment Druid's load queue serves before the replicas the same run asks for (Historical.LOAD_ORDER).
    final double every = scenario.segments().arrivalEverySeconds();
    if (every > 0) {
      for (double t = every; t < scenario.durationSeconds(); t += every) {
        loop.schedule(t, this::segmentArrives);
      }
    }
    final double round = scenario.roundSeconds();
    for (double t = round; t <= scenario.durationSeconds() + 1e-9; t += round) {
      loop.schedule(t, this::planRound);
    }
    loop.schedule(scenario.warmupSeconds(), cluster::openMeasurementWindow);
    // Popularity for the replicas-vs-popularity plot: accesses over the last minute of injection, so that it
    // describes the same moment as the replicas held at the end.
    loop.schedule(Math.max(0, scenario.durationSeconds() - POPULARITY_WINDOW_SECONDS), this::snapshotAccesses);
    final int steps = 10;
    for (int i = 1; i <= steps; i++) {
      loop.runUntil(scenario.durationSeconds() * i / steps);
      progress.accept(String.format(
          Locale.ROOT,
          "%s: %3d%% (simulated %.0f s, %,d events, %.1f s wall)",
          run.label(), i * 100 / steps, loop.now(), loop.processed(), (System.nanoTime() - wallStart) / 1e9
      ));
    }
    snapshotReplicas();
    final Cluster.Footprint footprint = cluster.footprint();
    loop.runToCompletion();

    final double window = scenario.durationSeconds() - scenario.warmupSeconds();
    double totalCores = 0;
    for (Historical h : cluster.nodes()) {
      totalCores += h.cores();
    }
    final RunResult result = new RunResult(
        adapter.strategy().name(),
        routing.name(),
        capacityAware() ? estimatorName() : null,
        gamma(),
        Math.round(footprint.meanReplicas()),
        Math.round(footprint.meanReplicas() - footprint.meanSegments()),
        footprint.meanReplicas() / footprint.meanSegments(),
        Math.round(footprint.meanTotalBytes()),
        footprint.maxNodeBytes(),
        RunResult.Latency.of(latency),
        latencyByType(),
        lastCompletion * 1000,
        hardwareTiers.isEmpty() || measuredTiers.isEmpty()
        ? null
        : TieringAccuracy.overRounds(measuredTiers, hardwareTiers),
        hardwareTiers.isEmpty() || naturalTiers.isEmpty()
        ? null
        : TieringAccuracy.overRounds(naturalTiers, hardwareTiers),
        latency.getTotalCount(),
        tasks,
        footprint.replicaLoads(),
        busyCoreSecondsMeasured / (totalCores * window),
        plans == 0 ? 0 : planNanos / plans / 1e6
    );
    return new RunOutcome(
        run.label(),
        result,
        new RunTrace(latency, nodeIdsByCores, tierRows, roundTimes, recentAccesses, replicasAtEnd)
    );
  }

  /** Microseconds, up to an hour, three significant digits. */
  private static Histogram newLatencyHistogram()
  {
    return new Histogram(3_600_000_000L, 3);
  }

  private Map<String, RunResult.Latency> latencyByType()
  {
    final Map<String, RunResult.Latency> byType = new TreeMap<>();
    latencyByType.forEach((type, h) -> byType.put(type, RunResult.Latency.of(h)));
    return byType;
  }

  /**
   * Loads a round may issue beyond the floor: {@code maxLoadsPerRound} for the strategies the extension realises
   * through its getafix rule, unthrottled for the others ({@link PlacementStrategies.Entry#budgeted()}).
   */
  private int loadBudget()
  {
    return adapter.strategy().budgeted() ? scenario.planning().maxLoadsPerRound() : Integer.MAX_VALUE;
  }

  private boolean capacityAware()
  {
    return adapter.strategy().capacityAware();
  }

  /** The label, summary figures and plot data of one run. */
  public record RunOutcome(String label, RunResult result, RunTrace trace)
  {
  }

  private void createInitialSegments()
  {
    final ScenarioSettings.Segments s = scenario.segments();
    final int nodes = cluster.nodes().length;
    for (int i = 0; i < s.initial(); i++) {
      // History before the run: one replica each, spread evenly, as a cluster that has been loading for a while.
      cluster.addLoadedSegment(nextSegmentId(), drawSize(), i % nodes);
    }
  }

  private String nextSegmentId()
  {
    return String.format(Locale.ROOT, "seg-%05d", nextSegment++);
  }

  private long drawSize()
  {
    final ScenarioSettings.Segments s = scenario.segments();
    return Math.max(1, Math.round(s.sizeBytes() * (1 + s.sizeJitter() * (2 * segmentRandom.nextDouble() - 1))));
  }

  private void segmentArrives()
  {
    cluster.addArrivingSegment(nextSegmentId(), drawSize());
  }

  private void arrive(Client client)
  {
    final double now = loop.now();
    final QueryType type = client.nextType();
    final double work = type.drawTaskSeconds(client.random());
    final WorkloadGenerator.Interval interval = workload.next(client.random(), cluster.queryableCount());
    final Query query = new Query(client.index(), type, now);
    for (int age = interval.newestAge(); age < interval.newestAge() + interval.length(); age++) {
      cluster.dispatch(query, cluster.queryableByAge(age), work, client.index());
      tasks++;
    }
    final double next = now + client.nextInterArrival();
    if (next < scenario.durationSeconds()) {
      loop.schedule(next, () -> arrive(client));
    }
  }

  private void onQueryDone(Query query, double now)
  {
    lastCompletion = Math.max(lastCompletion, now);
    if (query.arrivalTime() >= scenario.warmupSeconds() && query.arrivalTime() < scenario.durationSeconds()) {
      final long micros = Math.max(1, Math.round((now - query.arrivalTime()) * 1e6));
      latency.recordValue(micros);
      latencyByType.computeIfAbsent(query.type().name(), t -> newLatencyHistogram()).recordValue(micros);
    }
  }

  private void planRound()
  {
    final double now = loop.now();
    final double wall = now - lastRound;
    lastRound = now;
    final List<RoundObservation.NodeObservation> nodes = new ArrayList<>();
    for (Historical h : cluster.nodes()) {
      final Historical.RoundCounters c = h.takeRoundStats();
      if (now > scenario.warmupSeconds()) {
        busyCoreSecondsMeasured += c.busyCoreSeconds();
      }
      // The Broker extension polls every Historical's queue once per round.
      routing.onQueueReport(h.index(), (double) h.queuedTasks() / h.cores());
      nodes.add(new RoundObservation.NodeObservation(
          h.id(),
          memoryLimits.get(h.id()),
          new NodeRoundStats(c.cpuSeconds(), c.busyCoreSeconds() / h.cores(), wall, c.cpuSeconds())
      ));
    }
    final RoundObservation observation = new RoundObservation(
        cluster.takeSegmentRoundStats(),
        nodes,
        cluster.currentHolders()
    );
    final long start = System.nanoTime();
    final PlanningRound.Result result = adapter.plan(observation);
    planNanos += System.nanoTime() - start;
    plans++;
    if (now > scenario.warmupSeconds()) {
      recordTiers(now, result.observed());
    }
    final PlacementPlan plan = result.plan();
    cluster.applyPlan(plan, loadBudget(), scenario.planning().minReplicas());
    routing.onPlan(plan);
  }

  /** The tiers the nodes' measured CPU time puts them in (thesis Fig 4.3), for the heat map and the accuracy. */
  private void recordTiers(double now, PlanningRound.Observed observed)
  {
    final Map<String, Tier> natural = observed.measuredTiers();
    final Map<String, Tier> shown;
    if (!hardwareTiers.isEmpty()) {
      final Map<String, Tier> ranked = observed.measuredTiersByRank(hotCount, warmCount);
      measuredTiers.add(ranked);
      naturalTiers.add(natural);
      shown = ranked;
    } else {
      shown = natural;
    }
    final int[] row = new int[nodeIdsByCores.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = shown.get(nodeIdsByCores.get(i)).ordinal();
    }
    tierRows.add(row);
    roundTimes.add(now);
  }

  private void snapshotAccesses()
  {
    accessesAtWindowStart = new long[cluster.segments().size()];
    for (Segment s : cluster.segments()) {
      accessesAtWindowStart[s.index()] = s.accessesTotal();
    }
  }

  private void snapshotReplicas()
  {
    replicasAtEnd = new int[cluster.segments().size()];
    recentAccesses = new long[cluster.segments().size()];
    for (Segment s : cluster.segments()) {
      replicasAtEnd[s.index()] = s.loadedHolders().size();
      final long before = s.index() < accessesAtWindowStart.length ? accessesAtWindowStart[s.index()] : 0;
      recentAccesses[s.index()] = s.accessesTotal() - before;
    }
  }
}
