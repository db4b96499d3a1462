package org.getafix.druid.coordinator.stats;

import org.apache.druid.java.util.common.guava.Comparators;
import org.apache.druid.timeline.DataSegment;
import org.joda.time.Interval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The segment each segment follows, for getafix-core's popularity inheritance
 * ({@code SegmentSample#predecessorId}): in the same datasource, a segment of the latest interval that
 * starts before its own, with the same partition number if there is one, else that interval's first partition.
 * Segments of a datasource's earliest interval have none.
 */
final class SegmentPredecessors
{
  private SegmentPredecessors()
  {
  }

  /** Segment id → id of the segment it follows; segments without one are absent. */
  static Map<String, String> of(Collection<DataSegment> segments)
  {
    final Map<String, TreeMap<Interval, List<DataSegment>>> byDatasource = new HashMap<>();
    for (DataSegment segment : segments) {
      byDatasource.computeIfAbsent(segment.getDataSource(), d -> new TreeMap<>(Comparators.intervalsByStartThenEnd()))
                  .computeIfAbsent(segment.getInterval(), i -> new ArrayList<>())
                  .add(segment);
    }
    final Map<String, String> predecessors = new HashMap<>();
    for (TreeMap<Interval, List<DataSegment>> intervals : byDatasource.values()) {
      List<DataSegment> previous = null;
      for (List<DataSegment> current : intervals.values()) {
        if (previous != null) {
          for (DataSegment segment : current) {
            predecessors.put(segment.getId().toString(), samePartitionOrFirst(previous, segment).getId().toString());
          }
        }
        previous = current;
      }
    }
    return predecessors;
  }

  private static DataSegment samePartitionOrFirst(List<DataSegment> interval, DataSegment segment)
  {
    DataSegment first = interval.get(0);
    for (DataSegment candidate : interval) {
      if (candidate.getShardSpec().getPartitionNum() == segment.getShardSpec().getPartitionNum()) {
        return candidate;
      }
      if (candidate.getShardSpec().getPartitionNum() < first.getShardSpec().getPartitionNum()) {
        first = candidate;
      }
    }
    return first;
  }
}
