package org.getafix.simulator.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The built-in scenarios are whatever JSON files the resources folder holds, in a directory or in a jar. */
class BuiltInScenariosTest
{
  @Test
  void listsEveryJsonFileOfTheResourcesFolder() throws IOException
  {
    // Surefire runs in the module directory.
    try (Stream<Path> files = Files.list(Path.of("src/main/resources/scenarios"))) {
      final List<String> inFolder = files.map(f -> f.getFileName().toString())
                                         .filter(f -> f.endsWith(".json"))
                                         .map(f -> f.substring(0, f.length() - ".json".length()))
                                         .sorted()
                                         .toList();
      assertEquals(
          14,
          inFolder.size(),
          "the six thesis scenarios, live-3, the two untuned clusters, budget-control, the three redundancy "
          + "scenarios and stalls-live-3: " + inFolder
      );
      assertEquals(inFolder, BuiltInScenarios.names());
    }
  }

  @Test
  void aScenarioDroppedInTheFolderIsListed(@TempDir Path root) throws IOException
  {
    final Path folder = Files.createDirectories(root.resolve("scenarios"));
    Files.writeString(folder.resolve("dropped-in.json"), "{}");
    Files.writeString(folder.resolve("notes.txt"), "not a scenario");
    Files.createDirectories(folder.resolve("nested.json"));
    assertEquals(List.of("dropped-in"), namesOn(root));
  }

  @Test
  void aScenarioInAJarIsListed(@TempDir Path dir) throws IOException
  {
    final Path jar = dir.resolve("scenarios.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("scenarios/"));
      put(out, "scenarios/in-a-jar.json");
      put(out, "scenarios/older/not-listed.json");
      put(out, "other/not-a-scenario.json");
    }
    assertEquals(List.of("in-a-jar"), namesOn(jar));
  }

  private static void put(JarOutputStream jar, String entry) throws IOException
  {
    jar.putNextEntry(new JarEntry(entry));
    jar.write("{}".getBytes(StandardCharsets.UTF_8));
  }

  /** The scenarios of a class path holding only {@code root}. */
  private static List<String> namesOn(Path root) throws IOException
  {
    try (URLClassLoader loader = new URLClassLoader(new URL[]{root.toUri().toURL()}, null)) {
      return BuiltInScenarios.namesOn(loader);
    }
  }
}
