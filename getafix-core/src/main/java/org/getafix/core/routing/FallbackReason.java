package org.getafix.core.routing;

/** Why allocation-based routing handed a pick to its load-based fallback; the {@code reason} metric dimension. */
public enum FallbackReason
{
  /** No routing table has been received yet. */
  NO_TABLE("noTable"),
  /** The table has not been confirmed by the Coordinator for longer than the allowed age. */
  STALE_TABLE("staleTable"),
  /** The table has no usable row for the segment (unknown segment, or only garbage/zero shares). */
  NOT_IN_TABLE("notInTable"),
  /** The node drawn from the table is not among the segment's current holders. */
  NOT_HELD("notHeld");

  private final String metricValue;

  FallbackReason(String metricValue)
  {
    this.metricValue = metricValue;
  }

  public String metricValue()
  {
    return metricValue;
  }
}
