package org.getafix.demo;

import java.util.List;

/**
 * Everything the demo report shows.
 *
 * @param cluster         the cluster, in words (nodes, caps, whether cgroups enforce them)
 * @param workload        the dataset and workload, in words
 * @param seed            seed of the measured query sequence (the same for every strategy)
 * @param warmUpSeconds   workload run before measuring, per strategy
 * @param measureSeconds  measured workload per strategy
 * @param phases          one per strategy, in the order they ran
 */
public record DemoResults(
    String cluster,
    String workload,
    long seed,
    double warmUpSeconds,
    double measureSeconds,
    List<PhaseRecord> phases
)
{
  public DemoResults
  {
    phases = List.copyOf(phases);
  }
}
