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
 * {@value #PAUSE_MILLIS} ms. A stop-the-world pause, a quota cut to almost nothing, a process frozen or descheduled
 * stops every thread alike, the query threads too, so the sum counts the node's slow spells directly, whatever their
 * cause, where CPU time and scan times blur them over a round (a query that waited out a stall reports its time only
 * when it ends, and no CPU for the wait). The Coordinator diffs it per round ({@code stalledMillis}).
 *
 * <p>Why only wake-ups that late: a Historical busy at its CPU quota is throttled every CFS period (100 ms by
 * default) for the part of it its quota does not cover, 75 ms at a quarter core. That is the node being weak, which
 * its capacity estimate says, and it comes and goes with its load; counted, it made a busy quarter-core Historical
 * look as unstable as one that stalls. A hold-off beyond {@value #PAUSE_MILLIS} ms is more than a quota of a tenth of
 * a core or more ever imposes.
 */
@ManageLifecycle
public final class StallMeter
{
  /**
   * Far below the {@value #PAUSE_MILLIS} ms bar, so a stall is measured to within a tick, and coarse enough that the
   * wake-ups cost a Historical throttled to a fiftieth of a core little of its CPU.
   */
  static final long TICK_MILLIS = 20;
  /** A wake-up later than this is a stall; see the class comment. */
  static final long PAUSE_MILLIS = 90;

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
    final long pause = TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS);
    while (!Thread.currentThread().isInterrupted()) {
      final long before = System.nanoTime();
      LockSupport.parkNanos(tick);
      record(System.nanoTime() - before - tick, pause);
    }
  }

  /** Counts a wake-up {@code lateNanos} late when that is over {@code pauseNanos}. */
  void record(long lateNanos, long pauseNanos)
  {
    if (lateNanos > pauseNanos) {
      stalledNanos.addAndGet(lateNanos);
    }
  }
}
