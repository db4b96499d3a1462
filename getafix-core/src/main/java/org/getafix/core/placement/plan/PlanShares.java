package org.getafix.core.placement.plan;

import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A plan's segment → row map, immutable, over flat arrays in the order the strategy emitted the segments: segment
 * i's row is nodes and shares [rowStart[i], rowStart[i+1]). Rows are made when looked at, and the id index behind
 * {@link #get} is built on first lookup: a consumer that only iterates (the routing table, a JSON writer) never pays
 * for hashing a million ids, and the planner does not allocate a million small objects. Public for the packing
 * package only, which reads the last plan's shares in place ({@link #indexOf}, {@link #shareIn}); everyone else sees
 * it as a {@link Map}.
 */
public final class PlanShares extends AbstractMap<String, Map<String, Double>>
{
  private final String[] segmentIds;
  private final int[] rowStart;
  private final String[] nodes;
  private final double[] shares;
  // Benign race: two threads may both build the index; either result is complete and equal.
  private volatile Object2IntOpenHashMap<String> index;

  /**
   * @param segmentIds distinct ids
   * @param rowStart   segmentIds.length + 1 offsets into nodes and shares; each row's node ids sorted and distinct;
   *                   the arrays are owned by this map from now on
   */
  PlanShares(String[] segmentIds, int[] rowStart, String[] nodes, double[] shares)
  {
    this.segmentIds = segmentIds;
    this.rowStart = rowStart;
    this.nodes = nodes;
    this.shares = shares;
  }

  private ShareRow row(int i)
  {
    return new ShareRow(nodes, shares, rowStart[i], rowStart[i + 1]);
  }

  @Override
  public int size()
  {
    return segmentIds.length;
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
    return i >= 0 ? row(i) : null;
  }

  /**
   * The share row {@code nodeId} has in row {@code row} of this map, 0 if none: what {@code get} and the row's
   * {@code get} answer, without making the row. The planner asks this of a million segments when it is given the
   * last plan's shares, and rows are a few nodes long, so a scan beats a binary search of string comparisons.
   */
  public double shareIn(int row, String nodeId)
  {
    for (int i = rowStart[row]; i < rowStart[row + 1]; i++) {
      if (nodes[i].equals(nodeId)) {
        return shares[i];
      }
    }
    return 0;
  }

  /** The row of {@code segmentId}, or -1; see {@link #shareIn}. */
  public int indexOf(Object key)
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
        return segmentIds.length;
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
            return next < segmentIds.length;
          }

          @Override
          public Entry<String, Map<String, Double>> next()
          {
            if (next >= segmentIds.length) {
              throw new NoSuchElementException();
            }
            final int i = next++;
            return new SimpleImmutableEntry<>(segmentIds[i], row(i));
          }
        };
      }
    };
  }
}
