package org.getafix.core.placement;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Segment popularity across rounds (thesis §2.2): Popularity(s, K+1) = decay·Popularity(s, K) + AccessTime(s, K+1),
 * with decay ½ in the thesis. A segment that is absent from a round's input has vanished (dropped or unloaded) and
 * is forgotten, so the tracker's memory stays bounded by the live segments: callers pass 0 for a live segment that
 * saw no queries this round. Not thread-safe; one instance per planning loop.
 */
public final class PopularityTracker
{
  public static final double DEFAULT_DECAY = 0.5;

  private final double decay;
  private Map<String, Double> popularity = Map.of();

  public PopularityTracker()
  {
    this(DEFAULT_DECAY);
  }

  /** @param decay weight of the previous round's popularity, in [0, 1) */
  public PopularityTracker(double decay)
  {
    if (!Double.isFinite(decay) || decay < 0 || decay >= 1) {
      throw new IllegalArgumentException("decay must be in [0, 1), got [" + decay + "]");
    }
    this.decay = decay;
  }

  public double decay()
  {
    return decay;
  }

  /**
   * Folds one round of access times into the popularity and returns the new popularity of every segment in
   * {@code accessTimeThisRound}, in that map's iteration order. The input is validated as a whole before any
   * state changes, so a rejected round leaves the tracker as it was.
   *
   * @param accessTimeThisRound segment id → total query time spent on it this round; finite and ≥ 0
   * @throws IllegalArgumentException naming the segment with an empty id, or a NaN, infinite or negative time
   */
  public Map<String, Double> update(Map<String, Double> accessTimeThisRound)
  {
    if (accessTimeThisRound == null) {
      throw new IllegalArgumentException("accessTimeThisRound must not be null");
    }
    for (Map.Entry<String, Double> e : accessTimeThisRound.entrySet()) {
      Validation.requireId("segmentId", e.getKey());
      final Double t = e.getValue();
      if (t == null) {
        throw new IllegalArgumentException("access time of segment " + e.getKey() + " must not be null");
      }
      Validation.requireNonNegativeFinite("access time of segment " + e.getKey(), t);
    }
    final Map<String, Double> next = new LinkedHashMap<>(Math.max(16, accessTimeThisRound.size() * 4 / 3 + 1));
    for (Map.Entry<String, Double> e : accessTimeThisRound.entrySet()) {
      final Double previous = popularity.get(e.getKey());
      next.put(e.getKey(), (previous == null ? 0.0 : decay * previous) + e.getValue());
    }
    popularity = Collections.unmodifiableMap(next);
    return popularity;
  }

  /** The popularity after the last {@link #update}; empty before the first round. */
  public Map<String, Double> popularity()
  {
    return popularity;
  }
}
