package org.getafix.druid.coordinator;

import java.util.HashSet;
import java.util.Set;

/**
 * How many replicas the getafix rule asks Druid for in the planned tier, and what the strategy may do for one
 * segment (design.md §3, "realising a plan with load-before-drop"). Let L be the live servers serving the segment
 * and P the live servers the plan puts it on:
 * <ul>
 *   <li>acting on a plan: |P| when P ⊆ L, else |L ∪ P|. So the planned copies are loaded first (the count rises to
 *   |L ∪ P|) and only once all of P serve it does the count fall to |P|, and the strategy then drops L \ P;</li>
 *   <li>not acting (warm-up, dry run, refused config, or a segment the plan does not know): max(floor, |L|), which
 *   loads a new segment up to its floor and never drops anything;</li>
 *   <li>always at least the rule's floor, so Druid never drops below it, and the last replica is never dropped.</li>
 * </ul>
 *
 * @param segmentId the segment
 * @param replicas  the replica count to ask of Druid for the tier
 * @param acting    whether the strategy realises the plan for this segment (loads onto P \ L, drops outside P)
 * @param floor     the rule's floor for the tier
 * @param loaded    L
 * @param planned   P (live servers only)
 */
public record ReplicaTarget(
    String segmentId,
    int replicas,
    boolean acting,
    int floor,
    Set<String> loaded,
    Set<String> planned
)
{
  public static ReplicaTarget decide(
      String segmentId,
      boolean planActive,
      int floor,
      Set<String> loaded,
      Set<String> planned
  )
  {
    if (!planActive || planned.isEmpty()) {
      return new ReplicaTarget(segmentId, Math.max(floor, loaded.size()), false, floor, loaded, planned);
    }
    final int target;
    if (loaded.containsAll(planned)) {
      target = planned.size();
    } else {
      final Set<String> union = new HashSet<>(loaded);
      union.addAll(planned);
      target = union.size();
    }
    return new ReplicaTarget(segmentId, Math.max(floor, target), true, floor, loaded, planned);
  }

  /** Replicas missing to reach the floor: loads for these are never throttled by the churn budget. */
  public int floorDeficit()
  {
    return Math.max(0, floor - loaded.size());
  }
}
