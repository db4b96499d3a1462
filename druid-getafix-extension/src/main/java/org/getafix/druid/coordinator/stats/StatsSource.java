package org.getafix.druid.coordinator.stats;

import java.util.Map;

/** Where a round gets the Historicals' stats from: {@link StatsPuller} over HTTP, or a test double. */
public interface StatsSource
{
  /**
   * @param baseUrls node name (host:port) → scheme://host:port
   * @return node name → its report or the problem, for every node asked
   */
  Map<String, StatsPuller.Pulled> pull(Map<String, String> baseUrls, long timeoutMillis);
}
