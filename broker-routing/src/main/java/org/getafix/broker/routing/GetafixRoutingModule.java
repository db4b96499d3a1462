package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.google.inject.Binder;
import com.google.inject.Inject;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.ProvisionException;
import com.google.inject.name.Named;
import com.google.inject.name.Names;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.LazySingleton;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.emitter.core.Emitter;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.core.routing.RoutingPolicies;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Registers the Getafix Broker selector strategies (for {@code druid.broker.balancer.type}), the routing state they
 * share and the {@value RoutingFeedbackEmitter#TYPE} emitter. Unscoped on purpose: a
 * {@code druid.emitter.composing.emitters} list shared by all roles may name the emitter, and must not fail on a role
 * that does not route. The Broker-only round is in {@link GetafixBrokerRoutingModule}.
 */
public class GetafixRoutingModule implements DruidModule
{
  /** The name {@code druid.extensions.loadList} knows this extension by. */
  static final String EXTENSION = "getafix-broker-routing";
  private static final Logger log = new Logger(GetafixRoutingModule.class);
  /** The {@link BrokerRoutingConfig} as Druid's JsonConfigurator binds it, before {@link #brokerRoutingConfig} validates it. */
  private static final String AS_BOUND = "getafix.routing.asBound";

  /**
   * The Broker strategy class of each Getafix policy in {@link RoutingPolicies}, registered under the policy's name.
   * Policies that Druid ships itself ({@code random}) have none.
   */
  static final Map<String, Class<? extends GetafixServerSelectorStrategy>> STRATEGIES = Map.of(
      RoutingPolicies.LBR, GetafixServerSelectorStrategy.Lbr.class,
      RoutingPolicies.ABR, GetafixServerSelectorStrategy.Abr.class,
      RoutingPolicies.LBR_ML, GetafixServerSelectorStrategy.LbrMl.class,
      RoutingPolicies.ADAPTIVE, GetafixServerSelectorStrategy.Adaptive.class
  );

  /**
   * Warns, once at startup, of each {@code druid.getafix.routing.*} runtime property this extension does not read,
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

  /** {@code druid.getafix.routing.*}; the policies' own knobs are Druid's {@code druid.broker.balancer.*}. */
  public static OwnedProperties ownedProperties()
  {
    return OwnedProperties.under(BrokerRoutingConfig.PREFIX, List.of())
                          .withConfig(
                              BrokerRoutingConfig.PREFIX,
                              BrokerRoutingConfig.class,
                              GetafixRoutingModule::jsonProperty
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
    final SimpleModule module = new SimpleModule("GetafixBrokerRouting");
    for (RoutingPolicies.Entry entry : RoutingPolicies.REGISTRY.entries()) {
      if (!entry.traits().druidBuiltIn()) {
        final Class<? extends GetafixServerSelectorStrategy> strategy = STRATEGIES.get(entry.name());
        if (strategy == null) {
          throw new IllegalStateException("routing policy [" + entry.name() + "] has no Broker strategy class");
        }
        module.registerSubtypes(new NamedType(strategy, entry.name()));
      }
    }
    return List.of(module);
  }

  @Override
  public void configure(Binder binder)
  {
    JsonConfigProvider.bind(binder, BrokerRoutingConfig.PREFIX, BrokerRoutingConfig.class, Names.named(AS_BOUND));
    binder.bind(BrokerRoutingState.class).in(LazySingleton.class);
  }

  /**
   * Bound and validated once, here, so that a bad property stops the Broker at start, naming it. The reason is logged
   * before the failure reaches Guice: Druid 33's Guice formats a provisioning error by reading the classes involved,
   * which fails on Java 17 class files and would leave the log without it.
   */
  @Provides
  @LazySingleton
  public BrokerRoutingConfig brokerRoutingConfig(@Named(AS_BOUND) Provider<BrokerRoutingConfig> asBound)
  {
    try {
      return asBound.get().validate();
    }
    catch (ProvisionException e) {
      e.getErrorMessages().forEach(
          message -> log.error("Invalid Broker routing configuration, the Broker stops: %s", message.getMessage())
      );
      throw e;
    }
    catch (RuntimeException e) {
      log.error("Invalid Broker routing configuration, the Broker stops: %s", e.getMessage());
      throw e;
    }
  }

  @Provides
  @ManageLifecycle
  @Named(RoutingFeedbackEmitter.TYPE)
  public Emitter getRoutingFeedbackEmitter(BrokerRoutingState state, BrokerRoutingConfig config)
  {
    return new RoutingFeedbackEmitter(state.feedback(), config.getLatencyMetric());
  }
}
