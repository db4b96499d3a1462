package org.getafix.druid.historical;

import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.java.util.common.lifecycle.LifecycleStart;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * How long this Historical could not run when it should have, jHiccup's way: a thread asks to wake every
 * {@value #TICK_MILLIS} ms and adds up how much later than asked it woke, wherever that was over
 * {@value #NOISE_MILLIS} ms. An exhausted CPU quota, a neighbour holding the cores, a stop-the-world pause or a
 * page-in stops every thread alike, the query threads too, so the sum counts the node's slow spells directly, whatever
 * their cause, where CPU time and scan times blur them over a round (a query that waited out a stall reports its time
 * only when it ends, and no CPU for the wait). The Coordinator diffs it per round ({@code stalledMillis}).
 */
@ManageLifecycle
public final class StallMeter
{
  static final long TICK_MILLIS = 5;
  /** Below this a late wake-up is the scheduler's ordinary jitter on a busy machine, not a stall. */
  static final long NOISE_MILLIS = 20;

  private final AtomicLong stalledNanos = new AtomicLong();
  private volatile Thread thread;

  @LifecycleStart
  public void start()
  {
    final Thread t = new Thread(this::run, "getafix-stall-meter");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  @LifecycleStop
  public void stop()
  {
    final Thread t = thread;
    if (t != null) {
      t.interrupt();
    }
  }

  /** Time this process was stalled since it started, in ms. */
  public long stalledMillis()
  {
    return TimeUnit.NANOSECONDS.toMillis(stalledNanos.get());
  }

  private void run()
  {
    final long tick = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
    final long noise = TimeUnit.MILLISECONDS.toNanos(NOISE_MILLIS);
    while (!Thread.currentThread().isInterrupted()) {
      final long before = System.nanoTime();
      LockSupport.parkNanos(tick);
      record(System.nanoTime() - before - tick, noise);
    }
  }

  /** Counts a wake-up {@code lateNanos} late when that is over {@code noiseNanos}. */
  void record(long lateNanos, long noiseNanos)
  {
    if (lateNanos > noiseNanos) {
      stalledNanos.addAndGet(lateNanos);
    }
  }
}
