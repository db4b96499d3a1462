package org.getafix.simulator.routing;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.core.routing.AllocationBasedPolicy;
import org.getafix.core.routing.ArrayCandidateView;
import org.getafix.core.routing.LeastConnectionsPolicy;
import org.getafix.core.routing.RoutingCounters;
import org.getafix.core.routing.RoutingTable;
import org.getafix.core.routing.RoutingTableHolder;
import org.getafix.simulator.cluster.Segment;

import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;

/**
 * Routes with getafix-core's replica-choice policies, the ones the Broker extension runs: the simulator only
 * shows them the loaded holders of a segment with the routing broker's open requests to each.
 */
public final class CoreRouting implements RoutingPolicy
{
  private final String name;
  private final org.getafix.core.routing.RoutingPolicy policy;
  private final List<String> nodeIds;
  private final RoutingTableHolder tables;
  private final DoubleSupplier nowSeconds;
  private final ArrayCandidateView view = new ArrayCandidateView();
  private long version;

  private CoreRouting(
      String name,
      org.getafix.core.routing.RoutingPolicy policy,
      List<String> nodeIds,
      RoutingTableHolder tables,
      DoubleSupplier nowSeconds
  )
  {
    this.name = name;
    this.policy = policy;
    this.nodeIds = List.copyOf(nodeIds);
    this.tables = tables;
    this.nowSeconds = nowSeconds;
  }

  /** LBR-CC: the holder with the fewest requests open from this broker, random tie-break. */
  public static CoreRouting leastConnections(List<String> nodeIds, RandomGenerator random)
  {
    return new CoreRouting("lbr-cc", new LeastConnectionsPolicy(random), nodeIds, null, null);
  }

  /**
   * ABR: draws a holder with the plan's shares; falls back to LBR-CC for a segment without a row, a drawn node
   * that does not hold the segment (yet), or a table older than {@code maxTableAgeSeconds}.
   */
  public static CoreRouting allocationBased(
      List<String> nodeIds,
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
    return new CoreRouting("abr", abr, nodeIds, tables, nowSeconds);
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
  public int choose(int broker, Segment segment, BrokerView brokerView)
  {
    final IntArrayList holders = segment.loadedHolders();
    view.reset(segment.id());
    for (int i = 0; i < holders.size(); i++) {
      final int node = holders.getInt(i);
      view.add(nodeIds.get(node), brokerView.openRequests(broker, node));
    }
    return holders.getInt(policy.pick(view));
  }
}
