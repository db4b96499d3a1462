package org.getafix.distribution;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The repository as the build sees it, read from the poms rather than repeated in the tests: the modules, and which of
 * them build a Druid extension directory (the {@code extension-dir} execution of maven-assembly-plugin, whose
 * {@code finalName} is the directory's name and so the name in {@code druid.extensions.loadList}).
 */
final class ProjectLayout
{
  /** The execution id every extension module gives the assembly that builds its {@code target/extension/<name>/}. */
  static final String EXTENSION_EXECUTION_ID = "extension-dir";

  private ProjectLayout()
  {
  }

  static Path root()
  {
    return Paths.get(System.getProperty("getafix.projectRoot", "..")).toAbsolutePath().normalize();
  }

  static String version()
  {
    final String fromPom = text(parse(root().resolve("pom.xml")).getDocumentElement(), "version");
    return System.getProperty("getafix.version", fromPom);
  }

  /** Module directories in the root pom's order. */
  static List<Path> modules()
  {
    final List<Path> modules = new ArrayList<>();
    final Element project = parse(root().resolve("pom.xml")).getDocumentElement();
    for (Element module : children(child(project, "modules"), "module")) {
      modules.add(root().resolve(module.getTextContent().trim()));
    }
    return modules;
  }

  /** Extension directory name → artifactId of the module that builds it. */
  static Map<String, String> extensions()
  {
    final Map<String, String> extensions = new TreeMap<>();
    for (Path module : modules()) {
      final Element project = parse(module.resolve("pom.xml")).getDocumentElement();
      for (Element plugin : children(child(child(project, "build"), "plugins"), "plugin")) {
        if (!"maven-assembly-plugin".equals(text(plugin, "artifactId"))) {
          continue;
        }
        for (Element execution : children(child(plugin, "executions"), "execution")) {
          if (EXTENSION_EXECUTION_ID.equals(text(execution, "id"))) {
            extensions.put(text(child(execution, "configuration"), "finalName"), text(project, "artifactId"));
          }
        }
      }
    }
    return extensions;
  }

  /** Every module's artifactId: the jars that are ours. */
  static List<String> artifactIds()
  {
    final List<String> ids = new ArrayList<>();
    for (Path module : modules()) {
      ids.add(text(parse(module.resolve("pom.xml")).getDocumentElement(), "artifactId"));
    }
    return ids;
  }

  /** The main Java sources of every module. */
  static List<Path> mainSources()
  {
    final List<Path> sources = new ArrayList<>();
    for (Path module : modules()) {
      final Path dir = module.resolve("src/main/java");
      if (Files.isDirectory(dir)) {
        try (Stream<Path> files = Files.walk(dir)) {
          files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(sources::add);
        }
        catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return sources;
  }

  static String read(String relativePath)
  {
    try {
      return Files.readString(root().resolve(relativePath));
    }
    catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Document parse(Path pom)
  {
    try {
      return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }
    catch (Exception e) {
      throw new IllegalStateException("cannot read " + pom, e);
    }
  }

  /** The direct child element named {@code name}, or null (when {@code parent} is null too). */
  private static Element child(Element parent, String name)
  {
    final List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String name)
  {
    final List<Element> found = new ArrayList<>();
    if (parent != null) {
      final NodeList nodes = parent.getChildNodes();
      for (int i = 0; i < nodes.getLength(); i++) {
        final Node node = nodes.item(i);
        if (node instanceof Element && name.equals(node.getNodeName())) {
          found.add((Element) node);
        }
      }
    }
    return found;
  }

  private static String text(Element parent, String name)
  {
    final Element element = child(parent, name);
    return element == null ? null : element.getTextContent().trim();
  }
}
