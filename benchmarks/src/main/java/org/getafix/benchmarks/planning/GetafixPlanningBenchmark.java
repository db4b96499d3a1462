package org.getafix.benchmarks.planning;

import org.getafix.core.placement.packing.PlacementStrategy;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.plan.PlacementInput;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.strategy.PlacementStrategies;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One planning round of Getafix on a {@link SyntheticCluster}: {@code plan(PlacementInput)} for every segment and
 * node of the tier, on one thread. {@code getafixH} is the full round (capacity-aware ModifiedBestFit, replica
 * floor, segment balancer); {@code autoTieringOnly} is the same without the balancer, so the difference is the
 * balancer's time; {@code getafixB} is Getafix with equal node weights and no balancer.
 * <p>
 * Primary score: wall time per round. Secondary score {@code segment}: wall time per planned segment (round time /
 * segments). {@link CpuTime} adds the benchmark thread's CPU time per round and per segment.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx12g", "-XX:+UseParallelGC"})
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 3, time = 10)
public class GetafixPlanningBenchmark
{
  /** Druid's default of 2 replicas as the floor, so both sides keep the same redundancy; γ = 20% (thesis). */
  static final PlacementConstraints CONSTRAINTS =
      new PlacementConstraints(SyntheticCluster.CURRENT_REPLICAS, Integer.MAX_VALUE, 0.20);
  private static final PlacementStrategy GETAFIX_H = PlacementStrategies.create("getafix-h");
  private static final PlacementStrategy AUTO_TIERING_ONLY = PlacementStrategies.create("auto-tiering-only");
  private static final PlacementStrategy GETAFIX_B = PlacementStrategies.create("getafix-b");

  @Param
  public ClusterScale scale;

  private PlacementInput input;
  private PlacementPlan lastPlan;

  @Setup(Level.Trial)
  public void generate()
  {
    input = SyntheticCluster.generate(scale, PlanningSeeds.CLUSTER).placementInput(CONSTRAINTS);
  }

  @Benchmark
  public PlacementPlan getafixH(PlannedSegments planned, CpuTime cpu)
  {
    planned.segment += input.segments().size();
    cpu.start();
    lastPlan = GETAFIX_H.plan(input);
    cpu.stop(input.segments().size());
    return lastPlan;
  }

  @Benchmark
  public PlacementPlan autoTieringOnly(PlannedSegments planned, CpuTime cpu)
  {
    planned.segment += input.segments().size();
    cpu.start();
    lastPlan = AUTO_TIERING_ONLY.plan(input);
    cpu.stop(input.segments().size());
    return lastPlan;
  }

  @Benchmark
  public PlacementPlan getafixB(PlannedSegments planned, CpuTime cpu)
  {
    planned.segment += input.segments().size();
    cpu.start();
    lastPlan = GETAFIX_B.plan(input);
    cpu.stop(input.segments().size());
    return lastPlan;
  }

  /** What the plan did, so that a run shows it planned a feasible round rather than a degenerate one. */
  @TearDown(Level.Trial)
  public void describePlan()
  {
    if (lastPlan != null) {
      System.out.printf(
          "%nplan of %,d segments on %,d nodes: %,d replicas, %,d segments short of their wanted replicas%n",
          input.segments().size(),
          input.nodes().size(),
          lastPlan.totalReplicas(),
          lastPlan.unplaced().size()
      );
    }
  }

  /** Counts planned segments, so that JMH also reports the time per segment. */
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class PlannedSegments
  {
    public long segment;

    @Setup(Level.Iteration)
    public void reset()
    {
      segment = 0;
    }
  }
}
