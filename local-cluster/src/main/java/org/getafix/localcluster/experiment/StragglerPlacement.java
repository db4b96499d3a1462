package org.getafix.localcluster.experiment;

import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * The placement the quality measurements run on: one replica per segment, a fifth or more of them on the straggler
 * only, so that the Broker cannot route around it, whatever placement came before (Getafix's plan, or stock's 2
 * replicas). Shared by the quality integration tests and {@code ./getafix bench live}.
 */
public final class StragglerPlacement
{
  private StragglerPlacement()
  {
  }

  /** Hands placement to stock Druid with one replica and waits for it; returns the holders of each segment. */
  public static Map<String, Set<String>> oneReplicaEach(LocalDruidCluster cluster, SyntheticDataset dataset, int straggler)
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
}
