package org.getafix.core.placement.plan;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One segment's row of a plan, node id → share: an immutable map over a range of two arrays that hold the rows of
 * all segments, keys sorted by node id. A plan holds a million rows, and a LinkedHashMap per segment costs more than
 * the whole placement; a row costs nothing until it is looked at. Lookups binary-search the sorted ids.
 */
final class ShareRow extends AbstractMap<String, Double>
{
  private final String[] nodes;
  private final double[] shares;
  private final int from;
  private final int to;

  /** @param nodes node ids, sorted and distinct in [from, to); the arrays are not modified by anyone any more */
  ShareRow(String[] nodes, double[] shares, int from, int to)
  {
    this.nodes = nodes;
    this.shares = shares;
    this.from = from;
    this.to = to;
  }

  @Override
  public int size()
  {
    return to - from;
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
    return key instanceof String ? Arrays.binarySearch(nodes, from, to, (String) key) : -1;
  }

  @Override
  public Set<Entry<String, Double>> entrySet()
  {
    return new AbstractSet<>()
    {
      @Override
      public int size()
      {
        return to - from;
      }

      @Override
      public Iterator<Entry<String, Double>> iterator()
      {
        return new Iterator<>()
        {
          private int next = from;

          @Override
          public boolean hasNext()
          {
            return next < to;
          }

          @Override
          public Entry<String, Double> next()
          {
            if (next >= to) {
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
