package org.getafix.simulator.cluster;

import java.util.function.IntSupplier;

/**
 * Whether and where a broker sends one segment's share of a query more than once, so that a slow holder does not
 * set the tail: copies up front, or a hedge once the first copy is late. The first copy to finish answers and the
 * others are cancelled. It lives with the cluster that calls it, as {@link RoutingPolicy} does, so that the
 * policies ({@code redundancy}) depend on the cluster and not the other way round.
 */
public interface RedundancyPolicy
{
  /**
   * Where one share goes up front.
   *
   * @param routed the holder the broker's routing policy picks; ask it at most once (it may draw random numbers)
   */
  Placement place(Segment segment, IntSupplier routed);

  /** Seconds after dispatch at which a share still unanswered on {@code node} is re-sent; infinite for never. */
  default double hedgeAfterSeconds(Segment segment, int node)
  {
    return Double.POSITIVE_INFINITY;
  }

  /** The holder a share late on {@code lateNode} is re-sent to now, or -1 to send none. */
  default int hedgeTo(Segment segment, int lateNode)
  {
    return -1;
  }

  /**
   * A copy answered its share, the first of its race.
   *
   * @param responseSeconds from sending the copy to its answer
   * @param serviceSeconds  the time it held a core
   * @param shareSeconds    from the share's first dispatch to this answer: the sub-query latency the broker sees
   * @param dispatchedAt    when the share was first dispatched
   */
  void onAnswer(
      int node,
      boolean token,
      double responseSeconds,
      double serviceSeconds,
      double shareSeconds,
      double dispatchedAt
  );

  /** A hedge answered a share before its primary, which is cancelled. */
  default void onHedgeWon()
  {
  }

  /** A query's last share was answered, {@code latencySeconds} after the query arrived. */
  void onQueryDone(double latencySeconds);

  /** A copy was cancelled {@code elapsedSeconds} after it was sent: it lost its race, or its query was cut. */
  void onCancelled(int node, boolean token, double elapsedSeconds);

  /**
   * @param nodes  distinct loaded holders of the segment, the primary first
   * @param tokens whether each of them holds a token of the policy's arbiter, to be handed back through
   *               {@link #onAnswer} or {@link #onCancelled}
   */
  record Placement(int[] nodes, boolean tokens)
  {
  }
}
