package org.getafix.core.placement.plan;

/**
 * The query load one segment asks of the cluster in a round: its popularity (smoothed query time), and how
 * much memory each replica of it takes.
 *
 * @param segmentId  opaque segment identifier
 * @param load       popularity: smoothed query time, in any unit shared by all segments; finite and ≥ 0
 * @param sizeBytes  size of one replica; ≥ 0
 */
public record SegmentLoad(String segmentId, double load, long sizeBytes)
{
  public SegmentLoad
  {
    Validation.requireId("segmentId", segmentId);
    Validation.requireNonNegativeFinite("load of segment " + segmentId, load);
    Validation.requireNonNegative("sizeBytes of segment " + segmentId, sizeBytes);
  }
}
