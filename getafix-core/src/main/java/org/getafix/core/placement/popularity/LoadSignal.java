package org.getafix.core.placement.popularity;

import java.util.Map;

/**
 * What a segment's load is for a placement strategy: the value a planning round passes as its load, from the segment's
 * round and the popularity tracked across rounds. Each strategy's registry entry names its signal.
 */
@FunctionalInterface
public interface LoadSignal
{
  /** Popularity(s) = decay · Popularity(s) + AccessTime(s) (thesis §2.2): Getafix, its variants and Druid's default. */
  LoadSignal ACCESS_TIME_POPULARITY = (segment, popularity) -> popularity.getOrDefault(segment.segmentId(), 0.0);

  /** Peak concurrent accesses in the round: Scarlett (EuroSys'11), which adds one replica per concurrent reader. */
  LoadSignal PEAK_CONCURRENT_ACCESSES = (segment, popularity) -> segment.peakConcurrentAccesses();

  /**
   * @param segment    the segment's round
   * @param popularity segment id → popularity after this round ({@link PopularityTracker#update})
   * @return the segment's load: finite and ≥ 0
   */
  double loadOf(SegmentSample segment, Map<String, Double> popularity);
}
