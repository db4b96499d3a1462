package org.getafix.druid;

import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.Provider;
import com.google.inject.name.Names;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.StartupInjectorBuilder;
import org.getafix.druid.coordinator.GetafixCoordinatorModule;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.historical.HistoricalStatsConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bad {@code druid.getafix.*} property stops the node at start, and the reason reaches the log in words: Druid 33's
 * Guice cannot format its own error on Java 17 class files, so whatever it would have said is lost unless logged first.
 * The configs are bound by Druid's own JsonConfigurator, as on a node.
 */
class StartupConfigErrorsTest
{
  @Test
  void aValueJacksonCannotBindIsLoggedWithItsProperty()
  {
    final List<String> errors = coordinatorErrors("druid.getafix.popularity.decay", "abc");
    assertEquals(1, errors.size(), errors.toString());
    assertTrue(errors.get(0).startsWith("Invalid Getafix configuration, the Coordinator stops: "), errors.get(0));
    assertTrue(errors.get(0).contains("druid.getafix") && errors.get(0).contains("\"abc\""), errors.get(0));
  }

  @Test
  void aValueOutOfBoundsIsLoggedWithItsProperty()
  {
    assertEquals(
        List.of("Invalid Getafix configuration, the Coordinator stops: "
                + "druid.getafix.popularity.decay must be in [0, 1), got [1.5]"),
        coordinatorErrors("druid.getafix.popularity.decay", "1.5")
    );
  }

  @Test
  void aPeriodOfNoFixedLengthIsLogged()
  {
    final List<String> errors = coordinatorErrors("druid.getafix.round.period", "P1M");
    assertEquals(1, errors.size(), errors.toString());
    assertTrue(errors.get(0).contains("months"), errors.get(0));
  }

  @Test
  void theHistoricalsStatisticsSettingsToo()
  {
    for (String bad : List.of("abc", "PT0S", "-PT1H")) {
      final Properties properties = new Properties();
      properties.setProperty("druid.getafix.stats.idleEvictionPeriod", bad);
      final Provider<HistoricalStatsConfig> asBound = bound(properties, HistoricalStatsConfig.PREFIX, HistoricalStatsConfig.class);
      final List<String> errors = new CopyOnWriteArrayList<>();
      try (LogCapture ignored = new LogCapture(GetafixDruidModule.class, errors)) {
        assertThrows(RuntimeException.class, () -> new GetafixDruidModule().historicalStatsConfig(asBound), bad);
      }
      assertEquals(1, errors.size(), bad + ": " + errors);
      assertTrue(errors.get(0).startsWith("Invalid Getafix statistics configuration, the node stops: "), errors.get(0));
      assertTrue(errors.get(0).contains("idleEvictionPeriod") || errors.get(0).contains("\"abc\""), errors.get(0));
    }
    assertEquals(
        3_600_000L,
        new GetafixDruidModule().historicalStatsConfig(
            bound(new Properties(), HistoricalStatsConfig.PREFIX, HistoricalStatsConfig.class)
        ).getIdleEvictionMillis()
    );
  }

  private static List<String> coordinatorErrors(String property, String value)
  {
    final Properties properties = new Properties();
    properties.setProperty(property, value);
    final Provider<GetafixConfig> asBound = bound(properties, GetafixConfig.PREFIX, GetafixConfig.class);
    final List<String> errors = new CopyOnWriteArrayList<>();
    try (LogCapture ignored = new LogCapture(GetafixCoordinatorModule.class, errors)) {
      assertThrows(RuntimeException.class, () -> new GetafixCoordinatorModule().getafixConfig(asBound));
    }
    return errors;
  }

  /** {@code config} as Druid's JsonConfigurator binds it at {@code prefix} from {@code properties}, unvalidated. */
  private static <T> Provider<T> bound(Properties properties, String prefix, Class<T> config)
  {
    final Injector injector = new StartupInjectorBuilder().withProperties(properties).forTests().build()
        .createChildInjector(binder -> JsonConfigProvider.bind(binder, prefix, config, Names.named("asBound")));
    return injector.getProvider(Key.get(config, Names.named("asBound")));
  }
}
