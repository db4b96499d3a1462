package org.getafix.core.placement.capacity;

/**
 * One live node's round, as a planning round is given it: its memory, its statistics for the capacity estimate, and
 * whether the plan may use it.
 *
 * @param memoryBytes  what the plan may place on it
 * @param stats        its measured statistics; null when it brought no news (see {@link #failed})
 * @param failed       it was asked and gave no usable statistics: its estimator keeps the last estimate and
 *                     records why. False with null stats: nothing to say yet (e.g. its first report, a baseline)
 * @param placeable    whether the plan may put replicas on it (false for a node that stopped answering); it keeps
 *                     its capacity and tier either way
 */
public record NodeSample(String nodeId, long memoryBytes, NodeRoundStats stats, boolean failed, boolean placeable)
{
  public static NodeSample measured(String nodeId, long memoryBytes, NodeRoundStats stats)
  {
    return new NodeSample(nodeId, memoryBytes, stats, false, true);
  }
}
