package org.getafix.core.routing;

import java.util.random.RandomGenerator;

/**
 * Any holder, uniformly: Druid's own {@code random} server selector strategy. The Broker keeps Druid's class; this
 * one lets the simulator and benchmarks compare against it under the same name.
 */
public final class UniformRandomPolicy implements RoutingPolicy
{
  private final RandomGenerator random;

  public UniformRandomPolicy(RandomGenerator random)
  {
    this.random = random;
  }

  @Override
  public int pick(CandidateView candidates)
  {
    return candidates.size() == 0 ? -1 : random.nextInt(candidates.size());
  }
}
