package org.getafix.core.quality.sampling;

/**
 * When to run a queued mature re-execution (Ubora §6.4, "Reducing replay overhead"). A mature result is only useful
 * to online management if it arrives within an expiration window after its online execution; within that window,
 * replays run when the front end is idle. The rule, evaluated for the oldest queued replay:
 * <ol>
 *   <li>its window has passed: {@link Decision#DROP} (its result would come too late);</li>
 *   <li>the time to clear the queue (queued replays × mean replay time) reaches the time left in its window:
 *   {@link Decision#RUN} now, idle or not;</li>
 *   <li>no online query is outstanding and the mean inter-arrival gap of online queries exceeds the replay time:
 *   {@link Decision#RUN} (the replay most likely finishes before the next query arrives);</li>
 *   <li>otherwise {@link Decision#WAIT}.</li>
 * </ol>
 * Immutable and thread-safe; the caller owns the queue and the measurements.
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

  /** @param expirationWindowMillis how long after its online execution a mature result is still useful, &gt; 0 */
  public ReplaySchedule(double expirationWindowMillis)
  {
    if (!(Double.isFinite(expirationWindowMillis) && expirationWindowMillis > 0)) {
      throw new IllegalArgumentException(
          "replay expiration window must be a finite number > 0, got [" + expirationWindowMillis + "]"
      );
    }
    this.expirationWindowMillis = expirationWindowMillis;
  }

  /**
   * @param oldestAgeMillis          time since the oldest queued replay's online execution finished
   * @param queuedReplays            replays waiting, including the oldest
   * @param outstandingOnline        online queries in flight on the front end
   * @param meanInterArrivalMillis   mean gap between online query arrivals (NaN when unknown: never idle)
   * @param meanReplayMillis         mean time of one replay (NaN when unknown: run only when urgent, assuming 0)
   * @return never throws; an empty queue or a NaN age waits
   */
  public Decision decide(
      double oldestAgeMillis,
      int queuedReplays,
      int outstandingOnline,
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
    if (outstandingOnline <= 0 && meanInterArrivalMillis > replay) {
      return Decision.RUN;
    }
    return Decision.WAIT;
  }

  public double expirationWindowMillis()
  {
    return expirationWindowMillis;
  }
}
