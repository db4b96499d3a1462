package org.getafix.simulator.engine;

import java.util.PriorityQueue;

/**
 * The discrete-event clock: actions scheduled at simulated times, run in time order. Ties run in scheduling
 * order, so a run is a pure function of its inputs and seed.
 */
public final class EventLoop
{
  private final PriorityQueue<Event> queue = new PriorityQueue<>();
  private double now;
  private long sequence;
  private long processed;

  /** Current simulated time, in seconds. */
  public double now()
  {
    return now;
  }

  /** Events run so far; a cheap progress and cost measure. */
  public long processed()
  {
    return processed;
  }

  public void schedule(double time, Runnable action)
  {
    if (!(time >= now)) {
      throw new IllegalArgumentException("cannot schedule at [" + time + "], the clock is already at [" + now + "]");
    }
    queue.add(new Event(time, sequence++, action));
  }

  public void scheduleAfter(double delay, Runnable action)
  {
    schedule(now + delay, action);
  }

  /** Runs events until none is left or the next one lies after {@code until}; the clock ends at {@code until}. */
  public void runUntil(double until)
  {
    while (!queue.isEmpty() && queue.peek().time <= until) {
      final Event event = queue.poll();
      now = event.time;
      processed++;
      event.action.run();
    }
    if (until != Double.POSITIVE_INFINITY) {
      now = Math.max(now, until);
    }
  }

  /** Runs every remaining event (the drain after the last arrival). */
  public void runToCompletion()
  {
    runUntil(Double.POSITIVE_INFINITY);
  }

  private record Event(double time, long seq, Runnable action) implements Comparable<Event>
  {
    @Override
    public int compareTo(Event o)
    {
      final int byTime = Double.compare(time, o.time);
      return byTime != 0 ? byTime : Long.compare(seq, o.seq);
    }
  }
}
