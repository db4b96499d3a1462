package org.getafix.demo;

import org.getafix.localcluster.cluster.JitCompilerCpu;

import java.util.Comparator;
import java.util.List;

/**
 * Everything the demo report shows.
 *
 * @param cluster         the cluster, in words (nodes, caps, whether cgroups enforce them)
 * @param workload        the dataset and workload, in words
 * @param seed            seed of the measured query sequence (the same for every strategy)
 * @param warmUpSeconds   fixed workload run before measuring, per strategy, before placement and JIT settling
 * @param measureSeconds  measured workload per strategy
 * @param jitWarmUp       how every phase was warmed until the Historicals' JIT compilers settled
 * @param phases          one per strategy, in the order they ran
 */
public record DemoResults(
    String cluster,
    String workload,
    long seed,
    double warmUpSeconds,
    double measureSeconds,
    JitCompilerCpu.WarmUp jitWarmUp,
    List<PhaseRecord> phases
)
{
  public DemoResults
  {
    phases = List.copyOf(phases);
  }

  /** The phases in the comparison's order, stock Druid first, whichever ran first. */
  public List<PhaseRecord> compared()
  {
    return phases.stream().sorted(Comparator.comparing(PhaseRecord::strategy)).toList();
  }

  /** The phase of {@code strategy}, null when it did not run. */
  public PhaseRecord phase(Strategy strategy)
  {
    return phases.stream().filter(p -> p.strategy() == strategy).findFirst().orElse(null);
  }
}
