package org.getafix.simulator;

import org.getafix.core.placement.NodeRoundStats;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.core.placement.PlanningRound;
import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.Historical;
import org.getafix.simulator.cluster.RoutingPolicy;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.strategy.CorePlacementAdapter;
import org.getafix.simulator.strategy.RoundObservation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The end of a round, as the extension runs it: the Broker polls every Historical's queue, the Coordinator reads
 * the round's statistics, plans with the run's strategy, and the plan is realised within the churn budget and
 * published to the Brokers. The planning itself is getafix-core's {@link PlanningRound}, the one the Coordinator
 * runs.
 */
final class CoordinatorRound
{
  private final EventLoop loop;
  private final Cluster cluster;
  private final RoutingPolicy routing;
  private final CorePlacementAdapter adapter;
  private final Map<String, Long> memoryLimits;
  private final RunMetrics metrics;
  private final int loadBudget;
  private final int minReplicas;
  private double lastRound;

  /**
   * @param memoryLimits node id → memory limit given to the planner
   * @param loadBudget   loads a round may issue beyond the replica floor
   *                     ({@link Cluster#applyPlan(PlacementPlan, int, int)})
   */
  CoordinatorRound(
      EventLoop loop,
      Cluster cluster,
      RoutingPolicy routing,
      CorePlacementAdapter adapter,
      Map<String, Long> memoryLimits,
      RunMetrics metrics,
      int loadBudget,
      int minReplicas
  )
  {
    this.loop = loop;
    this.cluster = cluster;
    this.routing = routing;
    this.adapter = adapter;
    this.memoryLimits = Map.copyOf(memoryLimits);
    this.metrics = metrics;
    this.loadBudget = loadBudget;
    this.minReplicas = minReplicas;
  }

  void run()
  {
    final double now = loop.now();
    final double wall = now - lastRound;
    lastRound = now;
    final Historical[] historicals = cluster.nodes();
    final List<RoundObservation.NodeObservation> nodes = new ArrayList<>();
    final double[] busyCoreSeconds = new double[historicals.length];
    for (int i = 0; i < historicals.length; i++) {
      final Historical h = historicals[i];
      final Historical.RoundCounters c = h.takeRoundStats();
      busyCoreSeconds[i] = c.busyCoreSeconds();
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
    metrics.recordPlanNanos(System.nanoTime() - start);
    metrics.recordRound(now, result.observed(), busyCoreSeconds);
    final PlacementPlan plan = result.plan();
    cluster.applyPlan(plan, loadBudget, minReplicas);
    routing.onPlan(plan);
  }
}
