package org.getafix.core.realise;

import java.util.Collection;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Moves of one replica toward the plan, for a balancer that moves replicas on its own (Druid's balancing duty): a
 * move loads the destination before it drops the source, so it is load-before-drop too.
 */
public final class PlannedMoves
{
  private PlannedMoves()
  {
  }

  /** Whether the replica on {@code source} should move: it stays on a planned server unless that server leaves. */
  public static boolean shouldMove(Set<String> planned, String source, boolean sourceLeaving)
  {
    return sourceLeaving || !planned.contains(source);
  }

  /**
   * Where to move it: the planned candidate with the largest planned share, the first of equals in the caller's
   * order; null when no candidate is planned.
   *
   * @param candidates servers that can take the replica and do not hold it
   */
  public static <T> T destination(
      Set<String> planned,
      Collection<T> candidates,
      Function<T, String> name,
      ToDoubleFunction<String> share
  )
  {
    T best = null;
    double bestShare = 0;
    for (T candidate : candidates) {
      final String server = name.apply(candidate);
      if (!planned.contains(server)) {
        continue;
      }
      final double candidateShare = share.applyAsDouble(server);
      if (best == null || candidateShare > bestShare) {
        best = candidate;
        bestShare = candidateShare;
      }
    }
    return best;
  }
}
