package org.getafix.simulator.strategy;

import org.getafix.core.placement.capacity.NodeRoundStats;
import org.getafix.simulator.cluster.Cluster;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the Coordinator learns at the end of one round: per-segment access statistics, per-node statistics and
 * who holds what. The same counts a Druid Historical reports in the extension.
 *
 * @param segments       every live segment, with its access time and peak concurrency this round
 * @param nodes          every node's statistics this round, in node order
 * @param currentHolders segment id → nodes holding or loading it
 */
public record RoundObservation(
    List<Cluster.SegmentRoundStats> segments,
    List<NodeObservation> nodes,
    Map<String, Set<String>> currentHolders
)
{
  /** One node's round: its id, memory limit and measured statistics. */
  public record NodeObservation(String nodeId, long memoryBytes, NodeRoundStats stats)
  {
  }
}
