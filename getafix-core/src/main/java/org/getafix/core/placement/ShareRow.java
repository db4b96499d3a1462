package org.getafix.core.placement;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One segment's row of a plan, node id → share: an immutable map over two arrays, keys sorted by node id. A plan
 * holds a million of these, and a LinkedHashMap per segment costs more than the whole placement; this costs two
 * small arrays. Lookups binary-search the sorted ids.
 */
final class ShareRow extends AbstractMap<String, Double>
{
  private final String[] nodes;
  private final double[] shares;

  /** @param nodes node ids, sorted and distinct; the arrays are owned by the row from now on */
  ShareRow(String[] nodes, double[] shares)
  {
    this.nodes = nodes;
    this.shares = shares;
  }

  @Override
  public int size()
  {
    return nodes.length;
  }

  @Override
  public boolean containsKey(Object key)
  {
    return indexOf(key) >= 0;
  }

  @Override
  public Double get(Object key)
  {
    final int i = indexOf(key);
    return i >= 0 ? shares[i] : null;
  }

  private int indexOf(Object key)
  {
    return key instanceof String ? Arrays.binarySearch(nodes, (String) key) : -1;
  }

  @Override
  public Set<Entry<String, Double>> entrySet()
  {
    return new AbstractSet<>()
    {
      @Override
      public int size()
      {
        return nodes.length;
      }

      @Override
      public Iterator<Entry<String, Double>> iterator()
      {
        return new Iterator<>()
        {
          private int next;

          @Override
          public boolean hasNext()
          {
            return next < nodes.length;
          }

          @Override
          public Entry<String, Double> next()
          {
            if (next >= nodes.length) {
              throw new NoSuchElementException();
            }
            final int i = next++;
            return new SimpleImmutableEntry<>(nodes[i], shares[i]);
          }
        };
      }
    };
  }
}
