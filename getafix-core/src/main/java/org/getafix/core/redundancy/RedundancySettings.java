package org.getafix.core.redundancy;

/**
 * Settings of an {@link UpfrontRedundancy}, validated on construction so that a bad setting fails when the Broker
 * starts.
 *
 * @param boundMillis        Zoolander's latency bound τ for one sub-query, &gt; 0
 * @param serviceLevelTarget the share of sub-queries within τ that Zoolander's copies aim at, in (0, 1]: a holder
 *                           predicted to reach it alone gets no copy
 * @param slotsPerNode       the sub-queries a Historical runs at once (its processing threads), ≥ 1: TAD's tokens per
 *                           Historical, sPARE's capacity per Historical and the model's parallelism
 * @param replicator         sPARE's search
 * @param zoolander          Zoolander's model (at most one copy is sent whatever its {@code maxDuplicates})
 */
public record RedundancySettings(
    double boundMillis,
    double serviceLevelTarget,
    int slotsPerNode,
    ReplicatorSettings replicator,
    ZoolanderSettings zoolander
)
{
  public RedundancySettings
  {
    if (!(Double.isFinite(boundMillis) && boundMillis > 0)) {
      throw new IllegalArgumentException("boundMillis must be a finite number > 0, got [" + boundMillis + "]");
    }
    if (!(serviceLevelTarget > 0 && serviceLevelTarget <= 1)) {
      throw new IllegalArgumentException("serviceLevelTarget must be in (0, 1], got [" + serviceLevelTarget + "]");
    }
    if (slotsPerNode < 1) {
      throw new IllegalArgumentException("slotsPerNode must be >= 1, got [" + slotsPerNode + "]");
    }
    if (replicator == null || zoolander == null) {
      throw new IllegalArgumentException("replicator and zoolander settings must be set");
    }
  }
}
