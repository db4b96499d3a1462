package org.getafix.localcluster.experiment;

import java.util.Map;

/**
 * The Broker's settings of a {@link ReplayExperiment} run. Both sample every budgeted query at
 * {@link #MATURE_SAMPLE_RATE} and allow {@link #MAX_MATURE_RUNS} mature run at a time, so that under load most samples
 * are skipped; they differ in what happens to a skipped sample.
 */
public enum ReplaySetup
{
  /** No replay queue: a skipped sample stays unmeasured, and the measured runs of its 10 s stand for it. */
  REPLAY_OFF(0),
  /** A skipped sample cut at its budget is queued and replayed whole when the Broker is idle or its entry is due. */
  REPLAY_ON(ReplaySetup.REPLAY_QUEUE_SIZE);

  /** Half of the budgeted queries: enough samples in each 10 s bucket of the estimate to weigh the skipped ones. */
  public static final double MATURE_SAMPLE_RATE = 0.5;
  /**
   * One mature run at a time: while it waits on the straggler, every other sample is skipped, which is what makes
   * replays.
   */
  public static final int MAX_MATURE_RUNS = 1;
  /**
   * Holds the skipped samples of two busy phases or more (a busy phase of the bench's cycles sends some 40 queries,
   * half of them sampled, nearly all of those skipped), so that what drops entries is the expiration, the scheduling
   * under test, rather than the queue's size.
   */
  public static final int REPLAY_QUEUE_SIZE = 64;
  /**
   * The Broker's default, set here so that the runs do not move with it: longer than a busy and a quiet phase
   * together ({@link BusyQuietCycles#standard}), so that a sample skipped at the start of a busy phase can still be
   * replayed in the quiet phase after it. A queue that would outlast its oldest entry's expiration replays under load
   * ({@code ReplaySchedule}'s urgency rule); the experiment counts the replays started in busy and in quiet phases.
   */
  public static final String REPLAY_EXPIRATION = "PT1M";
  /** The Broker's default, Ubora's rule: idle means nothing in flight. */
  public static final int REPLAY_IDLE_QUERIES = 0;

  private final int replayQueueSize;

  ReplaySetup(int replayQueueSize)
  {
    this.replayQueueSize = replayQueueSize;
  }

  public int replayQueueSize()
  {
    return replayQueueSize;
  }

  /** The Broker's properties on top of the cluster's for a run of this setup. */
  public Map<String, String> brokerProperties()
  {
    return Map.of(
        "druid.getafix.quality.matureSampleRate", String.valueOf(MATURE_SAMPLE_RATE),
        "druid.getafix.quality.maxMatureRuns", String.valueOf(MAX_MATURE_RUNS),
        "druid.getafix.quality.replayQueueSize", String.valueOf(replayQueueSize),
        "druid.getafix.quality.replayExpiration", REPLAY_EXPIRATION,
        "druid.getafix.quality.replayIdleQueries", String.valueOf(REPLAY_IDLE_QUERIES)
    );
  }
}
