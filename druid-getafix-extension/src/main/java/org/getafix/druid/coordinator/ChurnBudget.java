package org.getafix.druid.coordinator;

/**
 * The plan-driven loads and drops one Coordinator run may still issue: {@code maxLoadsPerRound} and
 * {@code maxDropsPerRound} of the run's dynamic config. Like Druid's {@code ReplicationThrottler}, a fresh one per
 * run (see {@link CoordinatorRun}), used on the run's thread only.
 */
public final class ChurnBudget
{
  private int loadsLeft;
  private int dropsLeft;

  public ChurnBudget(int maxLoads, int maxDrops)
  {
    this.loadsLeft = maxLoads;
    this.dropsLeft = maxDrops;
  }

  /** Takes one load from the budget; false when the run's budget is spent. */
  public boolean tryLoad()
  {
    if (loadsLeft <= 0) {
      return false;
    }
    loadsLeft--;
    return true;
  }

  /** Takes one drop from the budget; false when the run's budget is spent. */
  public boolean tryDrop()
  {
    if (dropsLeft <= 0) {
      return false;
    }
    dropsLeft--;
    return true;
  }
}
