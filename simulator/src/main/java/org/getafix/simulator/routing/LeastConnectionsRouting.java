package org.getafix.simulator.routing;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.simulator.cluster.Segment;

import java.util.random.RandomGenerator;

/**
 * LBR-CC (thesis §3.3.2, §4.5; Druid's connectionCount): the replica holder with the fewest requests open from
 * this broker, ties broken at random.
 */
public final class LeastConnectionsRouting implements RoutingPolicy
{
  @Override
  public String name()
  {
    return "lbr-cc";
  }

  @Override
  public int choose(int broker, Segment segment, BrokerView view, RandomGenerator random)
  {
    return leastOpen(broker, segment.loadedHolders(), view, random);
  }

  static int leastOpen(int broker, IntArrayList holders, BrokerView view, RandomGenerator random)
  {
    int best = -1;
    int bestOpen = Integer.MAX_VALUE;
    int ties = 0;
    for (int i = 0; i < holders.size(); i++) {
      final int node = holders.getInt(i);
      final int open = view.openRequests(broker, node);
      if (open < bestOpen) {
        best = node;
        bestOpen = open;
        ties = 1;
      } else if (open == bestOpen && random.nextInt(++ties) == 0) {
        // Reservoir choice: each of the tied holders wins with probability 1/ties.
        best = node;
      }
    }
    return best;
  }
}
