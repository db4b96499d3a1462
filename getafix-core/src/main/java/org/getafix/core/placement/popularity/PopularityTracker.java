package org.getafix.core.placement.popularity;

import org.getafix.core.contract.PlacementKnobs;
import org.getafix.core.placement.plan.Validation;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Segment popularity across rounds (thesis §2.2): Popularity(s, K+1) = decay·Popularity(s, K) + AccessTime(s, K+1),
 * with decay ½ in the thesis. A segment that is absent from a round's input has vanished (dropped or unloaded) and
 * is forgotten, so the tracker's memory stays bounded by the live segments: callers pass 0 for a live segment that
 * saw no queries this round. A live segment whose every holder failed to report this round was not measured: it
 * keeps its popularity as it was, neither decayed nor added to, because a 0 would halve the popularity of every
 * segment of a Historical whose statistics came late once, and move them. Not thread-safe; one instance per planning
 * loop.
 *
 * <p><b>Bias correction (optional, off by default).</b> The recurrence starts a new segment at 0, so after it has been
 * seen for {@code age} rounds its popularity is a sum of only {@code age} terms: with a constant access time {@code A}
 * per round it is A·(1 − decay^age)/(1 − decay), short of an old segment's A/(1 − decay) by the factor
 * (1 − decay^age). With decay ½ a segment is rated at half its worth in its first round and three quarters in its
 * second, and the newest segment, which recency-skewed workloads query most, is the one underrated. With
 * {@code biasCorrected} the tracker reports raw / (1 − decay^age), the EWMA bias correction of Adam (Kingma and
 * Ba, 2015). The corrected value stays on the scale of the thesis' popularity, i.e. the decayed sum of access times
 * whose steady state under a constant access time {@code A} is A/(1 − decay) (not the weighted mean {@code A}):
 * for a segment with constant access it equals A/(1 − decay) at every age, so a young segment compares with an old
 * one exactly as their access rates do. For an old segment the factor tends to 1 (it is exactly 1 in double
 * precision after about 53 rounds at decay ½), so old segments keep the thesis' values. Only the raw recurrence is
 * state; the correction is applied when reporting.
 *
 * <p><b>Inheritance (optional; the planning round's default, never for the thesis' strategies).</b> Bias correction
 * scales what a new segment drew, but in its first round it has drawn little: it became queryable part-way through the
 * round, and it starts on one replica. When the caller names the segment a new one follows (same datasource, the
 * previous interval), the new segment starts from that predecessor's state instead of from 0: raw =
 * decay·raw(predecessor) + its own access time, and the predecessor's age. In a recency-skewed workload the newest
 * interval takes over the queries of the one before it, so it is planned as hot from its first round; where it does
 * not, its own (low) access times decay the inherited value away at the rate the thesis decays any popularity.
 */
public final class PopularityTracker
{
  private final double decay;
  private final boolean biasCorrected;
  /** The thesis' recurrence, uncorrected: the tracker's state. */
  private Map<String, Double> raw = Map.of();
  /** Rounds each live segment has been seen, counting the last one. */
  private Map<String, Integer> age = Map.of();
  private Map<String, Double> popularity = Map.of();

  /** The thesis' tracker: decay ½, no bias correction. */
  public PopularityTracker()
  {
    this(PlacementKnobs.POPULARITY_DECAY.defaultValue());
  }

  /** The thesis' recurrence with the given decay, no bias correction. */
  public PopularityTracker(double decay)
  {
    this(decay, false);
  }

  /**
   * @param decay         weight of the previous round's popularity, in [0, 1)
   * @param biasCorrected report raw / (1 − decay^age) so young segments are not underrated (see the class comment)
   */
  public PopularityTracker(double decay, boolean biasCorrected)
  {
    PlacementKnobs.POPULARITY_DECAY.checkAs("decay", decay);
    this.decay = decay;
    this.biasCorrected = biasCorrected;
  }

  public double decay()
  {
    return decay;
  }

  public boolean biasCorrected()
  {
    return biasCorrected;
  }

  /**
   * Folds one round of access times into the popularity and returns the new popularity of every segment in
   * {@code accessTimeThisRound}, in that map's iteration order (bias-corrected if the tracker is). The input is
   * validated as a whole before any state changes, so a rejected round leaves the tracker as it was.
   *
   * @param accessTimeThisRound segment id → total query time spent on it this round; finite and ≥ 0
   * @throws IllegalArgumentException naming the segment with an empty id, or a NaN, infinite or negative time
   */
  public Map<String, Double> update(Map<String, Double> accessTimeThisRound)
  {
    return update(accessTimeThisRound, Map.of());
  }

  /**
   * As {@link #update(Map)}, and a segment seen for the first time whose predecessor the tracker knows starts from
   * the predecessor's state (see the class comment).
   *
   * @param predecessors segment id → id of the segment it follows; segments without one are left out
   */
  public Map<String, Double> update(Map<String, Double> accessTimeThisRound, Map<String, String> predecessors)
  {
    return update(accessTimeThisRound, predecessors, Set.of());
  }

  /**
   * As {@link #update(Map, Map)}, and the segments in {@code unmeasured}, which must also be in
   * {@code accessTimeThisRound} (with any time: it is not used), keep the state they had: nobody measured them this
   * round. One the tracker does not know yet is counted as a segment that drew 0.
   */
  public Map<String, Double> update(
      Map<String, Double> accessTimeThisRound,
      Map<String, String> predecessors,
      Set<String> unmeasured
  )
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
    final int capacity = Math.max(16, accessTimeThisRound.size() * 4 / 3 + 1);
    final Map<String, Double> nextRaw = new HashMap<>(capacity);
    final Map<String, Integer> nextAge = new HashMap<>(capacity);
    final Map<String, Double> reported = new LinkedHashMap<>(capacity);
    for (Map.Entry<String, Double> e : accessTimeThisRound.entrySet()) {
      final String segment = e.getKey();
      if (unmeasured.contains(segment) && raw.containsKey(segment)) {
        nextRaw.put(segment, raw.get(segment));
        nextAge.put(segment, age.get(segment));
        reported.put(segment, popularity.get(segment));
        continue;
      }
      String history = segment;
      Double previous = raw.get(segment);
      if (previous == null && predecessors.containsKey(segment)) {
        history = predecessors.get(segment);
        previous = raw.get(history);
      }
      final double value = (previous == null ? 0.0 : decay * previous) + e.getValue();
      final int rounds = previous == null ? 1 : age.get(history) + 1;
      nextRaw.put(segment, value);
      nextAge.put(segment, rounds);
      reported.put(segment, biasCorrected ? value / (1 - Math.pow(decay, rounds)) : value);
    }
    raw = nextRaw;
    age = nextAge;
    popularity = Collections.unmodifiableMap(reported);
    return popularity;
  }

  /** The popularity after the last {@link #update} (bias-corrected if the tracker is); empty before the first round. */
  public Map<String, Double> popularity()
  {
    return popularity;
  }
}
