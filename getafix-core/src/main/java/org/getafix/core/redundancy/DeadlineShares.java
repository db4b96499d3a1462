package org.getafix.core.redundancy;

/**
 * How close each node's recent budgeted sub-queries came to their deadlines: the mean, over the node's window, of the
 * time a sub-query took over the time it had to its deadline when it was sent, 1 for one cut at its deadline. This is
 * {@link SubQuerySplit}'s second sign of a late node. A node cut at every deadline records only the time it had, and
 * under concurrency, with sub-queries sent behind others' work, that time is well under what a lone query has left,
 * so the node's mean latency can look on time for a lone query while this share says it is late.
 *
 * <p>Thread-safe, as {@link NodeLatencies}.
 */
public final class DeadlineShares
{
  /**
   * Sub-queries a node needs in its window before its share is known: fewer than the hedge policy's latencies need,
   * since a late node sends few answers to learn from (its sub-queries are cut at their deadlines).
   */
  public static final int MIN_SAMPLES = 5;

  private final NodeLatencies shares;
  private final int minSamples;

  /**
   * @param shares     the per-node windows to keep the shares in (not shared with latencies)
   * @param minSamples sub-queries a node needs before its share is known
   */
  public DeadlineShares(NodeLatencies shares, int minSamples)
  {
    if (minSamples < 1) {
      throw new IllegalArgumentException("minSamples must be at least 1, not " + minSamples);
    }
    this.shares = shares;
    this.minSamples = minSamples;
  }

  /**
   * A budgeted sub-query to {@code node} answered, or was cut at its deadline, after {@code millis} of the
   * {@code millisToDeadline} it had when sent; one sent with no time left counts 1.
   */
  public void record(String node, long millis, long millisToDeadline)
  {
    shares.record(node, millisToDeadline > 0 ? Math.min(1, Math.max(0, millis) / (double) millisToDeadline) : 1);
  }

  /** The node's mean share; NaN while it has fewer than {@code minSamples} sub-queries in its window. */
  public double share(String node)
  {
    final LatencyWindow window = shares.get(node);
    return window == null || window.count() < minSamples ? Double.NaN : window.mean();
  }
}
