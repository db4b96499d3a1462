package org.getafix.it.quality;

import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * The placement the quality ITs measure on: one replica per segment, a fifth or more of them on the straggler only, so
 * that the Broker cannot route around it, whatever placement the ITs before left (Getafix's plan, or stock's 2
 * replicas).
 */
final class StragglerPlacement
{
  private StragglerPlacement()
  {
  }

  /** Hands placement to stock Druid with one replica and waits for it; returns the holders of each segment. */
  static Map<String, Set<String>> oneReplicaEach(LocalDruidCluster cluster, SyntheticDataset dataset, int straggler)
      throws TimeoutException
  {
    GetafixSetup.handPlacementToStock(cluster, dataset.dataSource(), 1);
    final String stragglerHost = cluster.historical(straggler).hostAndPort();
    final Map<String, Set<String>> holders = new HashMap<>();
    Waits.await("every segment on exactly one Historical, some on the straggler", Duration.ofMinutes(4),
                Duration.ofSeconds(1), () -> {
          holders.clear();
          holders.putAll(GetafixSetup.holdersChecked(cluster, dataset.dataSource()));
          return holders.size() == dataset.hours()
                 && holders.values().stream().allMatch(h -> h.size() == 1)
                 && holders.values().stream().filter(h -> h.contains(stragglerHost)).count() >= dataset.hours() / 5;
        }, () -> "holders per segment: " + holders);
    return holders;
  }

  /** {@code query} with {@code context} as its whole context. */
  static Map<String, Object> withContext(Map<String, Object> query, Map<String, Object> context)
  {
    final Map<String, Object> withContext = new HashMap<>(query);
    withContext.put("context", context);
    return withContext;
  }
}
