package org.getafix.druid.historical;

import com.fasterxml.jackson.databind.Module;
import com.google.inject.Binder;
import org.apache.druid.guice.Jerseys;
import org.apache.druid.guice.LifecycleModule;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.guice.annotations.LoadScope;
import org.apache.druid.initialization.DruidModule;

import java.util.List;

/**
 * Historical side of Getafix: the stats endpoint. The collector and its emitter are bound in the unscoped
 * {@link org.getafix.druid.GetafixDruidModule}, so that a shared {@code druid.emitter.composing.emitters} list that
 * names {@value QueryStatsEmitter#TYPE} does not break the other roles.
 */
@LoadScope(roles = "historical")
public class GetafixHistoricalModule implements DruidModule
{
  @Override
  public List<? extends Module> getJacksonModules()
  {
    return List.of();
  }

  @Override
  public void configure(Binder binder)
  {
    Jerseys.addResource(binder, HistoricalStatsResource.class);
    binder.bind(StallMeter.class).in(ManageLifecycle.class);
    LifecycleModule.register(binder, StallMeter.class);
  }
}
