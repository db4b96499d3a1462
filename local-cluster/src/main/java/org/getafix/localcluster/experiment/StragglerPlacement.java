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
 * The placements the quality measurements run on, whatever placement came before (Getafix's plan, or stock's 2
 * replicas): one replica per segment, a fifth or more of them on the straggler only, so that the Broker cannot route
 * around it; or two, so that a hedge can. Shared by the quality integration tests and {@code ./getafix bench live}.
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
    return replicasEach(cluster, dataset, straggler, 1);
  }

  /**
   * Hands placement to stock Druid with {@code replicas} replicas and waits until every segment has exactly that many,
   * a fifth or more of the segments on the straggler, then stops Druid's balancer from moving any; returns the holders
   * of each segment.
   */
  public static Map<String, Set<String>> replicasEach(
      LocalDruidCluster cluster,
      SyntheticDataset dataset,
      int straggler,
      int replicas
  ) throws TimeoutException
  {
    GetafixSetup.handPlacementToStock(cluster, dataset.dataSource(), replicas);
    final String stragglerHost = cluster.historical(straggler).hostAndPort();
    final Map<String, Set<String>> holders = new HashMap<>();
    Waits.await(
        "every segment on exactly " + replicas + " Historical(s), some on the straggler",
        Duration.ofMinutes(4),
        Duration.ofSeconds(1),
        () -> {
          holders.clear();
          holders.putAll(GetafixSetup.holdersChecked(cluster, dataset.dataSource()));
          return holders.size() == dataset.hours()
                 && holders.values().stream().allMatch(h -> h.size() == replicas)
                 && holders.values().stream().filter(h -> h.contains(stragglerHost)).count() >= dataset.hours() / 5;
        },
        () -> "holders per segment: " + holders
    );
    // Frozen there: Druid's balancer would otherwise go on moving segments, and a measurement that names the
    // straggler's segments would find some of them moved.
    cluster.coordinatorClient().updateDynamicConfig(Map.of("smartSegmentLoading", false, "maxSegmentsToMove", 0));
    return holders;
  }
}
