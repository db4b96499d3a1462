package org.getafix.core.routing;

import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * LBR-CC+ML (thesis §4.5): the holder with the least outstanding requests from this router plus the work queued at
 * the node as it last reported (which also covers other routers' requests). A report older than
 * {@code maxQueueAgeNanos} is ignored, so a node that stopped reporting is judged by its connections alone rather
 * than by a stale queue. Ties at random (see {@link LeastScore}).
 */
public final class LeastLoadPolicy implements RoutingPolicy, LeastScore.NodeScore
{
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
  public int pick(CandidateView candidates)
  {
    final int size = candidates.size();
    if (size <= 1) {
      return size - 1;
    }
    return LeastScore.pick(candidates, this, nanoClock.getAsLong(), random);
  }

  @Override
  public double score(CandidateView candidates, int index, long nowNanos)
  {
    return candidates.inFlight(index) + queued(candidates.nodeId(index), nowNanos);
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
