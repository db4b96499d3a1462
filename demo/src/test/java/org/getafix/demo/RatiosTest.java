package org.getafix.demo;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RatiosTest
{
  @Test
  void percentilesAreNearestRank()
  {
    final double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertEquals(5, Ratios.percentile(sorted, 50));
    assertEquals(10, Ratios.percentile(sorted, 99));
    assertEquals(1, Ratios.percentile(sorted, 0));
  }

  @Test
  void aRunAgainstItselfIsOneWithAnIntervalAroundIt()
  {
    final PhaseRecord stock = DemoReportTest.stock();
    final List<Ratios.Ratio> ratios = Ratios.of(stock, stock);
    assertEquals(List.of("throughput", "p50 latency", "p99 latency", "replicas"),
                 ratios.stream().map(Ratios.Ratio::name).toList());
    for (Ratios.Ratio r : ratios) {
      assertEquals(1.0, r.value(), 1e-9, r.name());
    }
    final Ratios.Ratio p99 = ratios.get(2);
    assertTrue(p99.low() <= 1 && 1 <= p99.high(), p99.toString());
    assertTrue(Double.isNaN(ratios.get(0).low()), "no interval for throughput");
    assertEquals(p99, Ratios.of(stock, stock).get(2), "the same results give the same interval");
  }

  @Test
  void resamplesKeepTheHalvesBeforeAndAfterTheStraggler()
  {
    // Stock's timeline: 10 and 12 ms before the straggler, 900 and 1,100 after. A resample that could draw all four
    // from one half would put the p50 at 10 or 1,100 ms; drawn per half, it stays between 10 and 12.
    final PhaseRecord stock = DemoReportTest.stock();
    final Ratios.Ratio p50 = Ratios.of(stock, stock).get(1);
    assertTrue(p50.low() >= 10.0 / 12 && p50.high() <= 12.0 / 10, p50.toString());
  }
}
