package org.getafix.quality;

import com.google.inject.Binder;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.guice.Jerseys;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.LazySingleton;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.guice.annotations.LoadScope;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.query.QuerySegmentWalker;

/**
 * Budgeted queries on the Broker. Druid applies extension modules over its own with {@code Modules.override}, so
 * these bindings replace the two that {@code CliBroker} makes: the per-Historical client factory and the query
 * segment walker. Adds the mature runs (lifecycle-managed: their threads stop with the Broker) and their endpoint.
 */
@LoadScope(roles = "broker")
public class GetafixQualityModule implements DruidModule
{
  @Override
  public void configure(Binder binder)
  {
    CoverageKey.register();
    JsonConfigProvider.bind(binder, QualityConfig.PREFIX, QualityConfig.class);
    binder.bind(MatureRuns.class).in(ManageLifecycle.class);
    binder.bind(BudgetControl.class).in(LazySingleton.class);
    binder.bind(Admission.class).in(LazySingleton.class);
    Jerseys.addResource(binder, QualityResource.class);
    binder.bind(QueryableDruidServer.Maker.class).to(BudgetedDruidClientFactory.class).in(LazySingleton.class);
    binder.bind(QuerySegmentWalker.class).to(BudgetedQuerySegmentWalker.class).in(LazySingleton.class);
  }
}
