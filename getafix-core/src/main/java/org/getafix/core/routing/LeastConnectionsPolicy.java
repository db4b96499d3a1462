package org.getafix.core.routing;

import java.util.random.RandomGenerator;

/**
 * LBR-CC (thesis §3.3.2, §4.5): the holder with the fewest requests outstanding from this router, which is Druid's
 * {@code connectionCount}. Ties are broken uniformly at random (as apache/druid#17764 does for Druid), so that idle
 * holders share a burst instead of one of them taking all of it.
 */
public final class LeastConnectionsPolicy implements RoutingPolicy
{
  public static final String NAME = "lbr";

  private final RandomGenerator random;

  public LeastConnectionsPolicy(RandomGenerator random)
  {
    this.random = random;
  }

  @Override
  public String name()
  {
    return NAME;
  }

  @Override
  public int pick(CandidateView candidates)
  {
    final int size = candidates.size();
    int best = -1;
    int bestLoad = Integer.MAX_VALUE;
    int ties = 0;
    for (int i = 0; i < size; i++) {
      final int load = candidates.inFlight(i);
      if (load < bestLoad) {
        best = i;
        bestLoad = load;
        ties = 1;
      } else if (load == bestLoad && random.nextInt(++ties) == 0) {
        // Reservoir sampling over the ties: each of the k tied holders ends up chosen with probability 1/k.
        best = i;
      }
    }
    return best;
  }
}
