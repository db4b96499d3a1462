package org.getafix.core.placement.capacity;

import java.util.Map;
import java.util.Set;

/**
 * Estimates each Historical's compute capacity from the statistics it reports every round (thesis §3.1). The
 * estimates are relative: only their ratios matter to the placement. Implementations never throw on bad stats: a
 * missing ({@code null}) or garbage report keeps the node's last good estimate and is recorded in
 * {@link #rejections()}. Not thread-safe; one instance per planning loop.
 */
public interface CapacityEstimator
{
  /**
   * Folds one round of one node's statistics into its estimate.
   *
   * @param nodeId non-empty node id (an empty id is a programming error and throws IllegalArgumentException)
   * @param stats  the node's round statistics; null or unusable stats are rejected and keep the last estimate
   */
  void observe(String nodeId, NodeRoundStats stats);

  /** node id → current capacity estimate (finite, ≥ 0), for every node that has reported usable stats, by node id. */
  Map<String, Double> capacities();

  /** Drops the estimate of a node that left the cluster. */
  void forget(String nodeId);

  /**
   * node id → why its latest report was rejected, for the nodes whose latest report was rejected (cleared by the
   * node's next usable report). For logs and metrics.
   */
  Map<String, String> rejections();

  /**
   * node id → how many of its recent rounds were slow (stalled, or well below its usual speed), for every node with
   * samples, by id. For metrics.
   */
  Map<String, Integer> slowRounds();

  /**
   * The nodes slow often enough that a segment they hold alone needs a second holder to be read predictably (a
   * query that meets a slow spell has nowhere else to go), by id.
   */
  Set<String> unstable();

  /** The estimate of {@code nodeId}, or {@code fallback} when it has none yet (a node that just joined). */
  default double capacityOr(String nodeId, double fallback)
  {
    final Double c = capacities().get(nodeId);
    return c == null ? fallback : c;
  }
}
