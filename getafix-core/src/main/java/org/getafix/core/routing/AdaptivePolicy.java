package org.getafix.core.routing;

import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * Adaptive replica selection in the style of C3 (Suresh et al., NSDI'15) as simplified by Elasticsearch's adaptive
 * replica selection and Pinot's hybrid selector: each holder is ranked by
 * <pre>  rank = q̂³ × latency,   q̂ = 1 + outstanding requests from this router + queue reported by the node</pre>
 * where latency is this router's EWMA of the node's response times; the lowest rank wins, ties at random. The cube
 * makes queueing dominate once a node backs up, while latency separates nodes of different speed at equal queues.
 *
 * <p><b>No starvation.</b> An avoided node stops producing latency observations, so its last (bad) estimate would
 * otherwise stand forever. Each statistic therefore keeps full weight for {@code freshNanos} after it was observed,
 * then decays linearly, over {@code decayNanos}, toward the mean of the other candidates' values (leaving the node's
 * own value out, so a slow node cannot hold its own target up). A fully decayed node looks like its peers, receives
 * a request, and is re-measured: rehabilitated if it recovered, avoided again if not. A node without a statistic
 * counts as the mean of the candidates that have one.
 *
 * <p>Latencies are floored at {@value #LATENCY_FLOOR_MILLIS} ms, because Druid reports whole milliseconds and a 0
 * would erase the queue term.
 */
public final class AdaptivePolicy implements RoutingPolicy
{
  static final double LATENCY_FLOOR_MILLIS = 1.0;

  private final NodeFeedback feedback;
  private final long freshNanos;
  private final long decayNanos;
  private final LongSupplier nanoClock;
  private final RandomGenerator random;
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  public AdaptivePolicy(
      NodeFeedback feedback,
      long freshNanos,
      long decayNanos,
      LongSupplier nanoClock,
      RandomGenerator random
  )
  {
    if (freshNanos < 0 || decayNanos <= 0) {
      throw new IllegalArgumentException(
          "stats fresh period must be >= 0 and decay period > 0, got [" + freshNanos + "] and [" + decayNanos + "] ns"
      );
    }
    this.feedback = feedback;
    this.freshNanos = freshNanos;
    this.decayNanos = decayNanos;
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
    final long now = nanoClock.getAsLong();
    final Scratch s = scratch.get();
    // Usually every holder has fresh statistics: then no value is pulled toward a mean and one pass over the raw
    // values decides. Any unknown or aging value, or a statistic only some holders have, sends the pick to the full
    // computation.
    s.fresh.reset();
    final int best = LeastScore.pick(candidates, s.fresh, now, random);
    if (best != LeastScore.UNDECIDED && s.fresh.allOrNone(size)) {
      return best;
    }
    return pickWithDecay(candidates, size, now, s.ensure(size));
  }

  /** The full ranking: stale values decayed toward the others' means, unknown ones replaced by the mean. */
  private int pickWithDecay(CandidateView candidates, int size, long now, Scratch s)
  {
    for (int i = 0; i < size; i++) {
      final NodeFeedback.NodeStats stats = feedback.get(candidates.nodeId(i));
      if (stats == null) {
        s.latency.clear(i);
        s.queue.clear(i);
      } else {
        s.latency.set(i, stats.latencyMillis(), stats.latencyNanos(), now);
        s.queue.set(i, stats.queue(), stats.queueNanos(), now);
      }
    }
    return LeastScore.pick(candidates, s.decayed, now, random);
  }

  private static double rank(int inFlight, double latency, double queue)
  {
    final double qHat = 1 + inFlight + queue;
    return qHat * qHat * qHat * Math.max(latency, LATENCY_FLOOR_MILLIS);
  }

  /** 1 while fresh, then linearly down to 0 over the decay period. */
  private double weight(long ageNanos)
  {
    final long pastFresh = ageNanos - freshNanos;
    if (pastFresh <= 0) {
      return 1;
    }
    return pastFresh >= decayNanos ? 0 : 1 - (double) pastFresh / decayNanos;
  }

  /**
   * The rank from raw values, for the pass that assumes every statistic is fresh: NaN (undecided) as soon as a holder
   * has no stats or an aging one. Counts who has each statistic, since a statistic only some holders have needs the
   * mean of the others.
   */
  private final class FreshRank implements LeastScore.NodeScore
  {
    private int latencyCount;
    private int queueCount;

    private void reset()
    {
      latencyCount = 0;
      queueCount = 0;
    }

    private boolean allOrNone(int size)
    {
      return (latencyCount == 0 || latencyCount == size) && (queueCount == 0 || queueCount == size);
    }

    @Override
    public double score(CandidateView candidates, int index, long now)
    {
      final NodeFeedback.NodeStats stats = feedback.get(candidates.nodeId(index));
      if (stats == null) {
        return Double.NaN;
      }
      double latency = stats.latencyMillis();
      if (Double.isNaN(latency)) {
        latency = LATENCY_FLOOR_MILLIS;
      } else if (weight(now - stats.latencyNanos()) < 1) {
        return Double.NaN;
      } else {
        latencyCount++;
      }
      double queue = stats.queue();
      if (Double.isNaN(queue)) {
        queue = 0;
      } else if (weight(now - stats.queueNanos()) < 1) {
        return Double.NaN;
      } else {
        queueCount++;
      }
      return rank(candidates.inFlight(index), latency, queue);
    }
  }

  /** Per-thread state of one pick, arrays grown on demand. */
  private final class Scratch
  {
    private final Statistic latency = new Statistic();
    private final Statistic queue = new Statistic();
    private final FreshRank fresh = new FreshRank();
    private final LeastScore.NodeScore decayed = (candidates, i, now) -> rank(
        candidates.inFlight(i),
        latency.effective(i, LATENCY_FLOOR_MILLIS),
        queue.effective(i, 0)
    );

    private Scratch ensure(int size)
    {
      latency.ensure(size);
      queue.ensure(size);
      return this;
    }
  }

  /** One statistic (latency or queue) of the candidates of one pick. */
  private final class Statistic
  {
    private double[] values = new double[16];
    private double[] weights = new double[16];
    private boolean[] known = new boolean[16];
    private double sum;
    private int count;

    private void ensure(int size)
    {
      if (values.length < size) {
        final int capacity = Math.max(size, values.length * 2);
        values = new double[capacity];
        weights = new double[capacity];
        known = new boolean[capacity];
      }
      sum = 0;
      count = 0;
    }

    private void clear(int i)
    {
      known[i] = false;
    }

    private void set(int i, double value, long observedNanos, long now)
    {
      if (Double.isNaN(value)) {
        known[i] = false;
        return;
      }
      known[i] = true;
      values[i] = value;
      weights[i] = weight(now - observedNanos);
      sum += value;
      count++;
    }

    /** The value of candidate i after decay; {@code fallback} when no candidate has this statistic. */
    private double effective(int i, double fallback)
    {
      if (!known[i]) {
        return count == 0 ? fallback : sum / count;
      }
      if (count == 1 || weights[i] == 1) {
        return values[i];
      }
      final double othersMean = (sum - values[i]) / (count - 1);
      return othersMean + (values[i] - othersMean) * weights[i];
    }
  }
}
