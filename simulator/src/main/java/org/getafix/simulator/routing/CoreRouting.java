package org.getafix.simulator.routing;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.core.routing.AdaptivePolicy;
import org.getafix.core.routing.AllocationBasedPolicy;
import org.getafix.core.routing.ArrayCandidateView;
import org.getafix.core.routing.LeastConnectionsPolicy;
import org.getafix.core.routing.LeastLoadPolicy;
import org.getafix.core.routing.NodeFeedback;
import org.getafix.core.routing.RoutingCounters;
import org.getafix.core.routing.RoutingTable;
import org.getafix.core.routing.RoutingTableHolder;
import org.getafix.simulator.cluster.RoutingPolicy;
import org.getafix.simulator.cluster.Segment;

import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;

/**
 * Routes with getafix-core's replica-choice policies, the ones the Broker extension runs: the simulator only
 * shows them the loaded holders of a segment with the routing broker's open requests to each, and, for the
 * feedback policies, feeds each broker's {@link NodeFeedback} as the extension does: every Historical's queue once
 * per round, and the response time of every task the broker sent.
 */
public final class CoreRouting implements RoutingPolicy
{
  /** Broker extension defaults (druid.broker.balancer.*): a queue report is trusted for 15 s. */
  private static final double MAX_QUEUE_AGE_SECONDS = 15;
  /** Adaptive statistics keep full weight for 10 s, then decay toward the peers' over 20 s. */
  private static final double STATS_FRESH_SECONDS = 10;
  private static final double STATS_DECAY_SECONDS = 20;

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
   * The routing called {@code name} in scenarios: lbr-cc, abr, lbr-ml, adaptive, or random.
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
    return switch (name) {
      case "lbr-cc" -> leastConnections(nodeIds, brokers, random);
      case "abr" -> allocationBased(nodeIds, brokers, random, nowSeconds, maxTableAgeSeconds);
      case "lbr-ml" -> withFeedback(
          name, nodeIds, brokers, nowSeconds,
          f -> new LeastLoadPolicy(f, nanos(MAX_QUEUE_AGE_SECONDS), () -> nanos(nowSeconds.getAsDouble()), random)
      );
      case "adaptive" -> withFeedback(
          name, nodeIds, brokers, nowSeconds,
          f -> new AdaptivePolicy(
              f,
              nanos(STATS_FRESH_SECONDS),
              nanos(STATS_DECAY_SECONDS),
              () -> nanos(nowSeconds.getAsDouble()),
              random
          )
      );
      case "random" -> new CoreRouting(
          name, shared(brokers, new UniformRandomPolicy(random)), null, nodeIds, null, nowSeconds
      );
      default -> throw new IllegalArgumentException("unknown routing [" + name + "]");
    };
  }

  /** LBR-CC: the holder with the fewest requests open from this broker, random tie-break. */
  public static CoreRouting leastConnections(List<String> nodeIds, int brokers, RandomGenerator random)
  {
    return new CoreRouting("lbr-cc", shared(brokers, new LeastConnectionsPolicy(random)), null, nodeIds, null, null);
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
    final RoutingTableHolder tables = new RoutingTableHolder();
    final AllocationBasedPolicy abr = new AllocationBasedPolicy(
        tables,
        new LeastConnectionsPolicy(random),
        nanos(maxTableAgeSeconds),
        () -> nanos(nowSeconds.getAsDouble()),
        random,
        new RoutingCounters()
    );
    return new CoreRouting("abr", shared(brokers, abr), null, nodeIds, tables, nowSeconds);
  }

  private static CoreRouting withFeedback(
      String name,
      List<String> nodeIds,
      int brokers,
      DoubleSupplier nowSeconds,
      java.util.function.Function<NodeFeedback, org.getafix.core.routing.RoutingPolicy> policyOf
  )
  {
    final NodeFeedback[] feedback = new NodeFeedback[brokers];
    final org.getafix.core.routing.RoutingPolicy[] policies = new org.getafix.core.routing.RoutingPolicy[brokers];
    for (int b = 0; b < brokers; b++) {
      feedback[b] = new NodeFeedback();
      policies[b] = policyOf.apply(feedback[b]);
    }
    return new CoreRouting(name, policies, feedback, nodeIds, null, nowSeconds);
  }

  private static org.getafix.core.routing.RoutingPolicy[] shared(
      int brokers,
      org.getafix.core.routing.RoutingPolicy policy
  )
  {
    final org.getafix.core.routing.RoutingPolicy[] policies = new org.getafix.core.routing.RoutingPolicy[brokers];
    java.util.Arrays.fill(policies, policy);
    return policies;
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

  /**
   * Druid's {@code random} server selector strategy: any holder, uniformly. getafix-core has no such policy (the
   * Broker keeps Druid's own), so the simulator carries this one-liner to compare against it.
   */
  private record UniformRandomPolicy(RandomGenerator random) implements org.getafix.core.routing.RoutingPolicy
  {
    @Override
    public String name()
    {
      return "random";
    }

    @Override
    public int pick(org.getafix.core.routing.CandidateView candidates)
    {
      return candidates.size() == 0 ? -1 : random.nextInt(candidates.size());
    }
  }
}
