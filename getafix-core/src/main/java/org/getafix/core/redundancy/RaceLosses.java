package org.getafix.core.redundancy;

/**
 * How often each node's recent sub-queries lost: the share, over the node's window, of its sub-queries that a hedge
 * beat or a deadline cut, against those it answered. A lost sub-query's latency is recorded with the time it ran until
 * cancelled, only a lower bound of what it would have taken, so the latencies of a node that loses most of its races
 * read too fast: a straggler whose every sub-query loses to its hedges reads as fast as its hedge point. {@link
 * HedgePolicy} ranks such a node last as a hedge target and does not take its latencies as the yardstick of another's
 * hedge point. A node that loses most of its races is not necessarily slow now: one hedged at a faster holder's p95
 * loses most of them too, and remains a target should that holder slow down.
 *
 * <p>Hedges that lose are not counted: they are sent late, when the primary is nearly done, so their losses say
 * nothing of their node's speed.
 *
 * <p>Thread-safe, as {@link NodeLatencies}.
 */
public final class RaceLosses
{
  /** Sub-queries a node needs in its window before its share is known, as {@link DeadlineShares#MIN_SAMPLES}. */
  public static final int MIN_SAMPLES = 5;
  /** The share of lost sub-queries from which a node loses most of its races. */
  public static final double LOSING_SHARE = 0.5;

  private final NodeLatencies outcomes;
  private final int minSamples;

  /**
   * @param outcomes   the per-node windows to keep the outcomes in (not shared with latencies)
   * @param minSamples sub-queries a node needs before its share is known
   */
  public RaceLosses(NodeLatencies outcomes, int minSamples)
  {
    if (minSamples < 1) {
      throw new IllegalArgumentException("minSamples must be at least 1, not " + minSamples);
    }
    this.outcomes = outcomes;
    this.minSamples = minSamples;
  }

  /** A sub-query to {@code node} answered ({@code lost} false), or lost to its hedges or its deadline. */
  public void record(String node, boolean lost)
  {
    outcomes.record(node, lost ? 1 : 0);
  }

  /** The node's share of lost sub-queries; NaN while it has fewer than {@code minSamples} in its window. */
  public double lostShare(String node)
  {
    final LatencyWindow window = outcomes.get(node);
    return window == null || window.count() < minSamples ? Double.NaN : window.mean();
  }

  /** Whether the node's known share of lost sub-queries is at least {@link #LOSING_SHARE}. */
  public boolean losesMost(String node)
  {
    return lostShare(node) >= LOSING_SHARE;
  }
}
