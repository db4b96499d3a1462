package org.getafix.core.quality.sampling;

/**
 * When to run a queued mature re-execution (Ubora §6.4, "Reducing replay overhead"). A mature result is only useful
 * to online management if it arrives within an expiration window after its online execution; within that window,
 * replays run when the front end is idle. The rule, evaluated for the oldest queued replay:
 * <ol>
 *   <li>its window has passed: {@link Decision#DROP} (its result would come too late);</li>
 *   <li>the time to clear the queue (queued replays × mean replay time) reaches the time left in its window:
 *   {@link Decision#RUN} now, idle or not;</li>
 *   <li>the front end is idle, at most {@code idleOutstanding} queries outstanding (0, Ubora's rule: none), and the
 *   mean inter-arrival gap of online queries exceeds the replay time: {@link Decision#RUN} (the replay most likely
 *   finishes before the next query arrives);</li>
 *   <li>otherwise {@link Decision#WAIT}.</li>
 * </ol>
 * Immutable and thread-safe; the caller owns the queue and the measurements ({@link ReplayQueue}).
 */
public final class ReplaySchedule
{
  /** What to do with the oldest queued replay. */
  public enum Decision
  {
    RUN,
    WAIT,
    DROP
  }

  private final double expirationWindowMillis;
  private final int idleOutstanding;

  /**
   * @param expirationWindowMillis how long after its online execution a mature result is still useful, &gt; 0
   * @param idleOutstanding        the most outstanding queries at which the front end still counts as idle, &ge; 0
   */
  public ReplaySchedule(double expirationWindowMillis, int idleOutstanding)
  {
    if (!(Double.isFinite(expirationWindowMillis) && expirationWindowMillis > 0)) {
      throw new IllegalArgumentException(
          "replay expiration window must be a finite number > 0, got [" + expirationWindowMillis + "]"
      );
    }
    if (idleOutstanding < 0) {
      throw new IllegalArgumentException("idle outstanding queries must be >= 0, got [" + idleOutstanding + "]");
    }
    this.expirationWindowMillis = expirationWindowMillis;
    this.idleOutstanding = idleOutstanding;
  }

  /**
   * @param oldestAgeMillis          time since the oldest queued replay's online execution finished
   * @param queuedReplays            replays waiting, including the oldest
   * @param outstanding              queries in flight on the front end: online ones, and whatever else the caller
   *                                 counts as load (replays in flight among them, so that idle replays run one by one)
   * @param meanInterArrivalMillis   mean gap between online query arrivals (NaN when unknown: never idle)
   * @param meanReplayMillis         mean time of one replay (NaN when unknown: taken as 0, so never urgent)
   * @return never throws; an empty queue or a NaN age waits
   */
  public Decision decide(
      double oldestAgeMillis,
      int queuedReplays,
      int outstanding,
      double meanInterArrivalMillis,
      double meanReplayMillis
  )
  {
    if (queuedReplays <= 0 || Double.isNaN(oldestAgeMillis)) {
      return Decision.WAIT;
    }
    final double remaining = expirationWindowMillis - oldestAgeMillis;
    if (remaining <= 0) {
      return Decision.DROP;
    }
    final double replay = meanReplayMillis >= 0 ? meanReplayMillis : 0;
    if (queuedReplays * replay >= remaining) {
      return Decision.RUN;
    }
    if (outstanding <= idleOutstanding && meanInterArrivalMillis > replay) {
      return Decision.RUN;
    }
    return Decision.WAIT;
  }

  public double expirationWindowMillis()
  {
    return expirationWindowMillis;
  }
}
