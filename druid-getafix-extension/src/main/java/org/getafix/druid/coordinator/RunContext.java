package org.getafix.druid.coordinator;

import javax.annotation.Nullable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * State of one Coordinator run, shared by the getafix rule and the getafix strategy: the plan snapshot the run
 * acts on (taken once, when Druid creates the run's strategy, so that every decision of the run sees the same
 * round), the churn budget left, and the rule's decision for the segment being handled.
 *
 * <p>Druid runs the rules of one run on one thread and calls the strategy from inside
 * {@code SegmentActionHandler.replicateSegment} on that thread (StrategicSegmentAssigner is not thread-safe), so the
 * rule can hand its {@link ReplicaTarget} to the strategy through {@link #current}. Plain fields suffice.
 */
public final class RunContext
{
  private final PlanSnapshot snapshot;
  private final AtomicLong loadsIssued;
  private final AtomicLong dropsIssued;
  private int loadsLeft;
  private int dropsLeft;
  @Nullable
  private ReplicaTarget current;

  /**
   * @param loadsIssued process-wide count of plan-driven loads, incremented as this run issues them
   * @param dropsIssued process-wide count of plan-driven drops, incremented as this run issues them
   */
  public RunContext(PlanSnapshot snapshot, AtomicLong loadsIssued, AtomicLong dropsIssued)
  {
    this.snapshot = snapshot;
    this.loadsIssued = loadsIssued;
    this.dropsIssued = dropsIssued;
    this.loadsLeft = snapshot.config().getMaxLoadsPerRound();
    this.dropsLeft = snapshot.config().getMaxDropsPerRound();
  }

  public PlanSnapshot snapshot()
  {
    return snapshot;
  }

  /** The rule's decision, if it is for {@code segmentId}. */
  @Nullable
  public ReplicaTarget currentFor(String segmentId)
  {
    final ReplicaTarget target = current;
    return target != null && target.segmentId().equals(segmentId) ? target : null;
  }

  void setCurrent(@Nullable ReplicaTarget target)
  {
    this.current = target;
  }

  /** Takes one plan-driven load from the budget; false when the round's budget is spent. */
  boolean tryLoad()
  {
    if (loadsLeft <= 0) {
      return false;
    }
    loadsLeft--;
    loadsIssued.incrementAndGet();
    return true;
  }

  /** Takes one plan-driven drop from the budget; false when the round's budget is spent. */
  boolean tryDrop()
  {
    if (dropsLeft <= 0) {
      return false;
    }
    dropsLeft--;
    dropsIssued.incrementAndGet();
    return true;
  }
}
