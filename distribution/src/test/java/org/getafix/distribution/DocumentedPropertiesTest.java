package org.getafix.distribution;

import org.apache.druid.client.selector.ServerSelectorStrategy;
import org.apache.druid.server.coordinator.balancer.BalancerStrategyFactory;
import org.getafix.broker.routing.GetafixRoutingModule;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.contract.OwnedProperties;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.druid.GetafixDruidModule;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.quality.GetafixQualityModule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md names everything an operator can set or must type: every {@code druid.getafix.*} runtime
 * property the modules bind or the sources spell out, every dynamic-config field, every property of our Broker
 * and Coordinator strategies, every type and emitter name, every metric and dimension name, and every query-context
 * key. Fails when code adds one the docs lack. And every runtime property the docs name is one the extensions' startup
 * check of unknown {@code druid.getafix.*} keys knows.
 */
class DocumentedPropertiesTest
{
  /** A {@code druid.getafix.*} key as it appears in code or docs. */
  static final Pattern GETAFIX_KEY = Pattern.compile("druid\\.getafix(?:\\.[A-Za-z][A-Za-z0-9]*)+");
  /** Our strategy and emitter names: getafixAbr, getafixRouting, ... */
  private static final Pattern OUR_CAMEL_CASE_NAME = Pattern.compile("\\bgetafix[A-Z][A-Za-z0-9]*\\b");
  private static final Pattern DRUID_STRATEGY_KEY =
      Pattern.compile("druid\\.(?:broker|coordinator)\\.balancer\\.[A-Za-z][A-Za-z0-9]*");
  private static final String[] GUIDES = {"docs/install.md", "docker/README.md", "README.md"};
  private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

  /**
   * Druid's own typed configs that our strategies plug into: Druid binds them at these prefixes, so a
   * {@code @JsonProperty} of our strategy is the runtime property {@code prefix.name}.
   */
  static final Map<Class<?>, String> DRUID_TYPED_CONFIGS = Map.of(
      ServerSelectorStrategy.class, "druid.broker.balancer",
      BalancerStrategyFactory.class, "druid.coordinator.balancer"
  );

  private static GetafixBindings bindings;
  private static String docs;
  private static Set<String> documentedKeys;

  @BeforeAll
  static void load()
  {
    bindings = GetafixBindings.load();
    docs = ProjectLayout.read("docs/configuration.md");
    documentedKeys = documentedKeys();
  }

  @Test
  void everyBoundPropertyIsDocumented()
  {
    // Our three extension-side config classes at least; an empty result would mean the scan found nothing.
    assertFalse(bindings.properties.isEmpty(), "no JsonConfigProvider binding found in " + bindings.modules);
    final Map<String, String> missing = new TreeMap<>();
    bindings.properties.forEach((key, type) -> {
      if (!isDocumented(key, documentedKeys)) {
        missing.put(key, type.getName());
      }
    });
    assertEquals(Map.of(), missing, "runtime properties (→ config class) missing from docs/configuration.md");
  }

  @Test
  void everyKeyInTheSourcesIsDocumented() throws IOException
  {
    final Map<String, Path> missing = new TreeMap<>();
    int scanned = 0;
    for (Path source : ProjectLayout.mainSources()) {
      scanned++;
      for (String literal : matches(STRING_LITERAL, Files.readString(source), 1)) {
        for (String key : matches(GETAFIX_KEY, literal)) {
          if (!isDocumented(key, documentedKeys)) {
            missing.put(key, ProjectLayout.root().relativize(source));
          }
        }
      }
    }
    assertTrue(scanned > 0, "no main sources under " + ProjectLayout.root());
    assertEquals(Map.of(), missing, "druid.getafix.* keys in literals (→ file) missing from docs/configuration.md");
  }

