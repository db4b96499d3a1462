package org.getafix.druid.coordinator;

import com.fasterxml.jackson.databind.Module;
import com.google.inject.Binder;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.name.Named;
import com.google.inject.name.Names;
import org.apache.druid.guice.Jerseys;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.LazySingleton;
import org.apache.druid.guice.LifecycleModule;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.guice.annotations.LoadScope;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.java.util.common.logger.Logger;
import org.getafix.druid.StartupConfigs;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.http.GetafixDynamicConfigResource;
import org.getafix.druid.coordinator.http.GetafixStatusResource;
import org.getafix.druid.coordinator.load.RealiseMonitor;
import org.getafix.druid.coordinator.plan.PlanPublisher;
import org.getafix.druid.coordinator.stats.RoundReader;
import org.getafix.druid.coordinator.stats.StatsPuller;
import org.getafix.druid.coordinator.stats.StatsSource;

import java.util.List;

/**
 * Coordinator side of Getafix: {@code druid.getafix.*} properties, the planning round, and the HTTP resources. The
 * rule and strategy types are registered in the unscoped {@link org.getafix.druid.GetafixDruidModule}.
 */
@LoadScope(roles = "coordinator")
public class GetafixCoordinatorModule implements DruidModule
{
  private static final Logger log = new Logger(GetafixCoordinatorModule.class);
  /** The {@link GetafixConfig} as Druid's JsonConfigurator binds it, before {@link #getafixConfig} validates it. */
  private static final String AS_BOUND = "getafix.asBound";

  @Override
  public List<? extends Module> getJacksonModules()
  {
    return List.of();
  }

  @Override
  public void configure(Binder binder)
  {
    JsonConfigProvider.bind(binder, GetafixConfig.PREFIX, GetafixConfig.class, Names.named(AS_BOUND));
    binder.bind(StatsSource.class).to(StatsPuller.class);
    binder.bind(RoundReader.class);
    binder.bind(PlanPublisher.class);
    binder.bind(RealiseMonitor.class);
    binder.bind(GetafixPlanner.class).in(ManageLifecycle.class);
    LifecycleModule.register(binder, GetafixPlanner.class);
    Jerseys.addResource(binder, GetafixDynamicConfigResource.class);
    Jerseys.addResource(binder, GetafixStatusResource.class);
  }

  /** Bound and validated once, here, so that a bad property stops the Coordinator at start, naming it in the log. */
  @Provides
  @LazySingleton
  public GetafixConfig getafixConfig(@Named(AS_BOUND) Provider<GetafixConfig> asBound)
  {
    return StartupConfigs.validated(
        asBound,
        GetafixConfig::validate,
        log,
        "Invalid Getafix configuration, the Coordinator stops"
    );
  }
}
