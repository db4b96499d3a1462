package org.getafix.core.routing;

import java.util.random.RandomGenerator;

/**
 * The one "lowest score wins, ties at random" loop every load-aware policy shares: a policy is a per-node
 * {@link NodeScore}, and this class turns it into a pick. Ties are broken by reservoir sampling, so each of k tied
 * holders is chosen with probability 1/k (as apache/druid#17764 does for Druid's connectionCount): idle holders share
 * a burst instead of the first of them taking all of it. Allocation-free.
 */
public final class LeastScore
{
  /** What {@link #pick} returns when a score was NaN: the scorer cannot rank this pick and the caller decides. */
  public static final int UNDECIDED = -2;

  private LeastScore()
  {
  }

  /** A candidate's cost at one pick; lower is better. NaN means "cannot rank this pick", which stops the pass. */
  @FunctionalInterface
  public interface NodeScore
  {
    double score(CandidateView candidates, int index, long nowNanos);
  }

  /**
   * @return the position of the least-scored candidate, -1 when there are none, {@link #UNDECIDED} when a score
   * was NaN (draws spent on ties before it stay spent, so a caller's random sequence does not depend on where)
   */
  public static int pick(CandidateView candidates, NodeScore score, long nowNanos, RandomGenerator random)
  {
    final int size = candidates.size();
    int best = -1;
    double bestScore = Double.POSITIVE_INFINITY;
    int ties = 0;
    for (int i = 0; i < size; i++) {
      final double s = score.score(candidates, i, nowNanos);
      if (Double.isNaN(s)) {
        return UNDECIDED;
      }
      if (s < bestScore) {
        best = i;
        bestScore = s;
        ties = 1;
      } else if (s == bestScore && random.nextInt(++ties) == 0) {
        best = i;
      }
    }
    return best;
  }
}
