package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.routing.LeastLoadPolicy;
import org.getafix.core.routing.RoutingRandom;
import org.joda.time.Period;

import javax.annotation.Nullable;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * {@code druid.broker.balancer.type=getafixLbrMl}: LBR-CC+ML, open connections plus the queue each Historical
 * reported in the last rounds (see {@link LeastLoadPolicy}).
 */
public class GetafixLbrMlServerSelectorStrategy extends GetafixServerSelectorStrategy
{
  public static final String TYPE = "getafixLbrMl";
  static final Period DEFAULT_MAX_QUEUE_AGE = Period.seconds(15);

  private final Period maxQueueAge;

  @JsonCreator
  public GetafixLbrMlServerSelectorStrategy(
      @JacksonInject BrokerRoutingState state,
      @JsonProperty("maxQueueAge") @Nullable Period maxQueueAge
  )
  {
    this(state, maxQueueAge, System::nanoTime, RoutingRandom.threadLocal());
  }

  GetafixLbrMlServerSelectorStrategy(
      BrokerRoutingState state,
      @Nullable Period maxQueueAge,
      LongSupplier nanoClock,
      RandomGenerator random
  )
  {
    super(
        new LeastLoadPolicy(
            state.feedback(),
            Periods.positiveNanos("druid.broker.balancer.maxQueueAge", maxQueueAge, DEFAULT_MAX_QUEUE_AGE),
            nanoClock,
            random
        ),
        state.counters()
    );
    this.maxQueueAge = maxQueueAge == null ? DEFAULT_MAX_QUEUE_AGE : maxQueueAge;
  }

  @JsonProperty
  public Period getMaxQueueAge()
  {
    return maxQueueAge;
  }

  @Override
  public boolean usesRoutingTable()
  {
    return false;
  }

  @Override
  public boolean usesQueueReports()
  {
    return true;
  }
}
