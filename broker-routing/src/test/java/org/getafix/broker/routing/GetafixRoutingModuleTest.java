package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.name.Names;
import org.apache.druid.client.selector.ServerSelectorStrategy;
import org.apache.druid.discovery.NodeRole;
import org.apache.druid.guice.DruidInjectorBuilder;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.DruidGuiceExtensions;
import org.apache.druid.guice.StartupInjectorBuilder;
import org.apache.druid.initialization.CoreInjectorBuilder;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.emitter.core.Emitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.getafix.core.routing.RoutingPolicies;
import org.joda.time.Period;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The modules in a Druid injector, configured by runtime properties the way a Broker is. */
class GetafixRoutingModuleTest
{
  @Test
  void brokerPropertiesSelectTheStrategyAndShareOneRoutingState()
  {
    final Properties properties = new Properties();
    properties.setProperty("druid.broker.balancer.type", "getafixAbr");
    properties.setProperty("druid.broker.balancer.maxTableAge", "PT12S");
    properties.setProperty("druid.getafix.routing.period", "PT2S");
    properties.setProperty("druid.getafix.routing.latencyMetric", "query/node/ttfb");
    final Injector startup = new StartupInjectorBuilder().withProperties(properties).forTests().build();
    final Injector injector = new CoreInjectorBuilder(startup, Set.of(NodeRole.BROKER))
        .withLifecycle()
        .addModule(new DruidGuiceExtensions())
        .addModule(new GetafixRoutingModule())
        // What CliBroker binds for druid.broker.balancer.
        .addModule(binder -> JsonConfigProvider.bind(binder, "druid.broker.balancer", ServerSelectorStrategy.class))
        .build();

    final ServerSelectorStrategy strategy = injector.getInstance(ServerSelectorStrategy.class);
    assertInstanceOf(GetafixServerSelectorStrategy.Abr.class, strategy);
    assertEquals(Duration.ofSeconds(12), ((GetafixServerSelectorStrategy) strategy).settings().maxTableAge());
    assertEquals(Period.seconds(2), injector.getInstance(BrokerRoutingConfig.class).getPeriod());

    final BrokerRoutingState state = injector.getInstance(BrokerRoutingState.class);
    assertSame(state, injector.getInstance(BrokerRoutingState.class));
    final Emitter feedbackEmitter = injector.getInstance(Key.get(Emitter.class, Names.named(RoutingFeedbackEmitter.TYPE)));
    feedbackEmitter.emit(ServiceMetricEvent.builder()
                                           .setDimension("server", "h1:8083")
                                           .setMetric("query/node/ttfb", 7)
                                           .build("druid/broker", "localhost"));
    assertEquals(7.0, state.feedback().get("h1:8083").latencyMillis(), 1e-9, "the emitter feeds the shared state");
  }

  @Test
  void everyGetafixPolicyIsABrokerTypeOfTheSameName() throws Exception
  {
    final ObjectMapper mapper = new DefaultObjectMapper();
    new GetafixRoutingModule().getJacksonModules().forEach(mapper::registerModule);
    mapper.setInjectableValues(
        new InjectableValues.Std().addValue(BrokerRoutingState.class, new BrokerRoutingState(BrokerRoutingConfig.defaults()))
    );
    for (RoutingPolicies.Entry entry : RoutingPolicies.REGISTRY.entries()) {
      final ServerSelectorStrategy strategy =
          mapper.readValue("{\"type\": \"" + entry.name() + "\"}", ServerSelectorStrategy.class);
      if (entry.traits().druidBuiltIn()) {
        assertFalse(strategy instanceof GetafixServerSelectorStrategy, entry.name() + " stays Druid's own");
      } else {
        assertEquals(entry.name(), ((GetafixServerSelectorStrategy) strategy).policyName());
        assertEquals(entry.traits().routingTable(), ((GetafixServerSelectorStrategy) strategy).usesRoutingTable());
        assertEquals(entry.traits().queueReports(), ((GetafixServerSelectorStrategy) strategy).usesQueueReports());
      }
    }
  }

  @Test
  void theRoutingRoundLoadsOnBrokersOnly()
  {
    final Injector startup = new StartupInjectorBuilder().withEmptyProperties().forTests().build();
    assertTrue(hasRoundModule(new DruidInjectorBuilder(startup, Set.of(NodeRole.BROKER))));
    assertFalse(hasRoundModule(new DruidInjectorBuilder(startup, Set.of(NodeRole.HISTORICAL))));
  }

  private static boolean hasRoundModule(DruidInjectorBuilder builder)
  {
    return builder.addModule(new GetafixBrokerRoutingModule())
                  .modules()
                  .stream()
                  .anyMatch(GetafixBrokerRoutingModule.class::isInstance);
  }
}
