package org.getafix.simulator;

import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.capacity.MeasuredRound;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.realise.ChurnLimits;
import org.getafix.core.realise.RealisePolicy;
import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.Historical;
import org.getafix.simulator.cluster.RoutingPolicy;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.strategy.CorePlacementAdapter;
import org.getafix.simulator.strategy.RoundObservation;

import java.util.ArrayList;
import java.util.HashMap;
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
  private final RealisePolicy realise;
  private final ChurnLimits churn;
  private double lastRound;

  /**
   * @param memoryLimits node id → memory limit given to the planner
   * @param realise      how the cluster realises each plan (floor, load-before-drop)
   * @param churn        loads and drops a round may issue beyond those restoring the floor
   */
  CoordinatorRound(
      EventLoop loop,
      Cluster cluster,
      RoutingPolicy routing,
      CorePlacementAdapter adapter,
      Map<String, Long> memoryLimits,
      RunMetrics metrics,
      RealisePolicy realise,
      ChurnLimits churn
  )
  {
    this.loop = loop;
    this.cluster = cluster;
    this.routing = routing;
    this.adapter = adapter;
    this.memoryLimits = Map.copyOf(memoryLimits);
    this.metrics = metrics;
    this.realise = realise;
    this.churn = churn;
  }

  void run()
  {
    final double now = loop.now();
    final double wall = now - lastRound;
    lastRound = now;
    final Historical[] historicals = cluster.nodes();
    final Map<String, MeasuredRound.NodeCounters> counters = new HashMap<>();
    final double[] busyCoreSeconds = new double[historicals.length];
    for (int i = 0; i < historicals.length; i++) {
      final Historical h = historicals[i];
      final Historical.RoundCounters c = h.takeRoundStats(wall);
      busyCoreSeconds[i] = c.busyCoreSeconds();
      counters.put(h.id(), c.measured());
      // The Broker extension polls every Historical's queue once per round.
      routing.onQueueReport(h.index(), (double) h.queuedTasks() / h.cores());
    }
    // The Coordinator sees each node through Druid's metrics, converted as the extension converts them.
    final MeasuredRound measured = MeasuredRound.of(counters);
    final List<RoundObservation.NodeObservation> nodes = new ArrayList<>();
    for (Historical h : historicals) {
      nodes.add(new RoundObservation.NodeObservation(
          h.id(),
          memoryLimits.get(h.id()),
          measured.nodeStats().get(h.id())
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
    cluster.applyPlan(plan, realise, churn.newRound());
    routing.onPlan(plan);
  }
}
