package org.getafix.core.contract;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The {@code druid.getafix.*} runtime properties one extension owns, and those of them it does not know. Druid ignores
 * a runtime property nothing reads, so a misspelt key would silently leave its default in force. The roles share
 * {@code common.runtime.properties} and each extension reads only its own part of {@code druid.getafix.*}, so each
 * judges only the keys under its prefix minus those of the other extensions: a Broker key in the common file is not
 * unknown to the Coordinator's extension. The known keys are read from the extension's config classes, as Druid's
 * {@code JsonConfigurator} binds them, so that they cannot fall behind the code. Immutable.
 */
public final class OwnedProperties
{
  public static final String ROOT = "druid.getafix";
  /** broker-routing's routing round. */
  public static final String ROUTING = ROOT + ".routing";
  /** quality-monitor's budgeted queries. */
  public static final String QUALITY = QualityKnobs.PREFIX;

  private final String prefix;
  private final List<String> others;
  private final Set<String> keys;
  private final Set<String> maps;

  private OwnedProperties(String prefix, List<String> others, Set<String> keys, Set<String> maps)
  {
    this.prefix = prefix;
    this.others = others;
    this.keys = keys;
    this.maps = maps;
  }

  /**
   * The keys under {@code prefix} but not under any of {@code others}, which other extensions own; no key known yet.
   */
  public static OwnedProperties under(String prefix, List<String> others)
  {
    for (String other : others) {
      if (!other.startsWith(prefix + ".")) {
        throw new IllegalArgumentException("[" + other + "] is not under [" + prefix + "]");
      }
    }
    return new OwnedProperties(Objects.requireNonNull(prefix, "prefix"), List.copyOf(others), Set.of(), Set.of());
  }

  /**
   * With the keys of a config class bound at {@code prefix}, as Druid's {@code JsonConfigurator} reads
   * {@code prefix.a.b=v} into {@code {"a": {"b": v}}}: {@code prefix.name} for each property, a level more for each
   * property of a nested config class, and any key below a map-valued property (its entries). A key naming a nested
   * config is known too, as it may hold the whole object in JSON.
   *
   * @param propertyName the property a field binds, or null for a field that binds none (e.g. read from Jackson's
   *                     {@code @JsonProperty}, which getafix-core does not depend on)
   */
  public OwnedProperties withConfig(String configPrefix, Class<?> config, Function<Field, String> propertyName)
  {
    final Set<String> withKeys = new TreeSet<>(keys);
    final Set<String> withMaps = new TreeSet<>(maps);
    addConfig(configPrefix, config, propertyName, withKeys, withMaps);
    return new OwnedProperties(prefix, others, Set.copyOf(withKeys), Set.copyOf(withMaps));
  }

  private static void addConfig(
      String configPrefix,
      Class<?> config,
      Function<Field, String> propertyName,
      Set<String> keys,
      Set<String> maps
  )
  {
    for (Class<?> c = config; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        final String name = Modifier.isStatic(field.getModifiers()) ? null : propertyName.apply(field);
        if (name == null) {
          continue;
        }
        final String key = configPrefix + "." + name;
        keys.add(key);
        if (Map.class.isAssignableFrom(field.getType())) {
          maps.add(key);
        } else if (field.getType() != config && hasProperties(field.getType(), propertyName)) {
          addConfig(key, field.getType(), propertyName, keys, maps);
        }
      }
    }
  }

  private static boolean hasProperties(Class<?> type, Function<Field, String> propertyName)
  {
    if (type.isPrimitive() || type.isEnum() || type.isArray()) {
      return false;
    }
    for (Field field : type.getDeclaredFields()) {
      if (!Modifier.isStatic(field.getModifiers()) && propertyName.apply(field) != null) {
        return true;
      }
    }
    return false;
  }

  /** The keys this extension reads; a map-valued one also stands for any key below it. */
  public Set<String> keys()
  {
    return keys;
  }

  /** Whether {@code key} is under this extension's prefix and not under another extension's. */
  public boolean owns(String key)
  {
    return key.startsWith(prefix + ".") && others.stream().noneMatch(o -> key.equals(o) || key.startsWith(o + "."));
  }

  public boolean knows(String key)
  {
    return keys.contains(key) || maps.stream().anyMatch(m -> key.startsWith(m + "."));
  }

  /** The keys among {@code names} that this extension owns but does not know, sorted, each with its nearest key. */
  public List<Unknown> unknown(Collection<String> names)
  {
    final List<Unknown> unknown = new ArrayList<>();
    for (String key : new TreeSet<>(names)) {
      if (owns(key) && !knows(key)) {
        unknown.add(new Unknown(key, nearest(key)));
      }
    }
    return unknown;
  }

  /**
   * The known key closest to {@code key} in edits, or the key with its leading segments put under the other
   * extension's prefix they misspell ({@code druid.getafix.routng.period} → {@code druid.getafix.routing.period}),
   * or null when nothing is within a third of the length of what follows {@value #ROOT}.
   */
  String nearest(String key)
  {
    final List<String> candidates = new ArrayList<>(keys);
    for (String other : others) {
      final String[] otherParts = other.split("\\.");
      final String otherSegment = otherParts[otherParts.length - 1];
      final String[] parts = key.split("\\.", otherParts.length + 1);
      // Only where the segment in the other extension's place is a near miss of its name.
      if (parts.length > otherParts.length
          && halfEdits(parts[otherParts.length - 1], otherSegment) <= 2 * Math.max(1, otherSegment.length() / 3)) {
        candidates.add(other + "." + parts[otherParts.length]);
      }
    }
    final int allowedEdits = Math.max(2, (key.length() - ROOT.length() - 1) / 3);
    String nearest = null;
    int best = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      final int distance = halfEdits(key, candidate);
      if (distance <= 2 * allowedEdits && distance < best) {
        best = distance;
        nearest = candidate;
      }
    }
    return nearest;
  }

  /**
   * Levenshtein distance in half edits: an insertion, deletion or substitution costs 2, a change of case 1, so that
   * a key that differs only in case ranks first.
   */
  static int halfEdits(String a, String b)
  {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = 2 * j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = 2 * i;
      for (int j = 1; j <= b.length(); j++) {
        final char x = a.charAt(i - 1);
        final char y = b.charAt(j - 1);
        final int substitution = x == y ? 0 : Character.toLowerCase(x) == Character.toLowerCase(y) ? 1 : 2;
        current[j] = Math.min(previous[j - 1] + substitution, Math.min(previous[j], current[j - 1]) + 2);
      }
      final int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  /** A key an extension owns but does not read, and the known key nearest to it, or null. */
  public record Unknown(String key, String nearest)
  {
    /** What the extension {@code reader} logs about it. */
    public String message(String reader)
    {
      return "Unknown runtime property [" + key + "], which " + reader + " ignores"
             + (nearest == null ? "" : "; did you mean [" + nearest + "]?");
    }
  }
}
