package org.getafix.quality;

import com.netflix.concurrency.limits.limit.Gradient2Limit;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The GRADIENT2 admission mode: Netflix concurrency-limits' {@link Gradient2Limit} estimates how many queries the
 * cluster behind this Broker takes at once from the gradient of their round-trip times (short-term against long-term
 * average), as its partitioned limiters do with a priority partition. Every query, of either priority, is counted in
 * flight and reports its RTT, measured here from admission to answer; a high-priority query is always admitted, and
 * a low-priority one only while the queries in flight are fewer than the limit. So the limit is shared, and
 * high-priority load pushes low-priority load out first, as the quality- and timeout-guided modes only ever shed
 * low-priority queries.
 *
 * <p>A query that timed out reports its RTT as dropped; one that failed otherwise reports none (its RTT says nothing
 * about load), and neither does one abandoned before it ended. No Druid types: thread-safe, lock-free apart from the
 * limit's own synchronised update.
 */
final class GradientAdmission
{
  private final Gradient2Limit limit;
  private final LongSupplier nanoClock;
  private final AtomicInteger inFlight = new AtomicInteger();

  /**
   * @param initialLimit queries in flight allowed before any RTT is known; also the largest limit's order (the limit
   *                     is capped at 10× this)
   * @param queueSize    queries the limit keeps beyond the estimated concurrency: Gradient2's headroom, so that the
   *                     limit can grow (its default is 4)
   * @param nanoClock    {@link System#nanoTime} but in tests
   */
  GradientAdmission(int initialLimit, int queueSize, LongSupplier nanoClock)
  {
    this.limit = Gradient2Limit.newBuilder()
                               .initialLimit(initialLimit)
                               .minLimit(1)
                               .maxConcurrency(10 * initialLimit)
                               .queueSize(queueSize)
                               .build();
    this.nanoClock = nanoClock;
  }

  /** A query starting now: its ticket, or null for a low-priority query the limit sheds. */
  Ticket start(boolean highPriority)
  {
    while (true) {
      final int current = inFlight.get();
      if (!highPriority && current >= limit.getLimit()) {
        return null;
      }
      if (inFlight.compareAndSet(current, current + 1)) {
        return new Ticket(nanoClock.getAsLong());
      }
    }
  }

  int limit()
  {
    return limit.getLimit();
  }

  int inFlight()
  {
    return inFlight.get();
  }

  /** One admitted query's hold on the limit; ends once, whichever of its methods is called first. */
  final class Ticket
  {
    private final long startNanos;
    private final AtomicBoolean ended = new AtomicBoolean();

    private Ticket(long startNanos)
    {
      this.startNanos = startNanos;
    }

    /** The query answered ({@code timedOut}: cut at its budget) or failed on its timeout. */
    void completed(boolean timedOut)
    {
      if (end()) {
        limit.onSample(startNanos, Math.max(0, nanoClock.getAsLong() - startNanos), inFlight.get() + 1, timedOut);
      }
    }

    /** The query failed for another reason than time, or was abandoned: it leaves without an RTT. */
    void released()
    {
      end();
    }

    private boolean end()
    {
      if (!ended.compareAndSet(false, true)) {
        return false;
      }
      inFlight.decrementAndGet();
      return true;
    }
  }
}
