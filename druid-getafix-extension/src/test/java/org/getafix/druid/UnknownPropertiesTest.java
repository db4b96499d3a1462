package org.getafix.druid;

import org.apache.druid.guice.StartupInjectorBuilder;
import org.getafix.core.contract.Knob;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.contract.QualityKnobs;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Coordinator's and Historicals' {@code druid.getafix.*} keys, and the warning about the ones nothing reads. */
class UnknownPropertiesTest
{
  private static final OwnedProperties OWNED = GetafixDruidModule.ownedProperties();

  @Test
  void theConfigClassesKnowEveryRuntimeKnobAndTheDocumentedKeys() throws IllegalAccessException
  {
    final List<String> unknown = new ArrayList<>();
    for (Field field : PlacementKnobs.class.getFields()) {
      // The others are dynamic-config fields, not runtime properties.
      final String name = ((Knob<?>) field.get(null)).name();
      if (name.startsWith(OwnedProperties.ROOT + ".") && !OWNED.knows(name)) {
        unknown.add(name);
      }
    }
    assertEquals(List.of(), unknown);
    for (String key : List.of(
        "druid.getafix.tier",
        "druid.getafix.round.period",
        "druid.getafix.stats.timeout",
        "druid.getafix.stats.idleEvictionPeriod",
        "druid.getafix.planning.split",
        "druid.getafix.hardwareTiers",
        "druid.getafix.hardwareTiers.historical1:8083"
    )) {
      assertTrue(OWNED.knows(key), key);
    }
  }

  @Test
  void theBrokersKeysAreNotThisExtensionsToJudge() throws IllegalAccessException
  {
    final Properties properties = new Properties();
    for (Field field : QualityKnobs.class.getFields()) {
      if (field.getType() == Knob.class) {
        properties.setProperty(((Knob<?>) field.get(null)).name(), "x");
      }
    }
    properties.setProperty("druid.getafix.routing.period", "PT5S");
    properties.setProperty("druid.getafix.routing.notAKey", "x");
    properties.setProperty("druid.getafix.quality.notAKey", "x");
    assertEquals(List.of(), OWNED.unknown(properties.stringPropertyNames()));
  }

  @Test
  void druidInjectsTheRuntimePropertiesAndEachUnknownKeyIsWarnedOfOnce()
  {
    final Properties properties = new Properties();
    properties.setProperty("druid.getafix.popularity.inheritence", "true");
    properties.setProperty("druid.getafix.gamma", "0.3");
    properties.setProperty("druid.getafix.tier", "hot");
    properties.setProperty("druid.getafix.quality.maxBudgetMs", "1000");
    final List<String> warnings = new CopyOnWriteArrayList<>();
    try (LogCapture ignored = new LogCapture(GetafixDruidModule.class, warnings)) {
      new StartupInjectorBuilder().withProperties(properties).forTests().build().injectMembers(new GetafixDruidModule());
    }
    assertEquals(
        List.of(
            "Unknown runtime property [druid.getafix.gamma], which druid-getafix-extension ignores",
            "Unknown runtime property [druid.getafix.popularity.inheritence], which druid-getafix-extension ignores; "
            + "did you mean [druid.getafix.popularity.inheritance]?"
        ),
        warnings
    );
  }

  @Test
  void nothingIsWarnedOfWithoutUnknownKeys()
  {
    final Properties properties = new Properties();
    properties.setProperty("druid.getafix.capacity.estimator", "cpu-time");
    final List<String> warnings = new CopyOnWriteArrayList<>();
    try (LogCapture ignored = new LogCapture(GetafixDruidModule.class, warnings)) {
      new StartupInjectorBuilder().withProperties(properties).forTests().build().injectMembers(new GetafixDruidModule());
    }
    assertFalse(warnings.stream().anyMatch(w -> w.contains("druid.getafix")), warnings.toString());
  }
}
