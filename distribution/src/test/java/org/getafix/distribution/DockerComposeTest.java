package org.getafix.distribution;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.apache.druid.guice.JsonConfigurator;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.server.coordinator.balancer.BalancerStrategyFactory;
import org.apache.druid.server.coordinator.rules.Rule;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.validation.Validation;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
 * docker/ cannot be run here (no Docker engine), so this reads it and checks it against the code and the docs, so
 * that it does not rot: services, image, extension names, property keys and values, and the setup requests.
 */
class DockerComposeTest
{
  private static final Path DOCKER = ProjectLayout.root().resolve("docker");
  /** {@code post <path> '<json>'} lines of the getafix-setup script. */
  private static final Pattern SETUP_POST = Pattern.compile("(?m)^\\s*post\\s+(\\S+)\\s+'([^']*)'\\s*$");
  private static final ObjectMapper JSON = new DefaultObjectMapper();

  private static GetafixBindings bindings;
  private static JsonNode services;
  /** Druid service name → its Druid runtime properties from the environment, as /druid.sh writes them. */
  private static final Map<String, Properties> DRUID_SERVICES = new TreeMap<>();

  @BeforeAll
  static void load() throws IOException
  {
    bindings = GetafixBindings.load();
    services = new YAMLMapper().readTree(DOCKER.resolve("docker-compose.yml").toFile()).get("services");
    services.fields().forEachRemaining(service -> {
      if (service.getValue().has("build")) {
        DRUID_SERVICES.put(service.getKey(), druidProperties(service.getValue()));
      }
    });
  }

  @Test
  void servicesAreTheOnesTheReadmeDescribes() throws IOException
  {
    final Set<String> documented = new TreeSet<>();
    final Matcher row = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\|")
                               .matcher(Files.readString(DOCKER.resolve("README.md")));
    while (row.find()) {
      documented.add(row.group(1));
    }
    final Set<String> composed = new TreeSet<>();
    services.fieldNames().forEachRemaining(composed::add);
    assertEquals(documented, composed, "services of docker-compose.yml vs the table in docker/README.md");
  }

  @Test
  void everyDruidServiceIsBuiltFromTheReleaseTarballOnTheDruidVersionWeBuildAgainst() throws IOException
  {
    assertFalse(DRUID_SERVICES.isEmpty(), "no service is built from docker/Dockerfile");
    final String druidVersion = System.getProperty("getafix.druidVersion");
    final String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"));
    assertTrue(
        dockerfile.contains("ARG DRUID_IMAGE=apache/druid:" + druidVersion + "\n"),
        "docker/Dockerfile must build on apache/druid:" + druidVersion
    );
    assertTrue(dockerfile.contains("\nFROM ${DRUID_IMAGE}\n"), "docker/Dockerfile must build on ${DRUID_IMAGE}");
    final Path tarballDir = Path.of(System.getProperty("getafix.tarball")).getParent().normalize();
    final Set<String> images = new TreeSet<>();
    for (String name : DRUID_SERVICES.keySet()) {
      final JsonNode build = services.get(name).get("build");
      final Path context = DOCKER.resolve(build.get("context").asText()).normalize();
      assertEquals(tarballDir, context, name + ": build context must be where the tarball is built");
      assertEquals(DOCKER.resolve("Dockerfile"), context.resolve(build.get("dockerfile").asText()).normalize(), name);
      images.add(services.get(name).path("image").asText());
    }
    assertEquals(1, images.size(), "one image for every Druid service: " + images);
  }

  @Test
  void everyDruidServiceLoadsEveryExtensionWeBuild() throws IOException
  {
    final Set<String> built = ProjectLayout.extensions().keySet();
    final String readme = Files.readString(DOCKER.resolve("README.md"));
    for (Map.Entry<String, Properties> service : DRUID_SERVICES.entrySet()) {
      final List<String> loadList = JSON.readValue(
          service.getValue().getProperty("druid.extensions.loadList", "[]"),
          new TypeReference<List<String>>() {}
      );
      assertTrue(loadList.containsAll(built), service.getKey() + " loads " + loadList + ", not all of " + built);
      for (String extension : loadList) {
        assertTrue(
            built.contains(extension) || readme.contains("`" + extension + "`"),
            service.getKey() + " loads " + extension + ", neither built here nor named in docker/README.md"
        );
      }
    }
  }

