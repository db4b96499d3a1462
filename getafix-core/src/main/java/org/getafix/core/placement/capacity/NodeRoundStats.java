package org.getafix.core.placement.capacity;

/**
 * What one Historical measured during one round. A raw measurement: it is not validated on construction, because a
 * node may report garbage (NaN, negative values after a counter reset) and the estimators must survive that by
 * keeping their last good estimate; see {@link #problem()}.
 *
 * @param cpuTimeSeconds  CPU time its query threads spent processing segments (excluding I/O waits), summed over
 *                        threads (thesis §3.1)
 * @param busyTimeSeconds utilisation-weighted busy time, i.e. utilisation × wallTimeSeconds: how long the node's
 *                        CPU allowance or processing threads were in use (see {@link MeasuredRound}). A node with 16
 *                        threads of which one was busy for the whole round reports wallTime/16
 * @param wallTimeSeconds length of the round on this node; &gt; 0
 * @param workUnits       work completed in the round, in a unit shared by all nodes that does not depend on the
 *                        node's speed ({@link MeasuredRound} uses CPU seconds)
 * @param stalledSeconds  how long in the round the node could not run when it should have (0 when it does not say);
 *                        at most wallTimeSeconds
 */
public record NodeRoundStats(
    double cpuTimeSeconds,
    double busyTimeSeconds,
    double wallTimeSeconds,
    double workUnits,
    double stalledSeconds
)
{
  /** A round without a measure of stalls. */
  public NodeRoundStats(double cpuTimeSeconds, double busyTimeSeconds, double wallTimeSeconds, double workUnits)
  {
    this(cpuTimeSeconds, busyTimeSeconds, wallTimeSeconds, workUnits, 0);
  }

  /**
   * Why these stats cannot be used, or null when they can: every value must be finite and ≥ 0, the round must have
   * a positive length, and a node cannot be busy for longer than the round.
   */
  public String problem()
  {
    if (!nonNegativeFinite(cpuTimeSeconds)) {
      return "cpuTimeSeconds [" + cpuTimeSeconds + "] is not a finite number >= 0";
    }
    if (!nonNegativeFinite(busyTimeSeconds)) {
      return "busyTimeSeconds [" + busyTimeSeconds + "] is not a finite number >= 0";
    }
    if (!nonNegativeFinite(wallTimeSeconds) || wallTimeSeconds == 0) {
      return "wallTimeSeconds [" + wallTimeSeconds + "] is not a finite number > 0";
    }
    if (!nonNegativeFinite(workUnits)) {
      return "workUnits [" + workUnits + "] is not a finite number >= 0";
    }
    if (!nonNegativeFinite(stalledSeconds) || stalledSeconds > wallTimeSeconds * 1.01) {
      return "stalledSeconds [" + stalledSeconds + "] is not a finite number in [0, wallTimeSeconds]";
    }
    // A small tolerance: busy and wall time are read from different clocks.
    if (busyTimeSeconds > wallTimeSeconds * 1.01) {
      return "busyTimeSeconds [" + busyTimeSeconds + "] exceeds wallTimeSeconds [" + wallTimeSeconds + "]";
    }
    return null;
  }

  private static boolean nonNegativeFinite(double v)
  {
    return Double.isFinite(v) && v >= 0;
  }
}
