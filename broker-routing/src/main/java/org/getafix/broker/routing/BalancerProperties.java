package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.getafix.core.routing.RoutingSettings;
import org.joda.time.Period;

import javax.annotation.Nullable;

/**
 * The Getafix knobs under {@code druid.broker.balancer.*}, next to {@code type}. Each policy reads only its own (see
 * {@link org.getafix.core.routing.RoutingPolicies}); an unset one takes the default of {@link RoutingSettings}, the
 * same the simulator uses.
 */
public class BalancerProperties
{
  static final String PREFIX = "druid.broker.balancer";

  @JsonProperty
  @Nullable
  private Period maxTableAge;

  @JsonProperty
  @Nullable
  private Period maxQueueAge;

  @JsonProperty
  @Nullable
  private Period statsFresh;

  @JsonProperty
  @Nullable
  private Period statsDecay;

  public BalancerProperties()
  {
  }

  BalancerProperties(
      @Nullable Period maxTableAge,
      @Nullable Period maxQueueAge,
      @Nullable Period statsFresh,
      @Nullable Period statsDecay
  )
  {
    this.maxTableAge = maxTableAge;
    this.maxQueueAge = maxQueueAge;
    this.statsFresh = statsFresh;
    this.statsDecay = statsDecay;
  }

  /** The settings in force, defaults filled in; fails on the first bad property, naming it and its value. */
  public RoutingSettings settings()
  {
    final RoutingSettings defaults = RoutingSettings.DEFAULTS;
    return new RoutingSettings(
        Periods.positive(PREFIX + ".maxTableAge", maxTableAge, defaults.maxTableAge()),
        Periods.positive(PREFIX + ".maxQueueAge", maxQueueAge, defaults.maxQueueAge()),
        Periods.nonNegative(PREFIX + ".statsFresh", statsFresh, defaults.statsFresh()),
        Periods.positive(PREFIX + ".statsDecay", statsDecay, defaults.statsDecay())
    );
  }
}
