package org.getafix.benchmarks.planning;

import org.apache.druid.server.coordinator.loading.LoadPeonCallback;
import org.apache.druid.server.coordinator.loading.LoadQueuePeon;
import org.apache.druid.server.coordinator.loading.SegmentAction;
import org.apache.druid.server.coordinator.loading.SegmentHolder;
import org.apache.druid.server.coordinator.stats.CoordinatorRunStats;
import org.apache.druid.timeline.DataSegment;

import java.util.Set;

/**
 * The load queue of a Historical that has finished all its earlier work: nothing queued. The benchmark stops at the
 * balancer's decision, so no load is ever sent; {@link org.apache.druid.server.coordinator.ServerHolder} keeps the
 * decisions of the run itself, as it does in a Coordinator run.
 */
final class IdleLoadQueuePeon implements LoadQueuePeon
{
  @Override
  public void start()
  {
  }

  @Override
  public void stop()
  {
  }

  @Override
  public Set<DataSegment> getSegmentsToLoad()
  {
    return Set.of();
  }

  @Override
  public Set<SegmentHolder> getSegmentsInQueue()
  {
    return Set.of();
  }

  @Override
  public Set<DataSegment> getSegmentsToDrop()
  {
    return Set.of();
  }

  @Override
  public Set<DataSegment> getTimedOutSegments()
  {
    return Set.of();
  }

  @Override
  public void markSegmentToDrop(DataSegment segmentToLoad)
  {
    throw new UnsupportedOperationException("the planning benchmark never drops");
  }

  @Override
  public void unmarkSegmentToDrop(DataSegment segmentToLoad)
  {
    throw new UnsupportedOperationException("the planning benchmark never drops");
  }

  @Override
  public Set<DataSegment> getSegmentsMarkedToDrop()
  {
    return Set.of();
  }

  @Override
  public void loadSegment(DataSegment segment, SegmentAction action, LoadPeonCallback callback)
  {
    throw new UnsupportedOperationException("the planning benchmark stops at the balancer's decision");
  }

  @Override
  public void dropSegment(DataSegment segment, LoadPeonCallback callback)
  {
    throw new UnsupportedOperationException("the planning benchmark never drops");
  }

  @Override
  public long getSizeOfSegmentsToLoad()
  {
    return 0;
  }

  @Override
  public long getLoadRateKbps()
  {
    return 0;
  }

  @Override
  public CoordinatorRunStats getAndResetStats()
  {
    return CoordinatorRunStats.empty();
  }

  @Override
  public boolean cancelOperation(DataSegment segment)
  {
    return false;
  }
}
