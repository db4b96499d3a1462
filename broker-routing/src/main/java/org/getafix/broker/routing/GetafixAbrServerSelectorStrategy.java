package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.routing.AllocationBasedPolicy;
import org.getafix.core.routing.LeastConnectionsPolicy;
import org.getafix.core.routing.RoutingRandom;
import org.joda.time.Period;

import javax.annotation.Nullable;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * {@code druid.broker.balancer.type=getafixAbr}: allocation-based routing by the Coordinator's routing table,
 * falling back to least connections when the table cannot be trusted (see {@link AllocationBasedPolicy}).
 */
public class GetafixAbrServerSelectorStrategy extends GetafixServerSelectorStrategy
{
  public static final String TYPE = "getafixAbr";
  static final Period DEFAULT_MAX_TABLE_AGE = Period.seconds(30);

  private final Period maxTableAge;

  @JsonCreator
  public GetafixAbrServerSelectorStrategy(
      @JacksonInject BrokerRoutingState state,
      @JsonProperty("maxTableAge") @Nullable Period maxTableAge
  )
  {
    this(state, maxTableAge, System::nanoTime, RoutingRandom.threadLocal());
  }

  GetafixAbrServerSelectorStrategy(
      BrokerRoutingState state,
      @Nullable Period maxTableAge,
      LongSupplier nanoClock,
      RandomGenerator random
  )
  {
    super(
        new AllocationBasedPolicy(
            state.tables(),
            new LeastConnectionsPolicy(random),
            Periods.positiveNanos("druid.broker.balancer.maxTableAge", maxTableAge, DEFAULT_MAX_TABLE_AGE),
            nanoClock,
            random,
            state.counters()
        ),
        state.counters()
    );
    this.maxTableAge = maxTableAge == null ? DEFAULT_MAX_TABLE_AGE : maxTableAge;
  }

  @JsonProperty
  public Period getMaxTableAge()
  {
    return maxTableAge;
  }

  @Override
  public boolean usesRoutingTable()
  {
    return true;
  }

  @Override
  public boolean usesQueueReports()
  {
    return false;
  }
}
