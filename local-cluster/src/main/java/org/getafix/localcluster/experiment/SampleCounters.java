package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The quality endpoint's counters of sampled queries and their replays, as read at one moment (since the Broker
 * started) or as the difference of two reads. A sampled query gets a mature run or is skipped; a skipped one is, with
 * replays on, measured whole at once (answered whole: unneeded) or queued; a queued one is started or dropped.
 *
 * @param matureStarted         sampled queries that got a mature run
 * @param matureSkipped         sampled queries that found {@code maxMatureRuns} in flight
 * @param replaysQueued         skipped samples queued for a replay
 * @param replaysUnneeded       skipped samples that answered whole, measured without a replay
 * @param replaysStarted        replays started
 * @param replaysCompleted      replays measured
 * @param replaysFailed         replays that failed or timed out
 * @param replaysDroppedFull    queued replays dropped for a newer one, the queue full
 * @param replaysDroppedExpired queued replays dropped unrun past {@code replayExpiration}
 */
public record SampleCounters(
    long matureStarted,
    long matureSkipped,
    long replaysQueued,
    long replaysUnneeded,
    long replaysStarted,
    long replaysCompleted,
    long replaysFailed,
    long replaysDroppedFull,
    long replaysDroppedExpired
)
{
  public static final SampleCounters ZERO = new SampleCounters(0, 0, 0, 0, 0, 0, 0, 0, 0);

  /**
   * The counters in the quality endpoint's {@code state}.
   *
   * @throws IllegalArgumentException if one is missing: a Broker without them would read as one that sampled nothing
   */
  public static SampleCounters of(JsonNode state)
  {
    final JsonNode dropped = state.path("replaysDroppedByReason");
    return new SampleCounters(
        count(state, "matureRunsStarted"),
        count(state, "matureRunsSkipped"),
        count(state, "replaysQueued"),
        count(state, "replaysUnneeded"),
        count(state, "replaysStarted"),
        count(state, "replaysCompleted"),
        count(state, "replaysFailed"),
        count(dropped, "full"),
        count(dropped, "expired")
    );
  }

  private static long count(JsonNode node, String field)
  {
    final JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong()) {
      throw new IllegalArgumentException("the quality endpoint's state has no count " + field + ": " + node);
    }
    return value.asLong();
  }

  /** What was counted since {@code earlier}. */
  public SampleCounters minus(SampleCounters earlier)
  {
    return new SampleCounters(
        matureStarted - earlier.matureStarted,
        matureSkipped - earlier.matureSkipped,
        replaysQueued - earlier.replaysQueued,
        replaysUnneeded - earlier.replaysUnneeded,
        replaysStarted - earlier.replaysStarted,
        replaysCompleted - earlier.replaysCompleted,
        replaysFailed - earlier.replaysFailed,
        replaysDroppedFull - earlier.replaysDroppedFull,
        replaysDroppedExpired - earlier.replaysDroppedExpired
    );
  }

  public SampleCounters plus(SampleCounters other)
  {
    return new SampleCounters(
        matureStarted + other.matureStarted,
        matureSkipped + other.matureSkipped,
        replaysQueued + other.replaysQueued,
        replaysUnneeded + other.replaysUnneeded,
        replaysStarted + other.replaysStarted,
        replaysCompleted + other.replaysCompleted,
        replaysFailed + other.replaysFailed,
        replaysDroppedFull + other.replaysDroppedFull,
        replaysDroppedExpired + other.replaysDroppedExpired
    );
  }

  /** Sampled queries: each got a mature run or was skipped. */
  public long sampled()
  {
    return matureStarted + matureSkipped;
  }

  public long replaysDropped()
  {
    return replaysDroppedFull + replaysDroppedExpired;
  }
}