  @Test
  void everyGetafixPropertyIsBoundDocumentedAndParses()
  {
    final Set<String> documented = DocumentedPropertiesTest.documentedKeys();
    int checked = 0;
    for (Map.Entry<String, Properties> service : DRUID_SERVICES.entrySet()) {
      for (String key : service.getValue().stringPropertyNames()) {
        if (key.startsWith("druid.getafix.")) {
          checked++;
          assertTrue(bindings.properties.containsKey(key), service.getKey() + ": no code reads " + key);
          assertTrue(
              DocumentedPropertiesTest.isDocumented(key, documented),
              service.getKey() + ": " + key + " undocumented"
          );
        }
      }
      // Druid's JsonConfigurator, as on a real start: a value that does not parse fails here instead. The config
      // classes check names (e.g. the split) in their getters and validate(), so those are called too.
      final JsonConfigurator configurator =
          new JsonConfigurator(JSON, Validation.buildDefaultValidatorFactory().getValidator());
      for (Map.Entry<String, Class<?>> config : bindings.configs.entrySet()) {
        final Object read = configurator.configurate(service.getValue(), config.getKey(), config.getValue());
        for (Method method : config.getValue().getMethods()) {
          final boolean accessor = method.getName().startsWith("get") || method.getName().startsWith("is")
                                   || "validate".equals(method.getName());
          if (accessor && method.getParameterCount() == 0 && !Modifier.isStatic(method.getModifiers())
              && method.getDeclaringClass() != Object.class) {
            try {
              method.invoke(read);
            }
            catch (InvocationTargetException | IllegalAccessException e) {
              throw new AssertionError(service.getKey() + ": " + method, e.getCause());
            }
          }
        }
      }
    }
    assertTrue(checked > 0, "no druid_getafix_* variable in docker/");
  }

  @Test
  void strategiesAndEmittersAreOnesTheExtensionsRegister() throws IOException
  {
    for (Map.Entry<String, Properties> service : DRUID_SERVICES.entrySet()) {
      final Properties properties = service.getValue();
      for (Map.Entry<Class<?>, String> druidConfig : DocumentedPropertiesTest.DRUID_TYPED_CONFIGS.entrySet()) {
        final String typeKey = druidConfig.getValue()
                               + (druidConfig.getKey() == BalancerStrategyFactory.class ? ".strategy" : ".type");
        final String type = properties.getProperty(typeKey);
        if (type != null) {
          assertTrue(
              bindings.jsonType(druidConfig.getKey(), type) != null,
              service.getKey() + ": " + typeKey + "=" + type + " is not one of our strategies " + bindings.jsonTypes
          );
        }
      }
      final List<String> emitters = JSON.readValue(
          properties.getProperty("druid.emitter.composing.emitters", "[]"),
          new TypeReference<List<String>>() {}
      );
      assertEquals("composing", properties.getProperty("druid.emitter"), service.getKey());
      assertEquals(bindings.emitters, new TreeSet<>(emitters), service.getKey() + ": composing emitters");
    }
    assertTrue(typeSetAnywhere("druid.coordinator.balancer.strategy"), "no service uses the getafix balancer");
    assertTrue(typeSetAnywhere("druid.broker.balancer.type"), "no Broker uses a Getafix strategy");
  }

