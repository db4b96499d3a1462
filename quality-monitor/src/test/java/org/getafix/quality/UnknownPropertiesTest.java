package org.getafix.quality;

import org.apache.druid.guice.StartupInjectorBuilder;
import org.getafix.core.contract.Knob;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.core.contract.QualityKnobs;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Broker's {@code druid.getafix.quality.*} keys, and the ones nothing reads. */
class UnknownPropertiesTest
{
  private static final OwnedProperties OWNED = GetafixQualityModule.ownedProperties();

  @Test
  void theConfigClassReadsExactlyTheKnobs() throws IllegalAccessException
  {
    final Set<String> knobs = new TreeSet<>();
    for (Field field : QualityKnobs.class.getFields()) {
      if (field.getType() == Knob.class) {
        knobs.add(((Knob<?>) field.get(null)).name());
      }
    }
    assertEquals(knobs, new TreeSet<>(OWNED.keys()));
  }

  @Test
  void onlyUnknownQualityKeysAreReported()
  {
    final List<OwnedProperties.Unknown> unknown = OWNED.unknown(List.of(
        "druid.getafix.quality.maxBudgetMs",
        "druid.getafix.quality.maxBudget",
        "druid.getafix.quality.hedgeRate",
        "druid.getafix.tier",
        "druid.getafix.routing.period",
        "druid.getafix.qualty.maxBudgetMs"
    ));
    assertEquals(
        List.of(
            new OwnedProperties.Unknown("druid.getafix.quality.hedgeRate", "druid.getafix.quality.hedgeRatio"),
            new OwnedProperties.Unknown("druid.getafix.quality.maxBudget", "druid.getafix.quality.maxBudgetMs")
        ),
        unknown
    );
  }

  /** Druid injects an extension's modules from its startup injector, which must provide what the warning reads. */
  @Test
  void druidCanInjectTheModuleWithTheRuntimeProperties()
  {
    final Properties properties = new Properties();
    properties.setProperty("druid.getafix.quality.maxBudget", "1000");
    assertDoesNotThrow(
        () -> new StartupInjectorBuilder().withProperties(properties)
                                          .forTests()
                                          .build()
                                          .injectMembers(new GetafixQualityModule())
    );
  }
}
