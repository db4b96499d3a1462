package org.getafix.broker.routing;

import com.google.inject.Binder;
import org.apache.druid.guice.LifecycleModule;
import org.apache.druid.guice.annotations.LoadScope;
import org.apache.druid.initialization.DruidModule;

/** Broker-only part of Getafix routing: the routing round that keeps the strategies' inputs fresh. */
@LoadScope(roles = "broker")
public class GetafixBrokerRoutingModule implements DruidModule
{
  @Override
  public void configure(Binder binder)
  {
    LifecycleModule.register(binder, BrokerRoutingRound.class);
  }
}
