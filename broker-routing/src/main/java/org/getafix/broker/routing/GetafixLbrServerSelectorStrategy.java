package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import org.getafix.core.routing.LeastConnectionsPolicy;
import org.getafix.core.routing.RoutingRandom;

import java.util.random.RandomGenerator;

/**
 * {@code druid.broker.balancer.type=getafixLbr}: LBR-CC, the least open connections with random tie-breaking, with
 * Getafix metrics and an allocation-free pick (see {@link LeastConnectionsPolicy}).
 */
public class GetafixLbrServerSelectorStrategy extends GetafixServerSelectorStrategy
{
  public static final String TYPE = "getafixLbr";

  @JsonCreator
  public GetafixLbrServerSelectorStrategy(@JacksonInject BrokerRoutingState state)
  {
    this(state, RoutingRandom.threadLocal());
  }

  GetafixLbrServerSelectorStrategy(BrokerRoutingState state, RandomGenerator random)
  {
    super(new LeastConnectionsPolicy(random), state.counters());
  }

  @Override
  public boolean usesRoutingTable()
  {
    return false;
  }

  @Override
  public boolean usesQueueReports()
  {
    return false;
  }
}
