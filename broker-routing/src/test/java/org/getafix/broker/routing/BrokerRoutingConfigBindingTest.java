package org.getafix.broker.routing;

import com.google.inject.Key;
import com.google.inject.Provider;
import com.google.inject.ProvisionException;
import com.google.inject.name.Names;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.StartupInjectorBuilder;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code druid.getafix.routing.*} as Druid's JsonConfigurator binds it, through the module's validating provider. */
class BrokerRoutingConfigBindingTest
{
  @Test
  void aValueOutOfBoundsStopsTheBrokerNamingIt()
  {
    final IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> new GetafixRoutingModule().brokerRoutingConfig(bound("latencyAlpha", "1.5"))
    );
    assertEquals("druid.getafix.routing.latencyAlpha must be in (0, 1], got [1.5]", e.getMessage());
  }

  @Test
  void aValueJacksonCannotBindStopsTheBrokerWithAReadableReason()
  {
    final ProvisionException e = assertThrows(
        ProvisionException.class,
        () -> new GetafixRoutingModule().brokerRoutingConfig(bound("latencyAlpha", "abc"))
    );
    // What the module logs: the messages, not the exception, whose text Druid 33's Guice fails to format on Java 17.
    final String reasons = e.getErrorMessages().toString();
    assertTrue(reasons.contains("druid.getafix.routing") && reasons.contains("\"abc\""), reasons);
  }

  @Test
  void theDefaultsPass()
  {
    assertEquals(
        BrokerRoutingConfig.defaults().getLatencyAlpha(),
        new GetafixRoutingModule().brokerRoutingConfig(bound("statsPath", "/druid/historical/v1/getafix/stats"))
                                  .getLatencyAlpha()
    );
  }

  private static Provider<BrokerRoutingConfig> bound(String property, String value)
  {
    final Properties properties = new Properties();
    properties.setProperty(BrokerRoutingConfig.PREFIX + "." + property, value);
    return new StartupInjectorBuilder().withProperties(properties).forTests().build()
        .createChildInjector(binder -> JsonConfigProvider.bind(
            binder, BrokerRoutingConfig.PREFIX, BrokerRoutingConfig.class, Names.named("asBound")
        ))
        .getProvider(Key.get(BrokerRoutingConfig.class, Names.named("asBound")));
  }
}
