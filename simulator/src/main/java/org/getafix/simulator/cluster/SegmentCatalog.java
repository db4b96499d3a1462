package org.getafix.simulator.cluster;

import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Every segment in creation order (its index), and the queryable ones by age, the way queries address them. */
final class SegmentCatalog
{
  private final List<Segment> segments = new ArrayList<>();
  private final Set<String> ids = new HashSet<>();
  /** Indices of queryable segments, oldest first (so age 0 is the last element). */
  private final IntArrayList queryable = new IntArrayList();
  private long bytes;

  Segment create(String id, long sizeBytes)
  {
    if (!ids.add(id)) {
      throw new IllegalArgumentException("duplicate segment id [" + id + "]");
    }
    final Segment segment = new Segment(segments.size(), id, sizeBytes);
    segments.add(segment);
    bytes += sizeBytes;
    return segment;
  }

  void markQueryable(Segment segment)
  {
    // Segments nearly always become queryable in creation order; keep the list sorted by creation anyway.
    int pos = queryable.size();
    while (pos > 0 && queryable.getInt(pos - 1) > segment.index()) {
      pos--;
    }
    queryable.add(pos, segment.index());
  }

  List<Segment> all()
  {
    return Collections.unmodifiableList(segments);
  }

  Segment get(int index)
  {
    return segments.get(index);
  }

  int size()
  {
    return segments.size();
  }

  /** The data set's size: every segment's bytes once. */
  long bytes()
  {
    return bytes;
  }

  int queryableCount()
  {
    return queryable.size();
  }

  Segment queryableByAge(int age)
  {
    return segments.get(queryable.getInt(queryable.size() - 1 - age));
  }
}
