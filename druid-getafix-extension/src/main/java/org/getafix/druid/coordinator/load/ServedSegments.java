package org.getafix.druid.coordinator.load;

import org.apache.druid.timeline.DataSegment;

import java.util.Set;

/**
 * Which live Historicals of a tier serve a segment right now. On the Coordinator this reads Druid's server inventory
 * (the same view the Coordinator builds its run from), so a Historical that died is gone at once.
 */
public interface ServedSegments
{
  /** Names (host:port) of the live Historicals of {@code tier} that serve {@code segment}. */
  Set<String> holders(DataSegment segment, String tier);

  /** Names of the live Historicals of {@code tier}. */
  Set<String> liveServers(String tier);
}
