package org.getafix.druid;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.google.inject.Binder;
import com.google.inject.Inject;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.name.Named;
import com.google.inject.name.Names;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.LazySingleton;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.emitter.core.Emitter;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.load.GetafixBalancerStrategyFactory;
import org.getafix.druid.coordinator.load.GetafixLoadRule;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.load.GetafixRunHandoff;
import org.getafix.druid.historical.HistoricalStatsConfig;
import org.getafix.druid.historical.QueryStatsCollector;
import org.getafix.druid.historical.QueryStatsEmitter;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Properties;

/**
 * The part of Getafix every role loads. The {@code getafix} rule is deserialised wherever rules are (Coordinator,
 * Router, Broker, Overlord through the Coordinator client), so its Jackson type and what it injects
 * ({@link GetafixPlanHolder}, {@link GetafixRunHandoff}) must exist everywhere; the {@code getafix} emitter is bound
 * everywhere so that a shared {@code druid.emitter.composing.emitters} list naming it does not break a role. Both
 * are inert outside the Coordinator and Historicals.
 */
public class GetafixDruidModule implements DruidModule
{
  /** The name {@code druid.extensions.loadList} knows this extension by. */
  static final String EXTENSION = "druid-getafix-extension";
  private static final Logger log = new Logger(GetafixDruidModule.class);
  /** The {@link HistoricalStatsConfig} as Druid's JsonConfigurator binds it, before it is validated. */
  private static final String STATS_AS_BOUND = "getafix.stats.asBound";

  /**
   * Warns, once at startup, of each {@code druid.getafix.*} runtime property this extension owns but does not read,
   * which Druid would otherwise ignore silently. Druid injects an extension's modules from its startup injector, which
   * holds the runtime properties, once, before it configures them.
   */
  @Inject
  public void warnOfUnknownProperties(Properties properties)
  {
    for (OwnedProperties.Unknown unknown : ownedProperties().unknown(properties.stringPropertyNames())) {
      log.warn("%s", unknown.message(EXTENSION));
    }
  }

  /**
   * The Coordinator's and the Historicals' {@code druid.getafix.*}: all of it but the Brokers' routing and quality
   * properties, which the Broker extensions own and check.
   */
  public static OwnedProperties ownedProperties()
  {
    return OwnedProperties.under(OwnedProperties.ROOT, List.of(OwnedProperties.ROUTING, OwnedProperties.QUALITY))
                          .withConfig(GetafixConfig.PREFIX, GetafixConfig.class, GetafixDruidModule::jsonProperty)
                          .withConfig(
                              HistoricalStatsConfig.PREFIX,
                              HistoricalStatsConfig.class,
                              GetafixDruidModule::jsonProperty
                          );
  }

  /** The property a field binds, as Druid's JsonConfigurator reads it: field-annotated config classes only. */
  private static String jsonProperty(Field field)
  {
    final JsonProperty property = field.getAnnotation(JsonProperty.class);
    return property == null ? null : property.value().isEmpty() ? field.getName() : property.value();
  }

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
    JsonConfigProvider.bind(binder, HistoricalStatsConfig.PREFIX, HistoricalStatsConfig.class, Names.named(STATS_AS_BOUND));
  }

  /** Bound and validated once, here, so that a bad property stops the node at start, naming it in the log. */
  @Provides
  @LazySingleton
  public HistoricalStatsConfig historicalStatsConfig(@Named(STATS_AS_BOUND) Provider<HistoricalStatsConfig> asBound)
  {
    return StartupConfigs.validated(
        asBound,
        HistoricalStatsConfig::validate,
        log,
        "Invalid Getafix statistics configuration, the node stops"
    );
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
