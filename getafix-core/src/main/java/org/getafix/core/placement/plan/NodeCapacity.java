package org.getafix.core.placement.plan;

/**
 * What one Historical can take: its estimated compute capacity, relative to the other nodes, and its memory limit.
 *
 * @param nodeId       opaque node identifier
 * @param capacity     estimated compute capacity; finite and ≥ 0 (0 means: give it no query load)
 * @param maxSizeBytes the most replica bytes the node may hold; ≥ 0
 */
public record NodeCapacity(String nodeId, double capacity, long maxSizeBytes)
{
  public NodeCapacity
  {
    Validation.requireId("nodeId", nodeId);
    Validation.requireNonNegativeFinite("capacity of node " + nodeId, capacity);
    Validation.requireNonNegative("maxSizeBytes of node " + nodeId, maxSizeBytes);
  }
}
