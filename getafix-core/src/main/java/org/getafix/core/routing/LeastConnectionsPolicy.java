package org.getafix.core.routing;

import java.util.random.RandomGenerator;

/**
 * LBR-CC (thesis §3.3.2, §4.5): the holder with the fewest requests outstanding from this router, which is Druid's
 * {@code connectionCount}, ties at random (see {@link LeastScore}).
 */
public final class LeastConnectionsPolicy implements RoutingPolicy
{
  private static final LeastScore.NodeScore OPEN_REQUESTS = (candidates, i, now) -> candidates.inFlight(i);

  private final RandomGenerator random;

  public LeastConnectionsPolicy(RandomGenerator random)
  {
    this.random = random;
  }

  @Override
  public int pick(CandidateView candidates)
  {
    return LeastScore.pick(candidates, OPEN_REQUESTS, 0, random);
  }
}
