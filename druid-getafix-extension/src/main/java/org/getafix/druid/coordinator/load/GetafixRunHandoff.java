package org.getafix.druid.coordinator.load;

import org.getafix.core.realise.ReplicaTarget;
import org.getafix.core.realise.Rollback;

import javax.annotation.Nullable;

/**
 * Everything the getafix rule and the getafix strategy share, in one place because Druid's API gives them no other
 * channel: a {@code Rule} only gets the segment and a {@code SegmentActionHandler}, a {@code BalancerStrategy} only
 * the segment and the candidate servers. Bound as a singleton on every role (rules are deserialised everywhere);
 * only the Coordinator ever writes to it.
 *
 * <ul>
 *   <li><b>The run in progress.</b> At the start of every Coordinator run Druid's {@code PrepareBalancerAndLoadQueues}
 *   duty asks the configured {@code BalancerStrategyFactory} for the run's strategy; ours opens a
 *   {@link CoordinatorRun} here (plan snapshot, churn budget). The rule, run by {@code RunRules} later in
 *   the same run, acts on the plan only when there is such a run, i.e. when the strategy Druid uses is ours, and on
 *   that run's snapshot.</li>
 *   <li><b>The rule's decision for the segment being handled.</b> The rule calls
 *   {@code handler.replicateSegment}; inside it Druid's {@code StrategicSegmentAssigner} (one per run, not
 *   thread-safe, so on the rule's thread) calls the strategy's {@code findServersToLoadSegment} /
 *   {@code findServersToDropSegment} for that same segment. The rule leaves its {@link ReplicaTarget} here for the
 *   duration of that call, and the strategy reads it. Plain field: one thread.</li>
 *   <li><b>Which Historicals serve what</b> ({@link ServedSegments}): installed by the planner on the Coordinator,
 *   absent elsewhere, where the rule behaves as a plain load rule.</li>
 *   <li><b>Whether the getafix strategy is installed</b>, the churn of the runs so far, and where a rollback stood
 *   after the last run, for the planner's refusal check, its metrics and the status endpoint.</li>
 * </ul>
 */
public class GetafixRunHandoff
{
  @Nullable
  private volatile CoordinatorRun currentRun;
  @Nullable
  private ReplicaTarget currentTarget;
  @Nullable
  private volatile ServedSegments servedSegments;
  private volatile boolean strategyInstalled;
  /** Churn of the runs before the current one. */
  private long endedRunLoads;
  private long endedRunLoadBytes;
  private long endedRunDrops;
  /** What the last ended run left of a rollback; null when that run did not roll back. */
  @Nullable
  private volatile Rollback.Progress lastRollback;

  /** Called by the strategy factory when Druid starts a run. */
  synchronized void beginRun(CoordinatorRun run)
  {
    final CoordinatorRun previous = currentRun;
    if (previous != null) {
      endedRunLoads += previous.budget().loadsSpent();
      endedRunLoadBytes += previous.budget().loadBytesSpent();
      endedRunDrops += previous.budget().dropsSpent();
      lastRollback = previous.rollback().counted() ? previous.rollback().progress() : null;
    }
    currentRun = run;
  }

  /** The Coordinator run in progress, or null when Druid is not using the getafix strategy. */
  @Nullable
  public CoordinatorRun currentRun()
  {
    return currentRun;
  }

  /** The rule's decision while it calls the handler for that segment; null to clear it after the call. */
  void setCurrentTarget(@Nullable ReplicaTarget target)
  {
    currentTarget = target;
  }

  /** The rule's decision, if the rule is handling {@code segmentId} right now. */
  @Nullable
  public ReplicaTarget currentTargetFor(String segmentId)
  {
    final ReplicaTarget target = currentTarget;
    return target != null && target.segmentId().equals(segmentId) ? target : null;
  }

  @Nullable
  public ServedSegments servedSegments()
  {
    return servedSegments;
  }

  public void setServedSegments(@Nullable ServedSegments servedSegments)
  {
    this.servedSegments = servedSegments;
  }

  void markStrategyInstalled()
  {
    strategyInstalled = true;
  }

  /** Whether {@code druid.coordinator.balancer.strategy=getafix} (the factory was created in this process). */
  public boolean isStrategyInstalled()
  {
    return strategyInstalled;
  }

  /** Where the rollback stood after the last ended run; null when that run did not roll back. */
  @Nullable
  public Rollback.Progress rollbackProgress()
  {
    return lastRollback;
  }

  /** The phase a rollback is in for the run in progress: loading until a run has found nothing left to load. */
  Rollback.Phase rollbackPhase()
  {
    final Rollback.Progress progress = lastRollback;
    return progress == null ? Rollback.Phase.LOADING : progress.phase();
  }

  /** Plan-driven loads issued since this process started: the sum over its runs. */
  public synchronized long loadsIssued()
  {
    final CoordinatorRun run = currentRun;
    return endedRunLoads + (run == null ? 0 : run.budget().loadsSpent());
  }

  /** The bytes of the segments of {@link #loadsIssued}. */
  public synchronized long loadBytesIssued()
  {
    final CoordinatorRun run = currentRun;
    return endedRunLoadBytes + (run == null ? 0 : run.budget().loadBytesSpent());
  }

  /** Plan-driven drops issued since this process started: the sum over its runs. */
  public synchronized long dropsIssued()
  {
    final CoordinatorRun run = currentRun;
    return endedRunDrops + (run == null ? 0 : run.budget().dropsSpent());
  }
}
