package org.getafix.broker.routing;

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

import java.util.List;

/**
 * Registers the Getafix Broker selector strategies (for {@code druid.broker.balancer.type}), the routing state they
 * share and the {@value RoutingFeedbackEmitter#TYPE} emitter. Unscoped on purpose: a
 * {@code druid.emitter.composing.emitters} list shared by all roles may name the emitter, and must not fail on a role
 * that does not route. The Broker-only round is in {@link GetafixBrokerRoutingModule}.
 */
public class GetafixRoutingModule implements DruidModule
{
  @Override
  public List<? extends Module> getJacksonModules()
  {
    return List.of(
        new SimpleModule("GetafixBrokerRouting").registerSubtypes(
            new NamedType(GetafixAbrServerSelectorStrategy.class, GetafixAbrServerSelectorStrategy.TYPE),
            new NamedType(GetafixLbrServerSelectorStrategy.class, GetafixLbrServerSelectorStrategy.TYPE),
            new NamedType(GetafixLbrMlServerSelectorStrategy.class, GetafixLbrMlServerSelectorStrategy.TYPE),
            new NamedType(GetafixAdaptiveServerSelectorStrategy.class, GetafixAdaptiveServerSelectorStrategy.TYPE)
        )
    );
  }

  @Override
  public void configure(Binder binder)
  {
    JsonConfigProvider.bind(binder, BrokerRoutingConfig.PREFIX, BrokerRoutingConfig.class);
    binder.bind(BrokerRoutingState.class).in(LazySingleton.class);
  }

  @Provides
  @ManageLifecycle
  @Named(RoutingFeedbackEmitter.TYPE)
  public Emitter getRoutingFeedbackEmitter(BrokerRoutingState state, BrokerRoutingConfig config)
  {
    return new RoutingFeedbackEmitter(state.feedback(), config.getLatencyMetric());
  }
}
