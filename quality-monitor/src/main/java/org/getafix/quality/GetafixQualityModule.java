package org.getafix.quality;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.Module;
import com.google.inject.Binder;
import com.google.inject.Inject;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.ProvisionException;
import com.google.inject.name.Named;
import com.google.inject.multibindings.Multibinder;
import com.google.inject.name.Names;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.guice.Jerseys;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.LazySingleton;
import org.apache.druid.guice.LifecycleModule;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.guice.annotations.LoadScope;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.query.QuerySegmentWalker;
import org.apache.druid.server.ClientQuerySegmentWalker;
import org.apache.druid.server.initialization.jetty.ServletFilterHolder;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.core.quality.control.DeadlineReserve;
import org.getafix.core.redundancy.HedgePolicy;
import org.getafix.core.redundancy.NodeLatencies;
import org.getafix.core.redundancy.RaceLosses;
import org.getafix.core.redundancy.UpfrontRedundancy;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Properties;
import java.util.Random;

/**
 * Budgeted queries on the Broker. Druid applies extension modules over its own with {@code Modules.override}, so
 * these bindings replace the two that {@code CliBroker} makes: the per-Historical client factory and the query
 * segment walker. Adds the budgeted queries' concerns (metrics, budget control, admission, mature runs and their
 * replays, quality profiles; these three are lifecycle-managed: their threads stop with the Broker, and the profiles
 * are read back from their file at start and saved at stop), hedged sub-queries (off by default), their endpoint, and
 * the {@link RequestClock} on the query paths, from which budgets and response times count.
 */
@LoadScope(roles = "broker")
public class GetafixQualityModule implements DruidModule
{
  /** The {@link QualityConfig} as Druid's JsonConfigurator binds it, before {@link #qualityConfig} validates it. */
  private static final String AS_BOUND = "getafix.quality.asBound";
  private static final Logger log = new Logger(GetafixQualityModule.class);
  /** The name {@code druid.extensions.loadList} knows this extension by. */
  static final String EXTENSION = "getafix-quality-monitor";

  /**
   * Warns, once at startup, of each {@code druid.getafix.quality.*} runtime property this extension does not read,
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

  public static OwnedProperties ownedProperties()
  {
    return OwnedProperties.under(QualityConfig.PREFIX, List.of())
                          .withConfig(QualityConfig.PREFIX, QualityConfig.class, GetafixQualityModule::jsonProperty);
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
    return List.of(new QualityJsonModule());
  }

  @Override
  public void configure(Binder binder)
  {
    CoverageKey.register();
    JsonConfigProvider.bind(binder, QualityConfig.PREFIX, QualityConfig.class, Names.named(AS_BOUND));
    binder.bind(QualityMetrics.class).in(LazySingleton.class);
    binder.bind(MatureRuns.class).in(ManageLifecycle.class);
    binder.bind(Replays.class).in(ManageLifecycle.class);
    binder.bind(BudgetControl.class).in(LazySingleton.class);
    binder.bind(BudgetSplit.class).in(LazySingleton.class);
    binder.bind(Admission.class).in(LazySingleton.class);
    binder.bind(QualityProfiles.class).in(ManageLifecycle.class);
    // Started with the Broker, so that the saved profiles are read back before any query arrives.
    LifecycleModule.register(binder, QualityProfiles.class);
    binder.bind(RecentCoverage.class).in(LazySingleton.class);
    binder.bind(BudgetedQueries.class).in(LazySingleton.class);
    binder.bind(Hedging.Holders.class).to(Hedging.ServerViewHolders.class).in(LazySingleton.class);
    binder.bind(Hedging.class).in(LazySingleton.class);
    Jerseys.addResource(binder, QualityResource.class);
    binder.bind(QueryableDruidServer.Maker.class).to(BudgetedDruidClientFactory.class).in(LazySingleton.class);
    binder.bind(QuerySegmentWalker.class).to(BudgetedQuerySegmentWalker.class).in(LazySingleton.class);
    // One Druid walker, which budgeted queries wrap and replays run through; Druid binds only the interface to it.
    binder.bind(ClientQuerySegmentWalker.class).in(LazySingleton.class);
    binder.bind(RequestClock.class).in(LazySingleton.class);
    Multibinder.newSetBinder(binder, ServletFilterHolder.class).addBinding().to(RequestClock.Holder.class);
  }

  /** The Broker's recent latency of each server it sends sub-queries to; fed only while hedging is on. */
  @Provides
  @LazySingleton
  public NodeLatencies nodeLatencies()
  {
    return new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, System::nanoTime);
  }

  /** What the Broker's budgeted queries keep of their budgets for merging and sending their answers. */
  @Provides
  @LazySingleton
  public DeadlineReserve deadlineReserve(QualityConfig config)
  {
    return new DeadlineReserve(config.getDeadlineReserveMaxShare());
  }

  /** The copies sent up front, over the same latencies and lost races as the hedges. */
  @Provides
  @LazySingleton
  public UpfrontRedundancy upfrontRedundancy(QualityConfig config, NodeLatencies latencies, RaceLosses raceLosses)
  {
    return new UpfrontRedundancy(config.redundancySettings(), latencies, raceLosses, new Random());
  }

  /** Each Historical's recent share of lost sub-queries, recorded beside its latencies. */
  @Provides
  @LazySingleton
  public RaceLosses raceLosses()
  {
    return new RaceLosses(new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, System::nanoTime), RaceLosses.MIN_SAMPLES);
  }

  @Provides
  @LazySingleton
  public HedgePolicy hedgePolicy(QualityConfig config, NodeLatencies latencies, RaceLosses raceLosses)
  {
    return new HedgePolicy(config.hedgeSettings(), latencies, raceLosses);
  }

  /**
   * Bound and validated once, here, so that a bad property stops the Broker at start, naming it, before anything reads
   * it. The reason is logged before the failure reaches Guice: Druid 33's Guice formats a provisioning error by
   * reading the classes involved, which fails on Java 17 class files and would leave the log without it. That holds
   * for a value Jackson cannot bind (a word where a number goes) as for one out of bounds.
   */
  @Provides
  @LazySingleton
  public QualityConfig qualityConfig(@Named(AS_BOUND) Provider<QualityConfig> asBound)
  {
    try {
      return asBound.get().validate();
    }
    catch (ProvisionException e) {
      e.getErrorMessages().forEach(
          message -> log.error("Invalid quality-monitor configuration, the Broker stops: %s", message.getMessage())
      );
      throw e;
    }
    catch (RuntimeException e) {
      log.error("Invalid quality-monitor configuration, the Broker stops: %s", e.getMessage());
      throw e;
    }
  }

}
