package org.getafix.core.quality.sampling;

import org.getafix.core.quality.control.EwmaResponseTime;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Optional;

/**
 * Sampled queries waiting for their mature re-execution (Ubora §6.4: once record mode completes, the query is queued
 * on the front end for replay), with what {@link ReplaySchedule} decides on: the queue's length, its oldest entry's
 * age, the mean gap between online query arrivals and the mean time of a replay. Replays run oldest first.
 *
 * <p>Bounded: a full queue drops its oldest entry to take a new one. The oldest is the nearest to its expiration and
 * its result would be the least timely, which is why the window exists; which entry goes does not depend on its
 * quality, so the drops bias no estimate.
 *
 * <p>The mean inter-arrival gap is an EWMA of the gaps, but never less than the gap open since the last arrival:
 * otherwise, once queries stop arriving, the mean of the busy time before would stay in force and the front end would
 * never look idle.
 *
 * <p>Thread-safe.
 */
public final class ReplayQueue<T>
{
  /** Weight of a new gap or replay time in its mean: about the last ten count, the load the next replay meets. */
  static final double ALPHA = 0.1;

  private final int capacity;
  private final ReplaySchedule schedule;
  private final ArrayDeque<Entry<T>> queue = new ArrayDeque<>();
  private final EwmaResponseTime gaps = new EwmaResponseTime(ALPHA);
  private final EwmaResponseTime replays = new EwmaResponseTime(ALPHA);
  /** The latest online arrival, epoch milliseconds; -1 before the first. */
  private long lastArrival = -1;

  /** What to do now: {@link #item} is the oldest entry, taken off the queue to run or drop; null to wait. */
  public record Step<T>(ReplaySchedule.Decision decision, T item)
  {
    static <T> Step<T> waiting()
    {
      return new Step<>(ReplaySchedule.Decision.WAIT, null);
    }
  }

  private record Entry<T>(T item, long finishedMillis)
  {
  }

  /** @param capacity entries queued at most, &ge; 1 */
  public ReplayQueue(int capacity, ReplaySchedule schedule)
  {
    if (capacity < 1) {
      throw new IllegalArgumentException("replay queue capacity must be >= 1, got [" + capacity + "]");
    }
    this.capacity = capacity;
    this.schedule = Objects.requireNonNull(schedule, "schedule");
  }

  /** An online query arrived at {@code nowMillis}; an arrival earlier than the latest one is no gap. */
  public synchronized void arrived(long nowMillis)
  {
    if (nowMillis < 0) {
      return;
    }
    if (lastArrival >= 0 && nowMillis >= lastArrival) {
      gaps.record(nowMillis - lastArrival);
    }
    lastArrival = Math.max(lastArrival, nowMillis);
  }

  /**
   * A query was answered whole in {@code millis}: a replay, or a mature run, whose late sub-queries ran to the end as
   * a replay would (until a replay has run, mature runs are all there is to say how long one takes).
   */
  public synchronized void answeredWhole(double millis)
  {
    if (millis >= 0 && Double.isFinite(millis)) {
      replays.record(millis);
    }
  }

  /**
   * Queues {@code item}, whose online execution finished at {@code finishedMillis}.
   *
   * @return the entry a full queue dropped to take it (to count as dropped), or empty
   */
  public synchronized Optional<T> offer(T item, long finishedMillis)
  {
    Objects.requireNonNull(item, "item");
    final Entry<T> dropped = queue.size() >= capacity ? queue.pollFirst() : null;
    queue.addLast(new Entry<>(item, finishedMillis));
    return dropped == null ? Optional.empty() : Optional.of(dropped.item());
  }

  /**
   * What to do with the oldest entry now ({@link ReplaySchedule#decide}); a {@link ReplaySchedule.Decision#RUN} or
   * {@link ReplaySchedule.Decision#DROP} takes it off the queue. Call again until it says to wait: several entries
   * may have expired, and an urgent queue may run several at once.
   *
   * @param outstanding queries in flight: online ones, and replays and mature runs (their sub-queries load the same
   *                    Historicals)
   * @param mayRun      whether a replay may start now (the mature runs' limit has room); if not, a due replay waits
   */
  public synchronized Step<T> next(long nowMillis, int outstanding, boolean mayRun)
  {
    final Entry<T> oldest = queue.peekFirst();
    if (oldest == null) {
      return Step.waiting();
    }
    final ReplaySchedule.Decision decision = schedule.decide(
        nowMillis - oldest.finishedMillis(),
        queue.size(),
        outstanding,
        meanInterArrivalMillis(nowMillis),
        replays.estimate()
    );
    if (decision == ReplaySchedule.Decision.WAIT || (decision == ReplaySchedule.Decision.RUN && !mayRun)) {
      return Step.waiting();
    }
    queue.pollFirst();
    return new Step<>(decision, oldest.item());
  }

  public synchronized int size()
  {
    return queue.size();
  }

  /** The mean gap between online arrivals as of {@code nowMillis}; NaN before the first arrival. */
  public synchronized double meanInterArrivalMillis(long nowMillis)
  {
    if (lastArrival < 0) {
      return Double.NaN;
    }
    final double open = Math.max(0, nowMillis - lastArrival);
    final double mean = gaps.estimate();
    return Double.isNaN(mean) ? open : Math.max(mean, open);
  }

  /** The mean time of a query answered whole; NaN before the first. */
  public synchronized double meanReplayMillis()
  {
    return replays.estimate();
  }
}
