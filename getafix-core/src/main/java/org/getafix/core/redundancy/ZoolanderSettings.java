package org.getafix.core.redundancy;

/**
 * Settings of a {@link ZoolanderModel}, validated on construction.
 *
 * @param networkMillis        μ_net: mean network delay deducted from the latency bound, ≥ 0 (0 when the measured
 *                             latencies are the Broker's own, which already include the network)
 * @param perDuplicateMillis   μ_rep: the cost of sending one more duplicate and pruning its late reply, ≥ 0;
 *                             N duplicates deduct N·μ_rep
 * @param maxDuplicates        the most duplicates {@link ZoolanderModel#decide} considers, ≥ 1
 * @param minGainPerDuplicate  the service level each duplicate beyond one must add to be worth its load, in [0, 1)
 *                             (Zoolander §4 weighs the cost of a node against the cost of the violations it masks)
 */
public record ZoolanderSettings(
    double networkMillis,
    double perDuplicateMillis,
    int maxDuplicates,
    double minGainPerDuplicate
)
{
  public static final ZoolanderSettings DEFAULTS = new ZoolanderSettings(0, 0.5, 3, 0.001);

  public ZoolanderSettings
  {
    if (!(Double.isFinite(networkMillis) && networkMillis >= 0)) {
      throw new IllegalArgumentException("networkMillis must be a finite number >= 0, got [" + networkMillis + "]");
    }
    if (!(Double.isFinite(perDuplicateMillis) && perDuplicateMillis >= 0)) {
      throw new IllegalArgumentException(
          "perDuplicateMillis must be a finite number >= 0, got [" + perDuplicateMillis + "]"
      );
    }
    if (maxDuplicates < 1) {
      throw new IllegalArgumentException("maxDuplicates must be >= 1, got [" + maxDuplicates + "]");
    }
    if (!(minGainPerDuplicate >= 0 && minGainPerDuplicate < 1)) {
      throw new IllegalArgumentException("minGainPerDuplicate must be in [0, 1), got [" + minGainPerDuplicate + "]");
    }
  }
}
