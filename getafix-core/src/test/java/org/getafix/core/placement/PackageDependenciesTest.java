package org.getafix.core.placement;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The placement packages depend on each other one way only: the planning round (this package) on top, the plan's
 * inputs and results ({@code plan}) at the bottom. Read from the main sources, where a package can name another only
 * by its full name (an import, a qualified name or a javadoc link), so a reference in documentation counts too.
 */
class PackageDependenciesTest
{
  private static final String ROOT = "org.getafix.core.placement";
  private static final Path SOURCES = Path.of("src/main/java", ROOT.split("\\."));
  /** A placement class named in full; group 1 is its subpackage, absent for this package. */
  private static final Pattern REFERENCE = Pattern.compile("\\b" + Pattern.quote(ROOT) + "(\\.[a-z]\\w*)?\\.[A-Z]");

  @Test
  void packagesAreLayeredWithTheRoundOnTopAndThePlanAtTheBottom() throws IOException
  {
    final Map<String, Set<String>> uses = packageDependencies();
    assertTrue(uses.getOrDefault(ROOT, Set.of()).contains(ROOT + ".strategy"), "the sources were read: " + uses);
    uses.forEach((from, to) -> assertFalse(to.contains(ROOT), from + " depends on the planning round's package"));
    assertEquals(Set.of(), uses.get(ROOT + ".plan"), "what the plan package depends on");
    assertEquals(Set.of(), inOrAboveACycle(uses), "packages in or above a cycle, with " + uses);
  }

  /** Package → the other placement packages its main sources name. */
  private static Map<String, Set<String>> packageDependencies() throws IOException
  {
    final Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList())) {
        final String from = ROOT + subpackage(SOURCES.relativize(file.getParent()));
        final Set<String> to = uses.computeIfAbsent(from, p -> new TreeSet<>());
        final Matcher reference = REFERENCE.matcher(Files.readString(file));
        while (reference.find()) {
          final String used = ROOT + (reference.group(1) == null ? "" : reference.group(1));
          if (!used.equals(from)) {
            to.add(used);
          }
        }
      }
    }
    return uses;
  }

  private static String subpackage(Path relative)
  {
    final String dotted = relative.toString().replace(relative.getFileSystem().getSeparator(), ".");
    return dotted.isEmpty() ? "" : "." + dotted;
  }

  /**
   * The packages left after taking away, layer by layer, those that use only packages taken away before: empty when
   * the dependencies are layered, else the packages of a cycle and those that use them.
   */
  private static Set<String> inOrAboveACycle(Map<String, Set<String>> uses)
  {
    final Set<String> left = new TreeSet<>(uses.keySet());
    Set<String> layer;
    do {
      layer = left.stream().filter(p -> uses.get(p).stream().noneMatch(left::contains)).collect(Collectors.toSet());
      left.removeAll(layer);
    } while (!layer.isEmpty());
    return left;
  }
}
