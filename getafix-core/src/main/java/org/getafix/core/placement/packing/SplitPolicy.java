package org.getafix.core.placement.packing;

/** How ModifiedBestFit splits a segment that no free bin takes whole. */
public enum SplitPolicy
{
  /**
   * As Algorithms 2.1 and 3.1 state it: the roomiest bin takes what it can and the remainder is re-queued. Fewest
   * replicas (the §2.2 example needs 5), but the plan's shares are only what Brokers route if they route by the
   * plan (ABR).
   */
  THESIS,
  /**
   * A segment larger than every free bin is split in equal parts over the roomiest bins, and a remainder goes
   * where the share a Broker will route to it fits: the shares are then what least-connections and random routing
   * do anyway. Ours; the default.
   */
  EVEN
}
