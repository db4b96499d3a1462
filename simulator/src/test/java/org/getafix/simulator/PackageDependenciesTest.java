package org.getafix.simulator;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's packages depend on each other one way only, the driver (this package) on top: read from the
 * compiled classes with jdeps, so that a cycle through any reference (a field type, a nested record) is caught.
 */
class PackageDependenciesTest
{
  private static final String ROOT = "org.getafix.simulator";

  @Test
  void packagesFormNoCycleAndOnlyTheDriverSeesThemAll() throws Exception
  {
    final Map<String, Set<String>> uses = packageDependencies();
    assertTrue(uses.getOrDefault(ROOT, Set.of()).contains(ROOT + ".cluster"), "jdeps saw the driver: " + uses);
    uses.forEach((from, to) -> assertFalse(to.contains(ROOT), from + " depends on the driver package"));
    for (String start : uses.keySet()) {
      final List<String> cycle = cycleFrom(start, start, uses, new ArrayList<>(List.of(start)));
      assertEquals(List.of(), cycle, "package cycle");
    }
  }

  /** Package → simulator packages it uses, from {@code jdeps -verbose:package} on the main classes. */
  private static Map<String, Set<String>> packageDependencies() throws Exception
  {
    final Path classes = Path.of(SimulationRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final int status = ToolProvider.findFirst("jdeps").orElseThrow().run(
        new PrintWriter(out),
        new PrintWriter(err),
        "-verbose:package",
        "-e", ROOT.replace(".", "\\.") + ".*",
        classes.toString()
    );
    assertEquals(0, status, err.toString());
    final Map<String, Set<String>> uses = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      final String[] words = line.trim().split("\\s+");
      if (words.length >= 3 && "->".equals(words[1]) && !words[0].equals(words[2])) {
        uses.computeIfAbsent(words[0], p -> new TreeSet<>()).add(words[2]);
      }
    }
    return uses;
  }

  /** A path from {@code at} back to {@code start}, as the packages visited, or an empty list. */
  private static List<String> cycleFrom(String start, String at, Map<String, Set<String>> uses, List<String> path)
  {
    for (String next : uses.getOrDefault(at, Set.of())) {
      if (next.equals(start)) {
        final List<String> cycle = new ArrayList<>(path);
        cycle.add(next);
        return cycle;
      }
      if (!path.contains(next)) {
        path.add(next);
        final List<String> cycle = cycleFrom(start, next, uses, path);
        if (!cycle.isEmpty()) {
          return cycle;
        }
        path.remove(path.size() - 1);
      }
    }
    return List.of();
  }
}
