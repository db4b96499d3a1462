package org.getafix.core.placement;

import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A plan's segment → row map, immutable, over two arrays in the order the strategy emitted the segments. The id
 * index behind {@link #get} is built on first lookup: a consumer that only iterates (the routing table, a JSON
 * writer) never pays for hashing a million ids.
 */
final class PlanShares extends AbstractMap<String, Map<String, Double>>
{
  private final String[] segmentIds;
  private final ShareRow[] rows;
  // Benign race: two threads may both build the index; either result is complete and equal.
  private volatile Object2IntOpenHashMap<String> index;

  /** @param segmentIds distinct ids; the arrays are owned by this map from now on */
  PlanShares(String[] segmentIds, ShareRow[] rows)
  {
    this.segmentIds = segmentIds;
    this.rows = rows;
  }

  @Override
  public int size()
  {
    return rows.length;
  }

  @Override
  public boolean containsKey(Object key)
  {
    return indexOf(key) >= 0;
  }

  @Override
  public Map<String, Double> get(Object key)
  {
    final int i = indexOf(key);
    return i >= 0 ? rows[i] : null;
  }

  private int indexOf(Object key)
  {
    if (!(key instanceof String)) {
      return -1;
    }
    Object2IntOpenHashMap<String> built = index;
    if (built == null) {
      built = new Object2IntOpenHashMap<>(segmentIds.length);
      built.defaultReturnValue(-1);
      for (int i = 0; i < segmentIds.length; i++) {
        built.put(segmentIds[i], i);
      }
      index = built;
    }
    return built.getInt(key);
  }

  @Override
  public Set<Entry<String, Map<String, Double>>> entrySet()
  {
    return new AbstractSet<>()
    {
      @Override
      public int size()
      {
        return rows.length;
      }

      @Override
      public Iterator<Entry<String, Map<String, Double>>> iterator()
      {
        return new Iterator<>()
        {
          private int next;

          @Override
          public boolean hasNext()
          {
            return next < rows.length;
          }

          @Override
          public Entry<String, Map<String, Double>> next()
          {
            if (next >= rows.length) {
              throw new NoSuchElementException();
            }
            final int i = next++;
            return new SimpleImmutableEntry<>(segmentIds[i], rows[i]);
          }
        };
      }
    };
  }
}
