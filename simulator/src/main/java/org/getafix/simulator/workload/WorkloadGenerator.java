package org.getafix.simulator.workload;

import java.util.random.RandomGenerator;

/**
 * Where a query looks in time. Segments are addressed by age: 0 is the newest queryable segment. One small
 * interface so that a trace reader can replace the synthetic generator.
 */
public interface WorkloadGenerator
{
  /**
   * @param queryableSegments how many segments can be queried now (≥ 1)
   * @return the query's interval as ages [newestAge, newestAge + length), within [0, queryableSegments)
   */
  Interval next(RandomGenerator random, int queryableSegments);

  record Interval(int newestAge, int length)
  {
  }
}
