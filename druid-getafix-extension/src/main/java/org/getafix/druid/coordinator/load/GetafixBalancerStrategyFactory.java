package org.getafix.druid.coordinator.load;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.druid.server.coordinator.balancer.BalancerStrategy;
import org.apache.druid.server.coordinator.balancer.BalancerStrategyFactory;
import org.apache.druid.server.coordinator.balancer.CostBalancerStrategy;
import org.apache.druid.server.coordinator.balancer.DiskNormalizedCostBalancerStrategy;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;

import javax.annotation.Nullable;

/**
 * {@code druid.coordinator.balancer.strategy=getafix}. Druid calls {@link #createBalancerStrategy} at the start of
 * every Coordinator run; that is where the run's {@link CoordinatorRun} (plan snapshot, churn budget)
 * is opened and handed to the rule through {@link GetafixRunHandoff}.
 * Unplanned decisions go to Druid's {@code cost} strategy, or {@code diskNormalized} with
 * {@code druid.coordinator.balancer.fallback=diskNormalized}.
 */
public class GetafixBalancerStrategyFactory extends BalancerStrategyFactory
{
  public static final String TYPE = "getafix";

  private final String fallback;
  private final GetafixPlanHolder holder;
  private final GetafixRunHandoff handoff;

  @JsonCreator
  public GetafixBalancerStrategyFactory(
      @JsonProperty("fallback") @Nullable String fallback,
      @JacksonInject GetafixPlanHolder holder,
      @JacksonInject GetafixRunHandoff handoff
  )
  {
    this.fallback = fallback == null ? "cost" : fallback;
    if (!"cost".equals(this.fallback) && !"diskNormalized".equals(this.fallback)) {
      throw new IllegalArgumentException(
          "druid.coordinator.balancer.fallback must be [cost] or [diskNormalized], got [" + fallback + "]"
      );
    }
    this.holder = holder;
    this.handoff = handoff;
    handoff.markStrategyInstalled();
  }

  @JsonProperty
  public String getFallback()
  {
    return fallback;
  }

  @Override
  public BalancerStrategy createBalancerStrategy(int numBalancerThreads)
  {
    final BalancerStrategy delegate = "diskNormalized".equals(fallback)
        ? new DiskNormalizedCostBalancerStrategy(getOrCreateBalancerExecutor(numBalancerThreads))
        : new CostBalancerStrategy(getOrCreateBalancerExecutor(numBalancerThreads));
    final CoordinatorRun run = CoordinatorRun.of(holder.snapshot());
    handoff.beginRun(run);
    return new GetafixBalancerStrategy(run, handoff, delegate);
  }
}
