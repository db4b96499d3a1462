package org.getafix.druid.coordinator;

import javax.annotation.Nullable;

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
  private int loadsLeft;
  private int dropsLeft;
  private int loadsIssued;
  private int dropsIssued;
  @Nullable
  private ReplicaTarget current;

  public RunContext(PlanSnapshot snapshot)
  {
    this.snapshot = snapshot;
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
    loadsIssued++;
    return true;
  }

  /** Takes one plan-driven drop from the budget; false when the round's budget is spent. */
  boolean tryDrop()
  {
    if (dropsLeft <= 0) {
      return false;
    }
    dropsLeft--;
    dropsIssued++;
    return true;
  }

  public int loadsIssued()
  {
    return loadsIssued;
  }

  public int dropsIssued()
  {
    return dropsIssued;
  }
}
