package org.getafix.core.placement.plan;

/**
 * What one Historical can take: its estimated compute capacity, relative to the other nodes, and its memory limit.
 *
 * @param nodeId       opaque node identifier
 * @param capacity     estimated compute capacity; finite and ≥ 0 (0 means: give it no query load)
 * @param maxSizeBytes the most replica bytes the node may hold; ≥ 0
 * @param unstable     whether the node is slow often enough that what it holds alone needs a second holder
 *                     ({@link PlacementConstraints#backUpUnstable})
 */
public record NodeCapacity(String nodeId, double capacity, long maxSizeBytes, boolean unstable)
{
  /** A stable node. */
  public NodeCapacity(String nodeId, double capacity, long maxSizeBytes)
  {
    this(nodeId, capacity, maxSizeBytes, false);
  }

  public NodeCapacity
  {
    Validation.requireId("nodeId", nodeId);
    Validation.requireNonNegativeFinite("capacity of node " + nodeId, capacity);
    Validation.requireNonNegative("maxSizeBytes of node " + nodeId, maxSizeBytes);
  }
}
