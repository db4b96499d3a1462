package org.getafix.simulator.routing;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.routing.ArrayCandidateView;
import org.getafix.core.routing.NodeFeedback;
import org.getafix.core.routing.RoutingCounters;
import org.getafix.core.routing.RoutingPolicies;
import org.getafix.core.routing.RoutingSettings;
import org.getafix.core.routing.RoutingTable;
import org.getafix.core.routing.RoutingTableHolder;
import org.getafix.simulator.cluster.RoutingPolicy;
import org.getafix.simulator.cluster.Segment;

import java.time.Duration;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * Routes with getafix-core's replica-choice policies ({@link RoutingPolicies}), the ones the Broker extension runs
 * under the same names and defaults: the simulator only shows them the loaded holders of a segment with the routing
 * broker's open requests to each, and, for the feedback policies, feeds each broker's {@link NodeFeedback} as the
 * extension does: every Historical's queue once per round, and the response time of every task the broker sent.
 */
public final class CoreRouting implements RoutingPolicy
{
  private final String name;
  /** One policy per broker (the same instance for all when the policy keeps no per-broker state). */
  private final org.getafix.core.routing.RoutingPolicy[] policies;
  /** Each broker's feedback; null for policies without feedback. */
  private final NodeFeedback[] feedback;
  private final List<String> nodeIds;
  private final RoutingTableHolder tables;
  private final DoubleSupplier nowSeconds;
  private final ArrayCandidateView view = new ArrayCandidateView();
  private long version;

  private CoreRouting(
      String name,
      org.getafix.core.routing.RoutingPolicy[] policies,
      NodeFeedback[] feedback,
      List<String> nodeIds,
      RoutingTableHolder tables,
      DoubleSupplier nowSeconds
  )
  {
    this.name = name;
    this.policies = policies;
    this.feedback = feedback;
    this.nodeIds = List.copyOf(nodeIds);
    this.tables = tables;
    this.nowSeconds = nowSeconds;
  }

  /**
   * The routing called {@code name} in {@link RoutingPolicies}, with the Broker's defaults except the table age.
   *
   * @param maxTableAgeSeconds how long ABR trusts a routing table without news from the Coordinator
   */
  public static CoreRouting named(
      String name,
      List<String> nodeIds,
      int brokers,
      RandomGenerator random,
      DoubleSupplier nowSeconds,
      double maxTableAgeSeconds
  )
  {
    final RoutingPolicies.Entry entry = RoutingPolicies.REGISTRY.get(name);
    final RoutingSettings settings =
        RoutingSettings.DEFAULTS.withMaxTableAge(Duration.ofNanos(nanos(maxTableAgeSeconds)));
    final LongSupplier nanoClock = () -> nanos(nowSeconds.getAsDouble());
    final RoutingTableHolder tables = entry.traits().routingTable() ? new RoutingTableHolder() : null;
    final RoutingCounters counters = new RoutingCounters();
    final org.getafix.core.routing.RoutingPolicy[] policies = new org.getafix.core.routing.RoutingPolicy[brokers];
    if (!entry.traits().perRouterState()) {
      java.util.Arrays.fill(
          policies,
          entry.create(new RoutingPolicies.Inputs(settings, tables, null, counters, nanoClock, random))
      );
      return new CoreRouting(name, policies, null, nodeIds, tables, nowSeconds);
    }
    final NodeFeedback[] feedback = new NodeFeedback[brokers];
    for (int b = 0; b < brokers; b++) {
      feedback[b] = new NodeFeedback();
      policies[b] = entry.create(new RoutingPolicies.Inputs(settings, tables, feedback[b], counters, nanoClock, random));
    }
    return new CoreRouting(name, policies, feedback, nodeIds, tables, nowSeconds);
  }

  /** LBR-CC: the holder with the fewest requests open from this broker, random tie-break. */
  public static CoreRouting leastConnections(List<String> nodeIds, int brokers, RandomGenerator random)
  {
    return named(RoutingPolicies.LBR, nodeIds, brokers, random, () -> 0, 1);
  }

  /**
   * ABR: draws a holder with the plan's shares; falls back to LBR-CC for a segment without a row, a drawn node
   * that does not hold the segment (yet), or a table older than {@code maxTableAgeSeconds}.
   */
  public static CoreRouting allocationBased(
      List<String> nodeIds,
      int brokers,
      RandomGenerator random,
      DoubleSupplier nowSeconds,
      double maxTableAgeSeconds
  )
  {
    return named(RoutingPolicies.ABR, nodeIds, brokers, random, nowSeconds, maxTableAgeSeconds);
  }

  private static long nanos(double seconds)
  {
    return Math.round(seconds * 1e9);
  }

  @Override
  public String name()
  {
    return name;
  }

  @Override
  public void onPlan(PlacementPlan plan)
  {
    if (tables != null) {
      final long now = nanos(nowSeconds.getAsDouble());
      tables.install(RoutingTable.fromPlan(version++, now / 1_000_000, plan), now);
    }
  }

  @Override
  public void onQueueReport(int node, double queuedPerCore)
  {
    if (feedback != null) {
      final long now = nanos(nowSeconds.getAsDouble());
      for (NodeFeedback f : feedback) {
        f.reportQueue(nodeIds.get(node), queuedPerCore, now);
      }
    }
  }

  @Override
  public void onResponse(int broker, int node, double responseSeconds)
  {
    if (feedback != null) {
      feedback[broker].recordLatency(nodeIds.get(node), responseSeconds * 1000, nanos(nowSeconds.getAsDouble()));
    }
  }

  @Override
  public int choose(int broker, Segment segment, BrokerView brokerView)
  {
    final IntArrayList holders = segment.loadedHolders();
    view.reset(segment.id());
    for (int i = 0; i < holders.size(); i++) {
      final int node = holders.getInt(i);
      view.add(nodeIds.get(node), brokerView.openRequests(broker, node));
    }
    return holders.getInt(policies[broker].pick(view));
  }
}