  @Test
  void everyDynamicConfigFieldIsDocumented()
  {
    final Set<String> missing = GetafixBindings.jsonProperties(GetafixDynamicConfig.class)
                                               .stream()
                                               .map(p -> p.name)
                                               .filter(name -> !docs.contains("`" + name + "`"))
                                               .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of(), missing, "dynamic config fields missing from docs/configuration.md");
  }

  @Test
  void everyStrategyPropertyIsDocumented()
  {
    final Set<String> missing = new TreeSet<>();
    int strategies = 0;
    for (Map.Entry<Class<?>, String> type : bindings.jsonTypes.entrySet()) {
      for (Map.Entry<Class<?>, String> druidConfig : DRUID_TYPED_CONFIGS.entrySet()) {
        if (druidConfig.getKey().isAssignableFrom(type.getKey())) {
          strategies++;
          for (GetafixBindings.Property property : GetafixBindings.jsonProperties(type.getKey())) {
            final String key = druidConfig.getValue() + "." + property.name;
            if (!docs.contains("`" + key + "`")) {
              missing.add(key + " (" + type.getValue() + ")");
            }
          }
        }
      }
    }
    assertTrue(strategies > 0, "no strategy registered by " + bindings.modules);
    assertEquals(Set.of(), missing, "strategy properties missing from docs/configuration.md");
  }

  @Test
  void everyTypeAndEmitterNameIsDocumented()
  {
    assertFalse(bindings.jsonTypes.isEmpty(), "no Jackson subtypes registered by " + bindings.modules);
    assertFalse(bindings.emitters.isEmpty(), "no named emitters bound by " + bindings.modules);
    final Set<String> missing = new TreeSet<>();
    for (String name : new TreeSet<>(bindings.jsonTypes.values())) {
      if (!docs.contains("`" + name + "`") && !docs.contains("\"" + name + "\"")) {
        missing.add("type " + name);
      }
    }
    for (String name : bindings.emitters) {
      if (!docs.contains("`" + name + "`") && !docs.contains("\"" + name + "\"")) {
        missing.add("emitter " + name);
      }
    }
    assertEquals(Set.of(), missing, "names missing from docs/configuration.md");
  }

  @Test
  void everyMetricAndDimensionIsDocumented()
  {
    final Set<String> missing = new TreeSet<>();
    for (GetafixMetric metric : GetafixMetric.values()) {
      if (!docs.contains("| `" + metric.metricName() + "` |")) {
        missing.add("metric " + metric.metricName());
      }
    }
    for (String dimension : MetricDimension.ALL) {
      if (!docs.contains("`" + dimension + "`")) {
        missing.add("dimension " + dimension);
      }
    }
    assertEquals(Set.of(), missing, "metric names missing from the metric tables of docs/configuration.md");
  }

  @Test
  void everyQueryContextKeyIsDocumented()
  {
    final Set<String> keys = queryContextKeys();
    assertFalse(keys.isEmpty(), "no constant in QueryContextKeys");
    final Set<String> missing = keys.stream()
                                    .filter(key -> !docs.contains("`" + key + "`"))
                                    .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of(), missing, "query and response context keys missing from docs/configuration.md");
  }

  /**
   * Each extension warns at startup of the {@code druid.getafix.*} keys it owns but does not read. Every key the
   * modules bind must be owned by exactly one extension, which knows it, and no documented key may draw a warning.
   */
  @Test
  void theUnknownKeyWarningsKnowEveryBoundAndDocumentedKey()
  {
    final Map<String, OwnedProperties> extensions = Map.of(
        "druid-getafix-extension", GetafixDruidModule.ownedProperties(),
        "getafix-broker-routing", GetafixRoutingModule.ownedProperties(),
        "getafix-quality-monitor", GetafixQualityModule.ownedProperties()
    );
    final Set<String> problems = new TreeSet<>();
    for (String key : bindings.properties.keySet()) {
      if (!GETAFIX_KEY.matcher(key).matches()) {
        continue;
      }
      final List<String> owners = extensions.entrySet()
                                            .stream()
                                            .filter(e -> e.getValue().owns(key))
                                            .map(Map.Entry::getKey)
                                            .sorted()
                                            .toList();
      if (owners.size() != 1) {
        problems.add(key + " is owned by " + owners + ", not by exactly one extension");
      } else if (!extensions.get(owners.get(0)).knows(key)) {
        problems.add(key + " is bound but unknown to " + owners.get(0));
      }
    }
    extensions.forEach((extension, owned) -> owned.unknown(documentedKeys).forEach(
        unknown -> problems.add(unknown.key() + " is documented but unknown to " + extension)
    ));
    assertEquals(Set.of(), problems);
  }

  /**
   * The install guide and docker/README.md quote names rather than define them; each must still exist, so that a
   * rename in the code fails here instead of leaving a guide that no longer works.
   */
  @Test
  void theGuidesNameOnlyWhatTheCodeAndReferenceHave()
  {
    final Set<String> ourNames = new TreeSet<>(bindings.jsonTypes.values());
    ourNames.addAll(bindings.emitters);
    ourNames.addAll(queryContextKeys());
    final Set<String> missing = new TreeSet<>();
    for (String guide : GUIDES) {
      final String text = ProjectLayout.read(guide);
      for (String key : matches(GETAFIX_KEY, text)) {
        if (!isDocumented(key, documentedKeys)) {
          missing.add(guide + ": " + key + " is not in docs/configuration.md");
        }
      }
      for (String key : matches(DRUID_STRATEGY_KEY, text)) {
        if (!docs.contains(key)) {
          missing.add(guide + ": " + key + " is not in docs/configuration.md");
        }
      }
      for (String name : matches(OUR_CAMEL_CASE_NAME, text)) {
        if (!ourNames.contains(name)) {
          missing.add(guide + ": " + name + " is no type, emitter or context key of ours " + ourNames);
        }
      }
    }
    final String install = ProjectLayout.read("docs/install.md");
    for (String extension : ProjectLayout.extensions().keySet()) {
      if (!install.contains("`" + extension + "`")) {
        missing.add("docs/install.md does not say where to load extension " + extension);
      }
    }
    assertEquals(Set.of(), missing);
  }

  /** The values of the String constants of {@link QueryContextKeys}: getafixBudgetMs, ... */
  private static Set<String> queryContextKeys()
  {
    final Set<String> keys = new TreeSet<>();
    for (Field field : QueryContextKeys.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        try {
          keys.add((String) field.get(null));
        }
        catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return keys;
  }

  /** Documented as a key, or as the prefix of documented keys (a literal like {@code "druid.getafix.stats"}). */
  static boolean isDocumented(String key, Set<String> documented)
  {
    return documented.contains(key) || documented.stream().anyMatch(k -> k.startsWith(key + "."));
  }

  /** The {@code druid.getafix.*} keys docs/configuration.md mentions. */
  static Set<String> documentedKeys()
  {
    return matches(GETAFIX_KEY, ProjectLayout.read("docs/configuration.md"));
  }

  private static Set<String> matches(Pattern pattern, String text)
  {
    return matches(pattern, text, 0);
  }

  private static Set<String> matches(Pattern pattern, String text, int group)
  {
    final Set<String> found = new TreeSet<>();
    final Matcher matcher = pattern.matcher(text);
    while (matcher.find()) {
      found.add(matcher.group(group));
    }
    return found;
  }
}
