package org.getafix.core.registry;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The named members of one family (placement strategies, routing policies, capacity estimators, ...), in the order
 * they were registered. Every user of a family (the Druid glue, the simulator, the benchmarks, the docs tests) looks
 * names up here, so that a member has one name everywhere and adding one touches one place. The shape follows
 * Caffeine's simulator {@code Registry}: each family defines its own entry type, which carries the name, the factory,
 * the traits and the defaults; this class only owns the lookup and its error message.
 *
 * @param <E> the family's entry type
 */
public final class Registry<E extends Registry.Entry>
{
  /** One member of a family. */
  public interface Entry
  {
    /** The member's one name, as written in configs, scenarios and docs. */
    String name();
  }

  private final String family;
  private final Map<String, E> byName;

  private Registry(String family, Map<String, E> byName)
  {
    this.family = family;
    this.byName = Collections.unmodifiableMap(byName);
  }

  /**
   * @param family what the members are, for error messages ("placement strategy")
   * @throws IllegalArgumentException when two entries share a name
   */
  public static <E extends Entry> Registry<E> of(String family, List<E> entries)
  {
    final Map<String, E> byName = new LinkedHashMap<>();
    for (E entry : entries) {
      if (byName.putIfAbsent(entry.name(), entry) != null) {
        throw new IllegalArgumentException("two " + family + " entries are named [" + entry.name() + "]");
      }
    }
    return new Registry<>(family, byName);
  }

  /**
   * @throws IllegalArgumentException naming the known members when {@code name} is not one of them
   */
  public E get(String name)
  {
    final E entry = byName.get(name);
    if (entry == null) {
      throw new IllegalArgumentException("unknown " + family + " [" + name + "]; known: " + names());
    }
    return entry;
  }

  public Optional<E> find(String name)
  {
    return Optional.ofNullable(byName.get(name));
  }

  public boolean contains(String name)
  {
    return byName.containsKey(name);
  }

  /** The names in registration order. */
  public List<String> names()
  {
    return List.copyOf(byName.keySet());
  }

  public Collection<E> entries()
  {
    return byName.values();
  }

  public String family()
  {
    return family;
  }
}
