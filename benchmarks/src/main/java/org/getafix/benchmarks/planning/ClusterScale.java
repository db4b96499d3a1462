package org.getafix.benchmarks.planning;

/**
 * The cluster sizes the planning benchmarks run at. {@code newSegments} is how many segments arrive without any
 * replica in the round (fresh hand-offs, or re-replication after a node loss): Druid's {@code cost} strategy places
 * exactly these, because placing every segment with it is out of reach at the larger sizes.
 */
public enum ClusterScale
{
  SEGMENTS_10K_NODES_50(10_000, 50, 1_000),
  SEGMENTS_100K_NODES_200(100_000, 200, 500),
  SEGMENTS_1M_NODES_1000(1_000_000, 1_000, 100);

  private final int segments;
  private final int nodes;
  private final int newSegments;

  ClusterScale(int segments, int nodes, int newSegments)
  {
    this.segments = segments;
    this.nodes = nodes;
    this.newSegments = newSegments;
  }

  public int segments()
  {
    return segments;
  }

  public int nodes()
  {
    return nodes;
  }

  public int newSegments()
  {
    return newSegments;
  }
}
