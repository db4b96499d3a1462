package org.getafix.simulator.settings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The built-in scenarios: every {@code scenarios/<name>.json} resource, found by listing the {@code scenarios}
 * folder of each classpath root, a directory ({@code target/classes} in tests) or a jar (the shaded simulator
 * jar; the jar and shade plugins write the folder's own entry, which is how the class loader finds it). A scenario
 * file dropped in {@code src/main/resources/scenarios} is thus listed with no code change.
 */
public final class BuiltInScenarios
{
  private static final String FOLDER = "scenarios";
  private static final String SUFFIX = ".json";

  private BuiltInScenarios()
  {
  }

  /** The names of the built-in scenarios, sorted; {@code ScenarioParser.load(name)} reads each. */
  public static List<String> names()
  {
    return namesOn(BuiltInScenarios.class.getClassLoader());
  }

  /** The classpath resource of the built-in scenario {@code name}. */
  static String resourcePath(String name)
  {
    return "/" + FOLDER + "/" + name + SUFFIX;
  }

  static List<String> namesOn(ClassLoader loader)
  {
    final Set<String> names = new TreeSet<>();
    try {
      final Enumeration<URL> folders = loader.getResources(FOLDER);
      while (folders.hasMoreElements()) {
        final URL folder = folders.nextElement();
        switch (folder.getProtocol()) {
          case "file" -> namesInDirectory(Path.of(folder.toURI()), names);
          case "jar" -> namesInJar((JarURLConnection) folder.openConnection(), names);
          default -> throw new IllegalStateException("cannot list scenarios in [" + folder + "]");
        }
      }
    }
    catch (IOException e) {
      throw new UncheckedIOException("cannot list the built-in scenarios", e);
    }
    catch (URISyntaxException e) {
      throw new IllegalStateException("cannot list the built-in scenarios", e);
    }
    return List.copyOf(names);
  }

  private static void namesInDirectory(Path folder, Set<String> names) throws IOException
  {
    try (Stream<Path> files = Files.list(folder)) {
      files.filter(Files::isRegularFile)
           .map(f -> f.getFileName().toString())
           .filter(f -> f.endsWith(SUFFIX))
           .forEach(f -> names.add(f.substring(0, f.length() - SUFFIX.length())));
    }
  }

  private static void namesInJar(JarURLConnection folder, Set<String> names) throws IOException, URISyntaxException
  {
    final String prefix = FOLDER + "/";
    try (JarFile jar = new JarFile(Path.of(folder.getJarFileURL().toURI()).toFile())) {
      final Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        final String entry = entries.nextElement().getName();
        final String file = entry.startsWith(prefix) ? entry.substring(prefix.length()) : "";
        if (file.endsWith(SUFFIX) && !file.contains("/")) {
          names.add(file.substring(0, file.length() - SUFFIX.length()));
        }
      }
    }
  }
}
