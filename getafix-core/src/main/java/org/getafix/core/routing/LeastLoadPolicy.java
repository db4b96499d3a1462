package org.getafix.core.routing;

import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * LBR-CC+ML (thesis §4.5): the holder with the least outstanding requests from this router plus the work queued at
 * the node as it last reported (which also covers other routers' requests). A report older than
 * {@code maxQueueAgeNanos} is ignored, so a node that stopped reporting is judged by its connections alone rather
 * than by a stale queue. Ties are broken uniformly at random.
 */
public final class LeastLoadPolicy implements RoutingPolicy
{
  public static final String NAME = "lbrMl";

  private final NodeFeedback feedback;
  private final long maxQueueAgeNanos;
  private final LongSupplier nanoClock;
  private final RandomGenerator random;

  public LeastLoadPolicy(NodeFeedback feedback, long maxQueueAgeNanos, LongSupplier nanoClock, RandomGenerator random)
  {
    if (maxQueueAgeNanos <= 0) {
      throw new IllegalArgumentException("maxQueueAge must be positive, got [" + maxQueueAgeNanos + "] ns");
    }
    this.feedback = feedback;
    this.maxQueueAgeNanos = maxQueueAgeNanos;
    this.nanoClock = nanoClock;
    this.random = random;
  }

  @Override
  public String name()
  {
    return NAME;
  }

  @Override
  public int pick(CandidateView candidates)
  {
    final int size = candidates.size();
    if (size <= 1) {
      return size - 1;
    }
    final long now = nanoClock.getAsLong();
    int best = -1;
    double bestLoad = Double.POSITIVE_INFINITY;
    int ties = 0;
    for (int i = 0; i < size; i++) {
      final double load = candidates.inFlight(i) + queued(candidates.nodeId(i), now);
      if (load < bestLoad) {
        best = i;
        bestLoad = load;
        ties = 1;
      } else if (load == bestLoad && random.nextInt(++ties) == 0) {
        best = i;
      }
    }
    return best;
  }

  private double queued(String nodeId, long now)
  {
    final NodeFeedback.NodeStats stats = feedback.get(nodeId);
    if (stats == null) {
      return 0;
    }
    final double queue = stats.queue();
    return Double.isNaN(queue) || now - stats.queueNanos() > maxQueueAgeNanos ? 0 : queue;
  }
}
