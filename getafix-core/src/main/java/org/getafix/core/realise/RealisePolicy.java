package org.getafix.core.realise;

import java.util.HashSet;
import java.util.Set;

/**
 * How plans are realised for one group of segments: the replica floor and when unwanted replicas may leave.
 *
 * @param floor          replicas a segment keeps whatever the plan says, ≥ 0; loads restoring it are never throttled
 * @param loadBeforeDrop when a replica outside the plan may be dropped
 */
public record RealisePolicy(int floor, LoadBeforeDrop loadBeforeDrop)
{
  public RealisePolicy
  {
    if (floor < 0) {
      throw new IllegalArgumentException("floor must be >= 0, got [" + floor + "]");
    }
    if (loadBeforeDrop == null) {
      throw new IllegalArgumentException("loadBeforeDrop is required");
    }
  }

  /**
   * The target of a segment whose plan is acted on. With no planned holder (the plan does not know the segment, or
   * plans it only on servers that are gone) it is the {@link #frozen} target.
   *
   * @param loaded  servers that serve the segment
   * @param loading servers whose load of it is queued or in progress, when the caller's queue does not count them
   *                itself (Druid's does: it never offers such a server to load it again)
   * @param planned live servers the plan puts the segment on
   */
  public ReplicaTarget target(String segmentId, Set<String> loaded, Set<String> loading, Set<String> planned)
  {
    if (planned.isEmpty()) {
      return frozen(segmentId, loaded, loading);
    }
    final int wanted;
    if (loadBeforeDrop == LoadBeforeDrop.PLANNED_COUNT_SERVING || loaded.containsAll(planned)) {
      wanted = planned.size();
    } else {
      final Set<String> union = new HashSet<>(loaded);
      union.addAll(planned);
      wanted = union.size();
    }
    return new ReplicaTarget(segmentId, Math.max(floor, wanted), true, floor, loaded, loading, planned);
  }

  /**
   * The target of a segment whose plan is not acted on (warm-up, dry run, a refused config, a segment the plan does
   * not know): what is loaded stays, and a segment below the floor is loaded up to it.
   */
  public ReplicaTarget frozen(String segmentId, Set<String> loaded, Set<String> loading)
  {
    return new ReplicaTarget(segmentId, Math.max(floor, loaded.size()), false, floor, loaded, loading, Set.of());
  }
}
