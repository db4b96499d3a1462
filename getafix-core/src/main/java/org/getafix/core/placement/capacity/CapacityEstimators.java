package org.getafix.core.placement.capacity;

import org.getafix.core.registry.Registry;

import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The capacity estimators by name, for the Coordinator extension ({@code druid.getafix.capacity.estimator}) and the
 * simulator ({@code capacityEstimator} in a scenario). Adding an estimator means adding its {@link Entry} here.
 */
public final class CapacityEstimators
{
  /**
   * @param name        the estimator's one name, as written in configs, scenarios and reports
   * @param description one line for docs and reports
   * @param factory     a fresh estimator, given the weight of the newest round in (0, 1]
   */
  public record Entry(String name, String description, DoubleFunction<CapacityEstimator> factory)
      implements Registry.Entry
  {
    public CapacityEstimator create(double smoothing)
    {
      return factory.apply(smoothing);
    }
  }

  public static final Registry<Entry> REGISTRY = Registry.of("capacity estimator", List.of(
      new Entry(
          "cpu-time",
          "query CPU seconds per second of the round (thesis §3.1); starves idle strong nodes",
          CpuTimeCapacityEstimator::new
      ),
      new Entry(
          "throughput",
          "work completed per utilisation-weighted busy second: what the node sustains when fully busy",
          ThroughputCapacityEstimator::new
      )
  ));

  private CapacityEstimators()
  {
  }
}
