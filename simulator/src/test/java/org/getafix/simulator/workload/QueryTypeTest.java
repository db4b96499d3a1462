package org.getafix.simulator.workload;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QueryTypeTest
{
  @Test
  void taskCostHasTheConfiguredMeanAndVariation()
  {
    final QueryType groupBy = new QueryType("groupBy", 1, 40, 1.0);
    final SplittableRandom r = new SplittableRandom(3);
    final int n = 400_000;
    double sum = 0;
    double sumSq = 0;
    for (int i = 0; i < n; i++) {
      final double x = groupBy.drawTaskSeconds(r);
      sum += x;
      sumSq += x * x;
    }
    final double mean = sum / n;
    final double sd = Math.sqrt(sumSq / n - mean * mean);
    assertEquals(0.040, mean, 0.040 * 0.02);
    assertEquals(1.0, sd / mean, 0.08);
  }

  @Test
  void zeroVariationIsAFixedCost()
  {
    assertEquals(0.006, new QueryType("timeseries", 1, 6, 0).drawTaskSeconds(new SplittableRandom(1)), 1e-15);
  }
}
