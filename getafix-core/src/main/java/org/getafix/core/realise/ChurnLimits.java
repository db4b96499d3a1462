package org.getafix.core.realise;

/**
 * The plan-driven loads and drops a round may issue; loads that restore a floor are not counted.
 *
 * @param maxLoads loads (and moves) per round, ≥ 0
 * @param maxDrops drops per round, ≥ 0
 */
public record ChurnLimits(int maxLoads, int maxDrops)
{
  /** No limit: every load and drop the plan asks for is issued in the round it is asked. */
  public static final ChurnLimits UNLIMITED = new ChurnLimits(Integer.MAX_VALUE, Integer.MAX_VALUE);

  /** The budget of a new round. */
  public ChurnBudget newRound()
  {
    return new ChurnBudget(maxLoads, maxDrops);
  }
}