  @Test
  void hardwareTiersNameTheHistoricalsWhichDifferInCpus() throws IOException
  {
    final Set<String> historicals = new TreeSet<>();
    final Set<Double> cpus = new TreeSet<>();
    for (Map.Entry<String, Properties> service : DRUID_SERVICES.entrySet()) {
      assertEquals(service.getKey(), service.getValue().getProperty("druid.host"), "druid_host must be the name");
      if ("historical".equals(services.get(service.getKey()).get("command").get(0).asText())) {
        historicals.add(service.getKey() + ":8083");
        cpus.add(services.get(service.getKey()).get("cpus").asDouble());
      }
    }
    assertEquals(3, historicals.size(), "Historicals: " + historicals);
    assertEquals(historicals.size(), cpus.size(), "every Historical has its own CPU limit: " + cpus);
    final Set<String> tiered = new TreeSet<>();
    for (Properties properties : DRUID_SERVICES.values()) {
      final String tiers = properties.getProperty("druid.getafix.hardwareTiers");
      if (tiers != null) {
        tiered.addAll(JSON.readValue(tiers, new TypeReference<Map<String, String>>() {}).keySet());
      }
    }
    assertEquals(historicals, tiered, "druid.getafix.hardwareTiers must name every Historical as host:port");
  }

  @Test
  void theSetupPostsOnlyDocumentedFieldsAndOurRuleType() throws IOException
  {
    final String docs = ProjectLayout.read("docs/configuration.md");
    final Set<String> dynamicConfigFields = GetafixBindings.jsonProperties(GetafixDynamicConfig.class)
                                                           .stream()
                                                           .map(p -> p.name)
                                                           .collect(Collectors.toSet());
    final Matcher post = SETUP_POST.matcher(services.get("getafix-setup").get("command").get(0).asText());
    final List<String> paths = new ArrayList<>();
    while (post.find()) {
      final String path = post.group(1);
      final JsonNode body = JSON.readTree(post.group(2));
      paths.add(path);
      if (path.endsWith("/getafix/config")) {
        body.fieldNames().forEachRemaining(
            field -> assertTrue(dynamicConfigFields.contains(field), path + ": no dynamic config field " + field)
        );
      } else if (path.startsWith("/druid/coordinator/v1/rules/")) {
        for (JsonNode rule : body) {
          final Class<?> type = bindings.jsonType(Rule.class, rule.path("type").asText());
          assertTrue(type != null, path + ": not one of our rules: " + rule);
          final Set<String> fields = GetafixBindings.jsonProperties(type)
                                                    .stream()
                                                    .map(p -> p.name)
                                                    .collect(Collectors.toSet());
          rule.fieldNames().forEachRemaining(
              field -> assertTrue("type".equals(field) || fields.contains(field), path + ": unknown field " + field)
          );
        }
      } else {
        body.fieldNames().forEachRemaining(
            field -> assertTrue(docs.contains("`" + field), path + ": " + field + " is not in docs/configuration.md")
        );
      }
    }
    assertEquals(3, paths.size(), "getafix-setup requests: " + paths);
  }

  private static boolean typeSetAnywhere(String key)
  {
    return DRUID_SERVICES.values().stream().anyMatch(p -> p.getProperty(key) != null);
  }

  /** The service's env_file(s), then its environment, each {@code druid_*} variable turned into a property. */
  private static Properties druidProperties(JsonNode service)
  {
    final Map<String, String> env = new TreeMap<>();
    if (service.has("env_file")) {
      for (JsonNode file : service.get("env_file")) {
        try {
          for (String line : Files.readAllLines(DOCKER.resolve(file.asText()))) {
            if (!line.isBlank() && !line.startsWith("#")) {
              final int eq = line.indexOf('=');
              env.put(line.substring(0, eq), line.substring(eq + 1));
            }
          }
        }
        catch (IOException e) {
          throw new IllegalStateException("env_file " + file, e);
        }
      }
    }
    if (service.has("environment")) {
      service.get("environment").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
    }
    final Properties properties = new Properties();
    env.forEach((name, value) -> {
      if (name.startsWith("druid_")) {
        properties.setProperty(toProperty(name), value);
      }
    });
    return properties;
  }

  /** As the official image's /druid.sh: {@code __} is a literal {@code _}, every other {@code _} a dot. */
  static String toProperty(String variable)
  {
    return variable.replace("__", "\u0000").replace('_', '.').replace('\u0000', '_');
  }
}
