package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.routing.AdaptivePolicy;
import org.getafix.core.routing.RoutingRandom;
import org.joda.time.Period;

import javax.annotation.Nullable;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * {@code druid.broker.balancer.type=getafixAdaptive}: C3-style ranking by latency EWMA, open connections and the
 * Historicals' reported queues, with stale statistics decaying toward the other holders' (see
 * {@link AdaptivePolicy}).
 */
public class GetafixAdaptiveServerSelectorStrategy extends GetafixServerSelectorStrategy
{
  public static final String TYPE = "getafixAdaptive";
  static final Period DEFAULT_STATS_FRESH = Period.seconds(10);
  static final Period DEFAULT_STATS_DECAY = Period.seconds(20);

  private final Period statsFresh;
  private final Period statsDecay;

  @JsonCreator
  public GetafixAdaptiveServerSelectorStrategy(
      @JacksonInject BrokerRoutingState state,
      @JsonProperty("statsFresh") @Nullable Period statsFresh,
      @JsonProperty("statsDecay") @Nullable Period statsDecay
  )
  {
    this(state, statsFresh, statsDecay, System::nanoTime, RoutingRandom.threadLocal());
  }

  GetafixAdaptiveServerSelectorStrategy(
      BrokerRoutingState state,
      @Nullable Period statsFresh,
      @Nullable Period statsDecay,
      LongSupplier nanoClock,
      RandomGenerator random
  )
  {
    super(
        new AdaptivePolicy(
            state.feedback(),
            Periods.nonNegativeNanos("druid.broker.balancer.statsFresh", statsFresh, DEFAULT_STATS_FRESH),
            Periods.positiveNanos("druid.broker.balancer.statsDecay", statsDecay, DEFAULT_STATS_DECAY),
            nanoClock,
            random
        ),
        state.counters()
    );
    this.statsFresh = statsFresh == null ? DEFAULT_STATS_FRESH : statsFresh;
    this.statsDecay = statsDecay == null ? DEFAULT_STATS_DECAY : statsDecay;
  }

  @JsonProperty
  public Period getStatsFresh()
  {
    return statsFresh;
  }

  @JsonProperty
  public Period getStatsDecay()
  {
    return statsDecay;
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
