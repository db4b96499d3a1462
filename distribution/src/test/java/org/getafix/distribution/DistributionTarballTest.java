package org.getafix.distribution;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarInputStream;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opens the release tarball (runs after {@code package}) and checks what a user unpacks: one directory per extension
 * module under {@code extensions/}, each with its module jar and getafix-core, no copy of a library Druid already
 * ships, the docs, the licence files and the emitters' dimension maps.
 */
class DistributionTarballTest
{
  /**
   * Libraries Druid's own lib/ provides to every extension. A second copy in an extension directory can shadow
   * Druid's and break class identity (Guice keys, Jackson annotations), so none may be packaged.
   */
  private static final Pattern DRUID_PROVIDED = Pattern.compile(
      "(druid-|jackson-|guice-|guava-|joda-time-|jetty-|jersey-|netty-|log4j-|slf4j-).*\\.jar"
  );
  private static final String DRUID_MODULE_SERVICE = "META-INF/services/org.apache.druid.initialization.DruidModule";

  private static String base;
  /** Path inside the tarball (without the base directory) → the jar's DruidModule service file, or "" if none. */
  private static final Map<String, String> FILES = new TreeMap<>();

  @BeforeAll
  static void unpack() throws IOException
  {
    final Path tarball = Paths.get(System.getProperty("getafix.tarball"));
    assertTrue(Files.isRegularFile(tarball), "no release tarball; run `package` first: " + tarball);
    base = "druid-getafix-" + ProjectLayout.version() + "/";
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(Files.newInputStream(tarball)))) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        assertTrue(entry.getName().startsWith(base), entry.getName() + " is outside " + base);
        if (entry.isFile()) {
          final String path = entry.getName().substring(base.length());
          FILES.put(path, path.endsWith(".jar") ? druidModules(tar) : "");
        }
      }
    }
  }

  @Test
  void holdsOneDirectoryPerExtensionModule()
  {
    final Map<String, String> expected = ProjectLayout.extensions();
    assertFalse(expected.isEmpty(), "no module builds an extension directory");
    final Set<String> packaged = FILES.keySet()
                                      .stream()
                                      .filter(path -> path.startsWith("extensions/"))
                                      .map(path -> path.split("/")[1])
                                      .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(expected.keySet(), packaged, "extension directories (add a new one to src/assembly/bin.xml)");
  }

  @Test
  void eachExtensionHasItsModuleJarAndCoreAndNothingDruidProvides()
  {
    final String version = ProjectLayout.version();
    final List<String> ours = ProjectLayout.artifactIds();
    final List<String> problems = new ArrayList<>();
    for (Map.Entry<String, String> extension : ProjectLayout.extensions().entrySet()) {
      final String dir = "extensions/" + extension.getKey() + "/";
      final Set<String> jars = FILES.keySet()
                                    .stream()
                                    .filter(path -> path.startsWith(dir))
                                    .map(path -> path.substring(dir.length()))
                                    .collect(Collectors.toCollection(TreeSet::new));
      final String moduleJar = extension.getValue() + "-" + version + ".jar";
      if (!jars.contains(moduleJar)) {
        problems.add(dir + " lacks " + moduleJar);
      } else if (FILES.get(dir + moduleJar).isBlank()) {
        problems.add(dir + moduleJar + " registers no DruidModule, so Druid would load nothing from it");
      }
      if (!jars.contains("getafix-core-" + version + ".jar")) {
        problems.add(dir + " lacks getafix-core");
      }
      for (String jar : jars) {
        final boolean isOurs = ours.stream().anyMatch(id -> jar.equals(id + "-" + version + ".jar"));
        if (!jar.endsWith(".jar") || jar.contains("/")) {
          problems.add(dir + jar + " is not a jar");
        } else if (!isOurs && DRUID_PROVIDED.matcher(jar).matches()) {
          problems.add(dir + jar + " is provided by Druid");
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void holdsTheDocs() throws IOException
  {
    final Set<String> expected = new TreeSet<>();
    expected.add("README.md");
    try (Stream<Path> docs = Files.list(ProjectLayout.root().resolve("docs"));
         Stream<Path> top = Files.list(ProjectLayout.root());
         Stream<Path> maps = Files.list(EmitterDimensionMapsTest.DIRECTORY)) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(p -> expected.add("docs/" + p.getFileName()));
      top.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("LICENSE") || n.startsWith("NOTICE"))
         .forEach(expected::add);
      maps.filter(p -> p.toString().endsWith(".json")).forEach(p -> expected.add("metrics/" + p.getFileName()));
    }
    assertTrue(expected.contains("docs/install.md"), "docs/install.md is missing from the repository");
    assertTrue(expected.containsAll(Set.of("LICENSE", "NOTICE")), "LICENSE or NOTICE is missing from the repository");
    assertTrue(expected.containsAll(EmitterDimensionMapsTest.FILES.values()), "an emitter dimension map is missing");
    final Set<String> packaged = FILES.keySet()
                                      .stream()
                                      .filter(path -> !path.startsWith("extensions/"))
                                      .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(expected, packaged, "files besides the extensions");
  }

  /** The DruidModule service file of the jar being read from {@code in}, or "" when it has none. */
  private static String druidModules(InputStream in) throws IOException
  {
    final JarInputStream jar = new JarInputStream(in);
    for (ZipEntry entry = jar.getNextEntry(); entry != null; entry = jar.getNextEntry()) {
      if (DRUID_MODULE_SERVICE.equals(entry.getName())) {
        return new String(jar.readAllBytes(), StandardCharsets.UTF_8).trim();
      }
    }
    return "";
  }
}
