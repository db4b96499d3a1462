package org.getafix.benchmarks.planning;

import com.google.common.util.concurrent.MoreExecutors;
import org.apache.druid.server.coordinator.ServerHolder;
import org.apache.druid.server.coordinator.balancer.BalancerStrategy;
import org.apache.druid.server.coordinator.balancer.CostBalancerStrategy;
import org.apache.druid.server.coordinator.loading.SegmentAction;
import org.apache.druid.timeline.DataSegment;
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

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Druid 33.0.0's {@code cost} balancer placing the round's new segments of a {@link SyntheticCluster} onto its
 * populated Historicals, exactly as {@code StrategicSegmentAssigner} does with {@code smartSegmentLoading=false}:
 * one {@link BalancerStrategy#findServersToLoadSegment} call per segment, then the first
 * {@value #REPLICAS} servers that accept it get a queued load, which later calls see. The strategy runs on a
 * direct executor, i.e. one core (Druid spreads the per-server cost over {@code balancerComputeThreads}, which
 * divides wall time, not work).
 * <p>
 * Primary score: wall time to place all {@link ClusterScale#newSegments()} segments. Secondary score {@code segment}:
 * wall time per placed segment. {@link CpuTime} adds the benchmark thread's CPU time per placed segment. Each
 * invocation starts from the same populated tier (fresh {@link ServerHolder}s, built outside the measured time).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx12g", "-XX:+UseParallelGC"})
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 3, time = 10)
public class CostPlanningBenchmark
{
  static final int REPLICAS = SyntheticCluster.CURRENT_REPLICAS;

  @Param
  public ClusterScale scale;

  private DruidTier tier;
  private List<ServerHolder> run;

  @Setup(Level.Trial)
  public void generate()
  {
    tier = new DruidTier(SyntheticCluster.generate(scale, PlanningSeeds.CLUSTER));
  }

  @Setup(Level.Invocation)
  public void startRun()
  {
    run = tier.newRun();
  }

  /** What the last run queued, so that a run shows every new segment got its replicas. */
  @TearDown(Level.Trial)
  public void describeRun()
  {
    final long queued = run.stream().mapToLong(ServerHolder::getNumQueuedSegments).sum();
    System.out.printf(
        "%ncost placed %,d new segments on %,d Historicals holding %,d replicas: %,d loads queued%n",
        tier.newSegments().size(),
        run.size(),
        run.stream().mapToLong(holder -> holder.getServer().getNumSegments()).sum(),
        queued
    );
  }

  @Benchmark
  public int placeNewSegments(PlacedSegments placed, CpuTime cpu)
  {
    cpu.start();
    final BalancerStrategy cost = new CostBalancerStrategy(MoreExecutors.newDirectExecutorService());
    int replicas = 0;
    for (DataSegment segment : tier.newSegments()) {
      final Iterator<ServerHolder> servers = cost.findServersToLoadSegment(segment, run);
      int loaded = 0;
      while (loaded < REPLICAS && servers.hasNext()) {
        if (servers.next().startOperation(SegmentAction.LOAD, segment)) {
          loaded++;
        }
      }
      replicas += loaded;
      placed.segment++;
    }
    cpu.stop(tier.newSegments().size());
    return replicas;
  }

  /** Counts placed segments, so that JMH also reports the time per segment. */
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class PlacedSegments
  {
    public long segment;

    @Setup(Level.Iteration)
    public void reset()
    {
      segment = 0;
    }
  }
}
