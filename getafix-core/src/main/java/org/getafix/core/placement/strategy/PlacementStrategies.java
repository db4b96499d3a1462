package org.getafix.core.placement.strategy;

import org.getafix.core.placement.packing.DruidDefaultStrategy;
import org.getafix.core.placement.packing.GetafixStrategy;
import org.getafix.core.placement.packing.PlacementStrategy;
import org.getafix.core.placement.packing.ScarlettStrategy;
import org.getafix.core.placement.packing.SplitPolicy;
import org.getafix.core.placement.plan.PlacementConstraints;
import org.getafix.core.placement.popularity.LoadSignal;
import org.getafix.core.registry.Registry;

import java.util.List;
import java.util.function.IntFunction;

/**
 * The placement strategies by name: Getafix-H and the baselines it is compared with (thesis §4), the one list the
 * Coordinator extension, the simulator, the benchmarks and the docs read. Each strategy is declared here once, with
 * its name, its traits and its settings; adding a baseline means adding its {@link Entry} (and, for a new algorithm,
 * its {@link PlacementStrategy}).
 */
public final class PlacementStrategies
{
  /** Druid's default replication factor: the replicas of Druid's default, and the base Scarlett never goes below. */
  public static final int DEFAULT_DRUID_REPLICATION_FACTOR = 2;

  /**
   * One placement strategy and how a planning round must feed and realise it.
   *
   * @param name          the strategy's one name, as written in configs, scenarios, reports and metrics
   * @param description   one line for docs and reports
   * @param capacityAware whether it weighs nodes by estimated capacity; a planning round runs a capacity estimator
   *                      only for these and gives every node capacity 1 otherwise
   * @param loadSignal    what a segment's load is for it, from the segment's round and its popularity
   * @param budgeted      whether the Druid extension realises it through its {@code getafix} rule, and so under the
   *                      rule's churn budget ({@code maxLoadsPerRound}); the others stand for other systems (Scarlett)
   *                      or for stock Druid, whose replication throttle the simulated scenarios never reach
   * @param thesis        the thesis' algorithm as published: it ignores the plan options added for latency (the hot
   *                      floor, {@link PlacementConstraints#hotLoadShare}, popularity inheritance and bias
   *                      correction), so that its figures can be reported beside ours
   * @param factory       the strategy, given Druid's replication factor (used by the baselines that stand for stock
   *                      Druid)
   */
  public record Entry(
      String name,
      String description,
      boolean capacityAware,
      LoadSignal loadSignal,
      boolean budgeted,
      boolean thesis,
      IntFunction<PlacementStrategy> factory
  ) implements Registry.Entry
  {
    /** The strategy; {@code druidReplicationFactor} matters only to Druid's default. */
    public PlacementStrategy create(int druidReplicationFactor)
    {
      return factory.apply(druidReplicationFactor);
    }
  }

  public static final Registry<Entry> REGISTRY = Registry.of("placement strategy", List.of(
      getafix(
          "getafix-h",
          "capacity-aware ModifiedBestFit, replica floor and segment balancer (Algorithm 3.1), even split",
          true, true, SplitPolicy.EVEN, false
      ),
      getafix(
          "getafix-b",
          "ModifiedBestFit over equal nodes and replica floor (Algorithm 2.1), even split",
          false, false, SplitPolicy.EVEN, false
      ),
      getafix(
          "auto-tiering-only",
          "Getafix-H without the segment balancer (thesis §4.3.1)",
          true, false, SplitPolicy.EVEN, false
      ),
      getafix(
          "getafix-h-thesis-split",
          "Getafix-H with Algorithm 3.1's fill-and-re-queue split",
          true, true, SplitPolicy.THESIS, false
      ),
      getafix(
          "getafix-h-thesis",
          "Getafix-H as the thesis publishes it: Algorithm 3.1's split, thesis popularity, no hot floor",
          true, true, SplitPolicy.THESIS, true
      ),
      getafix(
          "getafix-b-thesis-split",
          "Getafix-B with Algorithm 2.1's fill-and-re-queue split",
          false, false, SplitPolicy.THESIS, false
      ),
      // Scarlett raises popular files above the file system's default replication and never goes below it; Getafix
      // is compared with Druid, so Druid's default is the fair base.
      new Entry(
          "scarlett",
          "one replica per peak concurrent access, never below Druid's default of 2, dealt round-robin",
          false, LoadSignal.PEAK_CONCURRENT_ACCESSES, false, false,
          druidReplicationFactor -> new ScarlettStrategy(DEFAULT_DRUID_REPLICATION_FACTOR)
      ),
      new Entry(
          "druid-default",
          "Druid's uniform replication factor, even segment counts",
          false, LoadSignal.ACCESS_TIME_POPULARITY, false, false, DruidDefaultStrategy::new
      )
  ));

  private PlacementStrategies()
  {
  }

  /**
   * A Getafix variant: fed access-time popularity and realised under the {@code getafix} rule's churn budget; the
   * thesis' variant plans without the hot floor.
   *
   * @param capacityAware weigh nodes by estimated capacity (Algorithm 3.1) rather than equally (Algorithm 2.1)
   * @param balance       run the segment balancer with the constraints' γ
   */
  private static Entry getafix(
      String name,
      String description,
      boolean capacityAware,
      boolean balance,
      SplitPolicy split,
      boolean thesis
  )
  {
    final PlacementStrategy strategy = new GetafixStrategy(capacityAware, balance, split, !thesis);
    return new Entry(
        name,
        description,
        capacityAware,
        LoadSignal.ACCESS_TIME_POPULARITY,
        true,
        thesis,
        druidReplicationFactor -> strategy
    );
  }

  /** The strategy registered as {@code name}, with Druid's default replication factor. */
  public static PlacementStrategy create(String name)
  {
    return REGISTRY.get(name).create(DEFAULT_DRUID_REPLICATION_FACTOR);
  }

  /**
   * The strategy the Coordinator extension plans with: Getafix-H with {@code druid.getafix.planning.split}'s way of
   * splitting.
   */
  public static Entry getafixH(SplitPolicy split)
  {
    return REGISTRY.get(split == SplitPolicy.THESIS ? "getafix-h-thesis-split" : "getafix-h");
  }
}
