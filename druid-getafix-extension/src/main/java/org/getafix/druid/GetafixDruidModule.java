package org.getafix.druid;

import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.google.inject.Binder;
import com.google.inject.Provides;
import com.google.inject.name.Named;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.LazySingleton;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.java.util.emitter.core.Emitter;
import org.getafix.druid.coordinator.load.GetafixBalancerStrategyFactory;
import org.getafix.druid.coordinator.load.GetafixLoadRule;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.load.GetafixRunHandoff;
import org.getafix.druid.historical.HistoricalStatsConfig;
import org.getafix.druid.historical.QueryStatsCollector;
import org.getafix.druid.historical.QueryStatsEmitter;

import java.util.List;

/**
 * The part of Getafix every role loads. The {@code getafix} rule is deserialised wherever rules are (Coordinator,
 * Router, Broker, Overlord through the Coordinator client), so its Jackson type and what it injects
 * ({@link GetafixPlanHolder}, {@link GetafixRunHandoff}) must exist everywhere; the {@code getafix} emitter is bound
 * everywhere so that a shared {@code druid.emitter.composing.emitters} list naming it does not break a role. Both
 * are inert outside the Coordinator and Historicals.
 */
public class GetafixDruidModule implements DruidModule
{
  @Override
  public List<? extends Module> getJacksonModules()
  {
    return List.of(
        new SimpleModule("GetafixModule").registerSubtypes(
            new NamedType(GetafixLoadRule.class, GetafixLoadRule.TYPE),
            new NamedType(GetafixBalancerStrategyFactory.class, GetafixBalancerStrategyFactory.TYPE)
        ),
        new WireFormatModule()
    );
  }

  @Override
  public void configure(Binder binder)
  {
    binder.bind(GetafixPlanHolder.class).in(LazySingleton.class);
    binder.bind(GetafixRunHandoff.class).in(LazySingleton.class);
    JsonConfigProvider.bind(binder, "druid.getafix.stats", HistoricalStatsConfig.class);
  }

  @Provides
  @LazySingleton
  public QueryStatsCollector makeCollector(HistoricalStatsConfig config)
  {
    return new QueryStatsCollector(config.getIdleEvictionMillis());
  }

  @Provides
  @ManageLifecycle
  @Named(QueryStatsEmitter.TYPE)
  public Emitter makeEmitter(QueryStatsCollector collector)
  {
    return new QueryStatsEmitter(collector);
  }
}
