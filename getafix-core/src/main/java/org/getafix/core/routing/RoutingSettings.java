package org.getafix.core.routing;

import java.time.Duration;

/**
 * The knobs of the routing policies, with the one set of defaults the Broker ({@code druid.broker.balancer.*}) and
 * the simulator share. Each policy reads only its own (see {@link RoutingPolicies}); the policies validate them.
 *
 * @param maxTableAge how long ABR trusts a routing table the Coordinator has not confirmed
 * @param maxQueueAge how long LBR-ML trusts a Historical's queue report
 * @param statsFresh  how long adaptive selection gives a statistic full weight
 * @param statsDecay  over how long an aging statistic then decays toward the other holders'
 */
public record RoutingSettings(Duration maxTableAge, Duration maxQueueAge, Duration statsFresh, Duration statsDecay)
{
  public static final RoutingSettings DEFAULTS = new RoutingSettings(
      Duration.ofSeconds(30),
      Duration.ofSeconds(15),
      Duration.ofSeconds(10),
      Duration.ofSeconds(20)
  );

  public RoutingSettings withMaxTableAge(Duration age)
  {
    return new RoutingSettings(age, maxQueueAge, statsFresh, statsDecay);
  }
}
