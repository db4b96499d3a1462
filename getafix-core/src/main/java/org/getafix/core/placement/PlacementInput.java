package org.getafix.core.placement;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one planning round sees.
 *
 * @param segments       per-segment load and size; segment ids are unique
 * @param nodes          per-node capacity and memory limit; node ids are unique
 * @param constraints    replica floor and cap, balancer bound
 * @param currentHolders segment id → ids of the nodes that hold it now; may be empty. Strategies may use it to
 *                       prefer plans that move less data; ids not among {@code segments}/{@code nodes} are ignored
 */
public record PlacementInput(
    List<SegmentLoad> segments,
    List<NodeCapacity> nodes,
    PlacementConstraints constraints,
    Map<String, Set<String>> currentHolders
)
{
  public PlacementInput
  {
    segments = List.copyOf(segments);
    nodes = List.copyOf(nodes);
    currentHolders = Map.copyOf(currentHolders);
    if (constraints == null) {
      throw new IllegalArgumentException("constraints must not be null");
    }
  }

  public PlacementInput(List<SegmentLoad> segments, List<NodeCapacity> nodes, PlacementConstraints constraints)
  {
    this(segments, nodes, constraints, Map.of());
  }
}
