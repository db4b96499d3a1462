package org.getafix.core.contract;

import org.junit.jupiter.api.Test;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OwnedPropertiesTest
{
  /** Stands in for Jackson's {@code @JsonProperty}, which the extensions pass. */
  @Retention(RetentionPolicy.RUNTIME)
  @interface Property
  {
    String value() default "";
  }

  private static final Function<Field, String> PROPERTY = field -> {
    final Property property = field.getAnnotation(Property.class);
    return property == null ? null : property.value().isEmpty() ? field.getName() : property.value();
  };

  static class Config
  {
    static final String NOT_A_PROPERTY = "x";
    @Property
    private String tier;
    @Property("round")
    private Nested nested;
    @Property
    private Map<String, String> hardwareTiers;
    @Property
    private java.time.Duration timeout;
    private int internal;
  }

  static class Nested
  {
    @Property
    private long period;
    /** A nested config naming its own class does not recurse forever. */
    @Property
    private Nested next;
  }

  static class Stats
  {
    @Property
    private String idleEvictionPeriod;
  }

  private static final OwnedProperties COORDINATOR =
      OwnedProperties.under(OwnedProperties.ROOT, List.of(OwnedProperties.ROUTING, OwnedProperties.QUALITY))
                     .withConfig("druid.getafix", Config.class, PROPERTY)
                     .withConfig("druid.getafix.stats", Stats.class, PROPERTY);

  @Test
  void theKeysAreReadFromTheConfigClassesAsDruidBindsThem()
  {
    assertEquals(
        Set.of(
            "druid.getafix.tier",
            "druid.getafix.round",
            "druid.getafix.round.period",
            "druid.getafix.round.next",
            "druid.getafix.hardwareTiers",
            "druid.getafix.timeout",
            "druid.getafix.stats.idleEvictionPeriod"
        ),
        COORDINATOR.keys()
    );
    assertTrue(COORDINATOR.knows("druid.getafix.hardwareTiers.h1:8083"), "an entry of a map-valued property");
    assertFalse(COORDINATOR.knows("druid.getafix.tier.x"));
  }

  @Test
  void anExtensionJudgesOnlyTheKeysItOwns()
  {
    final List<OwnedProperties.Unknown> unknown = COORDINATOR.unknown(List.of(
        "druid.getafix.tier",
        "druid.getafix.tiers",
        "druid.getafix.quality.anything",
        "druid.getafix.routing.period",
        "druid.getafix.routing",
        "druid.getafixx.tier",
        "druid.coordinator.balancer.strategy",
        "druid.getafix.hardwareTiers.h1:8083"
    ));
    assertEquals(List.of(new OwnedProperties.Unknown("druid.getafix.tiers", "druid.getafix.tier")), unknown);

    final OwnedProperties quality =
        OwnedProperties.under(OwnedProperties.QUALITY, List.of()).withConfig(QualityKnobs.PREFIX, Stats.class, PROPERTY);
    assertEquals(
        List.of("druid.getafix.quality.idleEvictionPeriodd"),
        quality.unknown(List.of("druid.getafix.tierr", "druid.getafix.quality.idleEvictionPeriodd"))
               .stream()
               .map(OwnedProperties.Unknown::key)
               .toList()
    );
  }

  @Test
  void theNearestKeyIsNamedWhenOneIsClose()
  {
    assertEquals("druid.getafix.round.period", COORDINATOR.nearest("druid.getafix.round.perod"));
    assertEquals("druid.getafix.round.period", COORDINATOR.nearest("druid.getafix.roundPeriod"));
    assertEquals("druid.getafix.tier", COORDINATOR.nearest("druid.getafix.Tier"));
    assertEquals(
        "druid.getafix.stats.idleEvictionPeriod",
        COORDINATOR.nearest("druid.getafix.stats.idleEvictionperiod")
    );
    // A misspelt prefix of another extension: its key there, which that extension then checks.
    assertEquals("druid.getafix.routing.period", COORDINATOR.nearest("druid.getafix.routng.period"));
    assertEquals("druid.getafix.quality.maxBudgetMs", COORDINATOR.nearest("druid.getafix.qualty.maxBudgetMs"));
    // Nothing close: a dynamic-config field is no runtime property.
    assertNull(COORDINATOR.nearest("druid.getafix.gamma"));
    assertNull(COORDINATOR.nearest("druid.getafix.popularity.decay"));
  }

  @Test
  void theMessageNamesTheKeyTheExtensionAndTheNearestKey()
  {
    assertEquals(
        "Unknown runtime property [druid.getafix.tiers], which druid-getafix-extension ignores; did you mean "
        + "[druid.getafix.tier]?",
        new OwnedProperties.Unknown("druid.getafix.tiers", "druid.getafix.tier").message("druid-getafix-extension")
    );
    assertEquals(
        "Unknown runtime property [druid.getafix.gamma], which druid-getafix-extension ignores",
        new OwnedProperties.Unknown("druid.getafix.gamma", null).message("druid-getafix-extension")
    );
  }

  @Test
  void anotherExtensionsPrefixMustBeUnderThisOne()
  {
    assertThrows(
        IllegalArgumentException.class,
        () -> OwnedProperties.under(OwnedProperties.QUALITY, List.of(OwnedProperties.ROUTING))
    );
  }

  @Test
  void halfEditsRankACaseChangeBeforeAnEdit()
  {
    assertEquals(0, OwnedProperties.halfEdits("tier", "tier"));
    assertEquals(1, OwnedProperties.halfEdits("Tier", "tier"));
    assertEquals(2, OwnedProperties.halfEdits("tiers", "tier"));
    assertEquals(8, OwnedProperties.halfEdits("", "tier"));
  }
}
