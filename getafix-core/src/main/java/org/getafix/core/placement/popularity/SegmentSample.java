package org.getafix.core.placement.popularity;

/**
 * One segment's round, as measured: what its popularity and its load signal are made from.
 *
 * @param accessTime             query time spent on it this round (popularity input), finite and ≥ 0
 * @param peakConcurrentAccesses most queries on it at once this round (Scarlett's load); 0 when not measured
 * @param predecessorId          the segment this one follows (same datasource, the previous interval), or null
 *                               when there is none or the caller does not know
 * @param measured               false when none of its holders reported this round, so that its access time (0) is
 *                               not known: its popularity is then kept as it was
 */
public record SegmentSample(
    String segmentId,
    long sizeBytes,
    double accessTime,
    double peakConcurrentAccesses,
    String predecessorId,
    boolean measured
)
{
  /** A measured segment. */
  public SegmentSample(
      String segmentId,
      long sizeBytes,
      double accessTime,
      double peakConcurrentAccesses,
      String predecessorId
  )
  {
    this(segmentId, sizeBytes, accessTime, peakConcurrentAccesses, predecessorId, true);
  }

  /** A segment whose predecessor is not known. */
  public SegmentSample(String segmentId, long sizeBytes, double accessTime, double peakConcurrentAccesses)
  {
    this(segmentId, sizeBytes, accessTime, peakConcurrentAccesses, null);
  }
}
