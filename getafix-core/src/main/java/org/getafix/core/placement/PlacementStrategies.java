package org.getafix.core.placement;

import org.getafix.core.registry.Registry;

import java.util.List;
import java.util.function.IntFunction;

/**
 * The placement strategies by name: the one list the Coordinator extension, the simulator, the benchmarks and the
 * docs read. Adding a baseline means adding its {@link Entry} here (and its class); nothing else lists strategies.
 */
public final class PlacementStrategies
{
  /**
   * One placement strategy and how a planning round must feed and realise it.
   *
   * @param name          the strategy's one name, equal to its {@link PlacementStrategy#name()}
   * @param description   one line for docs and reports
   * @param capacityAware whether it weighs nodes by estimated capacity; a {@link PlanningRound} runs a capacity
   *                      estimator only for these and gives every node capacity 1 otherwise
   * @param loadSignal    what a segment's load is for it
   * @param split         how it splits a segment no free bin takes whole; null when it does not split (Scarlett,
   *                      Druid's default)
   * @param budgeted      whether the Druid extension realises it through its {@code getafix} rule, and so under the
   *                      rule's churn budget ({@code maxLoadsPerRound}); the others stand for other systems (Scarlett)
   *                      or for stock Druid, whose replication throttle the simulated scenarios never reach
   * @param factory       the strategy, given Druid's replication factor (used by the baselines that stand for stock
   *                      Druid)
   * @param thesis        the thesis' algorithm as published: it ignores the plan options added for latency (the hot
   *                      floor, {@link PlacementConstraints#hotLoadShare}, popularity inheritance and bias
   *                      correction), so that its
   *                      figures can be reported beside ours
   */
  public record Entry(
      String name,
      String description,
      boolean capacityAware,
      LoadSignal loadSignal,
      SplitPolicy split,
      boolean budgeted,
      IntFunction<PlacementStrategy> factory,
      boolean thesis
  ) implements Registry.Entry
  {
    /** The strategy; {@code druidReplicationFactor} matters only to Druid's default. */
    public PlacementStrategy create(int druidReplicationFactor)
    {
      return factory.apply(druidReplicationFactor);
    }
  }

  public static final Registry<Entry> REGISTRY = Registry.of("placement strategy", List.of(
      new Entry(
          "getafix-h",
          "capacity-aware ModifiedBestFit, replica floor and segment balancer (Algorithm 3.1), even split",
          true, LoadSignal.ACCESS_TIME_POPULARITY, SplitPolicy.EVEN, true, f -> Strategies.getafixH(), false
      ),
      new Entry(
          "getafix-b",
          "ModifiedBestFit over equal nodes and replica floor (Algorithm 2.1), even split",
          false, LoadSignal.ACCESS_TIME_POPULARITY, SplitPolicy.EVEN, true, f -> Strategies.getafixB(), false
      ),
      new Entry(
          "auto-tiering-only",
          "Getafix-H without the segment balancer (thesis §4.3.1)",
          true, LoadSignal.ACCESS_TIME_POPULARITY, SplitPolicy.EVEN, true, f -> Strategies.autoTieringOnly(), false
      ),
      new Entry(
          "getafix-h-thesis-split",
          "Getafix-H with Algorithm 3.1's fill-and-re-queue split",
          true, LoadSignal.ACCESS_TIME_POPULARITY, SplitPolicy.THESIS, true,
          f -> Strategies.getafix(true, SplitPolicy.THESIS), false
      ),
      new Entry(
          "getafix-h-thesis",
          "Getafix-H as the thesis publishes it: Algorithm 3.1's split, thesis popularity, no hot floor",
          true, LoadSignal.ACCESS_TIME_POPULARITY, SplitPolicy.THESIS, true, f -> Strategies.getafixHThesis(), true
      ),
      new Entry(
          "getafix-b-thesis-split",
          "Getafix-B with Algorithm 2.1's fill-and-re-queue split",
          false, LoadSignal.ACCESS_TIME_POPULARITY, SplitPolicy.THESIS, true,
          f -> Strategies.getafix(false, SplitPolicy.THESIS), false
      ),
      new Entry(
          "scarlett",
          "one replica per peak concurrent access, never below Druid's default of 2, dealt round-robin",
          false, LoadSignal.PEAK_CONCURRENT_ACCESSES, null, false, f -> Strategies.scarlett(), false
      ),
      new Entry(
          "druid-default",
          "Druid's uniform replication factor, even segment counts",
          false, LoadSignal.ACCESS_TIME_POPULARITY, null, false, Strategies::druidDefault, false
      )
  ));

  private PlacementStrategies()
  {
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
