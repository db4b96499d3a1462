package org.getafix.simulator.routing;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.core.placement.PlacementPlan;
import org.getafix.simulator.cluster.Segment;

import java.util.Map;
import java.util.random.RandomGenerator;
import java.util.function.ToIntFunction;

/**
 * ABR (thesis §3.3.1): weighted random choice over the plan's shares (the routing table), among holders that
 * have the replica loaded. Falls back to LBR-CC when no loaded holder has a share (a replica still loading, a
 * segment newer than the plan).
 */
public final class AllocationBasedRouting implements RoutingPolicy
{
  private final ToIntFunction<String> nodeIndex;
  private final ToIntFunction<String> segmentIndex;
  private final int nodeCount;
  private double[][] sharesBySegment = new double[0][];

  /**
   * @param nodeIndex    node id → node index, −1 if unknown
   * @param segmentIndex segment id → segment index, −1 if unknown
   * @param nodes        number of nodes (indices are 0 … nodes − 1)
   */
  public AllocationBasedRouting(ToIntFunction<String> nodeIndex, ToIntFunction<String> segmentIndex, int nodes)
  {
    this.nodeIndex = nodeIndex;
    this.segmentIndex = segmentIndex;
    this.nodeCount = nodes;
  }

  @Override
  public String name()
  {
    return "abr";
  }

  @Override
  public void onPlan(PlacementPlan plan)
  {
    int maxSegment = -1;
    for (String segmentId : plan.shares().keySet()) {
      maxSegment = Math.max(maxSegment, segmentIndex.applyAsInt(segmentId));
    }
    final double[][] table = new double[maxSegment + 1][];
    for (Map.Entry<String, Map<String, Double>> e : plan.shares().entrySet()) {
      final int segment = segmentIndex.applyAsInt(e.getKey());
      if (segment < 0) {
        continue;
      }
      final double[] shares = new double[nodeCount];
      for (Map.Entry<String, Double> s : e.getValue().entrySet()) {
        final int node = nodeIndex.applyAsInt(s.getKey());
        if (node >= 0) {
          shares[node] = s.getValue();
        }
      }
      table[segment] = shares;
    }
    sharesBySegment = table;
  }

  @Override
  public int choose(int broker, Segment segment, BrokerView view, RandomGenerator random)
  {
    final IntArrayList holders = segment.loadedHolders();
    final double[] shares = segment.index() < sharesBySegment.length ? sharesBySegment[segment.index()] : null;
    if (shares != null) {
      double total = 0;
      for (int i = 0; i < holders.size(); i++) {
        total += shares[holders.getInt(i)];
      }
      if (total > 0) {
        double u = random.nextDouble() * total;
        for (int i = 0; i < holders.size(); i++) {
          final int node = holders.getInt(i);
          u -= shares[node];
          if (u < 0 && shares[node] > 0) {
            return node;
          }
        }
        for (int i = holders.size() - 1; i >= 0; i--) {
          if (shares[holders.getInt(i)] > 0) {
            return holders.getInt(i);
          }
        }
      }
    }
    return LeastConnectionsRouting.leastOpen(broker, holders, view, random);
  }
}
