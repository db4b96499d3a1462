package org.getafix.simulator;

import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.getafix.core.realise.ChurnLimits;
import org.getafix.core.realise.RealisePolicy;
import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.Historical;
import org.getafix.simulator.cluster.RoutingPolicy;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.execution.ExecutionControl;
import org.getafix.simulator.redundancy.CoreRedundancy;
import org.getafix.simulator.report.RunOutcome;
import org.getafix.simulator.report.RunResult;
import org.getafix.simulator.routing.CoreRouting;
import org.getafix.simulator.settings.ScenarioSettings;
import org.getafix.simulator.strategy.CorePlacementAdapter;
import org.getafix.simulator.workload.SkewedLatestWorkload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One strategy on one scenario: builds the cluster, schedules the {@link Arrivals} and a {@link CoordinatorRound}
 * every round, runs the clock, and assembles the {@link RunMetrics} into a {@link RunOutcome}. Deterministic:
 * every random stream is split from the scenario seed in a fixed order, and the workload streams do not depend
 * on the strategy, so all runs of a scenario see the same queries.
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
  private final RunMetrics metrics;
  private final ExecutionControl execution;
  private final Arrivals arrivals;
  private final CoordinatorRound planning;
  /** Null when the scenario has no redundancy settings. */
  private final CoreRedundancy redundancy;

  public SimulationRun(ScenarioSettings scenario, ScenarioSettings.Run run, Consumer<String> progress)
  {
    this.scenario = scenario;
    this.run = run;
    this.progress = progress;
    final SplittableRandom root = new SplittableRandom(scenario.seed());
    final SplittableRandom clientRoot = root.split();
    final SplittableRandom segmentRandom = root.split();
    final SplittableRandom routingRandom = root.split();

    final List<Cluster.NodeSpec> specs = new ArrayList<>();
    final Map<String, Long> memoryLimits = new LinkedHashMap<>();
    for (ScenarioSettings.NodeGroup g : scenario.nodes()) {
      for (int i = 0; i < g.count(); i++) {
        final String id = g.name() + "-" + i;
        specs.add(new Cluster.NodeSpec(
            id,
            g.cores(),
            g.speed(),
            g.tier(),
            g.processingThreads()
        ));
        memoryLimits.put(id, g.memoryBytes());
      }
    }

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
        scenario.segments().loadCpuCores(),
        routing,
        scenario.warmupSeconds(),
        scenario.durationSeconds()
    );
    cluster.setQueryOverhead(scenario.workload().queryOverheadMillis() / 1000);
    for (ScenarioSettings.Straggler s : scenario.stragglers()) {
      cluster.nodes()[cluster.nodeIndex(s.node())].slowDown(s.fromSeconds(), s.speed());
    }
    for (ScenarioSettings.Interference g : scenario.interference()) {
      for (int j = 0; j < g.nodes().size(); j++) {
        cluster.nodes()[cluster.nodeIndex(g.nodes().get(j))].stallPeriodically(
            g.everySeconds(),
            g.stallSeconds(),
            j * g.everySeconds() / g.nodes().size(),
            g.speedFactor()
        );
      }
    }
    if (scenario.redundancy() != null) {
      this.redundancy = CoreRedundancy.named(
          run.redundancy(),
          loop,
          scenario.redundancy(),
          nodeIds,
          specs.stream().mapToInt(Cluster.NodeSpec::processingThreads).toArray(),
          root.split(),
          scenario.warmupSeconds(),
          scenario.durationSeconds()
      );
      cluster.setRedundancy(redundancy);
    } else {
      this.redundancy = null;
    }

    final ScenarioSettings.Planning p = scenario.planning();
    this.adapter = CorePlacementAdapter.create(
        run.strategy(),
        estimatorName(),
        p.popularityDecay(),
        p.popularityBiasCorrection(),
        p.popularityInheritance(),
        new PlacementConstraints(
            p.minReplicas(),
            p.maxReplicas(),
            gamma(),
            p.hotLoadShare(),
            p.hotMinNodeLoadShare(),
            run.backUpUnstable() != null ? run.backUpUnstable() : p.backUpUnstable(),
            run.minPlanGain() != null ? run.minPlanGain() : p.minPlanGain(),
            p.maxRebalanceDataPerHour()
        ),
        p.druidDefaultReplicas(),
        scenario.roundSeconds()
    );

    this.metrics = new RunMetrics(scenario.warmupSeconds(), scenario.durationSeconds(), specs);
    this.execution = run.execution() == null
                     ? null
                     : new ExecutionControl(
                         scenario.execution(),
                         run,
                         loop,
                         cluster,
                         metrics,
                         scenario.warmupSeconds(),
                         scenario.durationSeconds()
                     );
    this.arrivals = new Arrivals(
        scenario,
        run,
        execution,
        loop,
        cluster,
        new SkewedLatestWorkload(scenario.workload().recencyExponent(), scenario.workload().meanIntervalSegments()),
        clientRoot,
        segmentRandom
    );
    this.planning = new CoordinatorRound(
        loop,
        cluster,
        routing,
        adapter,
        memoryLimits,
        metrics,
        new RealisePolicy(p.minReplicas(), p.loadBeforeDrop()),
        churnLimits()
    );
  }

  private double gamma()
  {
    return run.gamma() != null ? run.gamma() : scenario.planning().gamma();
  }

  private String estimatorName()
  {
    return run.capacityEstimator() != null ? run.capacityEstimator() : scenario.planning().capacityEstimator();
  }

  public RunOutcome execute()
  {
    final long wallStart = System.nanoTime();
    arrivals.createInitialSegments();
    cluster.setQueryListener(execution != null ? execution : metrics);
    // Handoffs before rounds: events at the same instant run in the order they were scheduled, and a segment
    // handed off at the moment of a Coordinator run is assigned by that run's rules, whose load of an unavailable
    // segment Druid's load queue serves before the replicas the same run asks for (Historical.LOAD_ORDER).
    arrivals.schedule();
    final double round = scenario.roundSeconds();
    for (double t = round; t <= scenario.durationSeconds() + 1e-9; t += round) {
      loop.schedule(t, planning::run);
    }
    loop.schedule(scenario.warmupSeconds(), cluster::openMeasurementWindow);
    // Popularity for the replicas-vs-popularity plot: accesses over the last minute of injection, so that it
    // describes the same moment as the replicas held at the end.
    loop.schedule(
        Math.max(0, scenario.durationSeconds() - POPULARITY_WINDOW_SECONDS),
        () -> metrics.snapshotAccesses(cluster.segments())
    );
    final int steps = 10;
    for (int i = 1; i <= steps; i++) {
      loop.runUntil(scenario.durationSeconds() * i / steps);
      progress.accept(String.format(
          Locale.ROOT,
          "%s: %3d%% (simulated %.0f s, %,d events, %.1f s wall)",
          run.label(), i * 100 / steps, loop.now(), loop.processed(), (System.nanoTime() - wallStart) / 1e9
      ));
    }
    metrics.snapshotReplicas(cluster.segments());
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
        metrics.latency(),
        metrics.latencyByType(),
        metrics.makespanMs(),
        metrics.tieringAccuracy(),
        metrics.tieringAccuracyNaturalBreaks(),
        metrics.queries(),
        arrivals.tasks(),
        footprint.replicaLoads(),
        footprint.movedLoads(),
        footprint.movedDataPerHour(),
        metrics.meanUtilisation(totalCores, window),
        metrics.meanPlanMillis(),
        execution == null ? null : execution.result(),
        redundancy == null ? null : redundancy.result(metrics.shareOver(scenario.redundancy().sloMillis()))
    );
    return new RunOutcome(run.label(), result, metrics.trace(execution == null ? null : execution.trace()));
  }

  /**
   * Loads and drops a round may issue beyond those restoring the floor: {@code maxLoadsPerRound} and
   * {@code maxDropsPerRound} for the strategies the extension realises through its getafix rule, unthrottled for the
   * others ({@link PlacementStrategies.Entry#budgeted()}).
   */
  private ChurnLimits churnLimits()
  {
    final ScenarioSettings.Planning p = scenario.planning();
    return adapter.strategy().budgeted() ? new ChurnLimits(p.maxLoadsPerRound(), p.maxDropsPerRound())
                                         : ChurnLimits.UNLIMITED;
  }

  private boolean capacityAware()
  {
    return adapter.strategy().capacityAware();
  }
}
