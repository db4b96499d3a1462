package org.getafix.simulator.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SustainedLoadTest
{
  static ExecutionResult point(double load, double rt, double quality)
  {
    return new ExecutionResult("x", "s", load, 100 * load, 100 * load, 0, 0, quality, quality, rt, 100, 1, null, null, null);
  }

  @Test
  void interpolatesTheQualityCrossing()
  {
    final SustainedLoad l = SustainedLoad.ofSweep(
        List.of(point(2, 90, 0.8), point(1, 50, 1.0), point(3, 95, 0.5)), 0.9);
    assertEquals(1.5, l.loadFactor(), 1e-9);
    assertEquals(150, l.queriesPerSecond(), 1e-9);
    assertEquals("quality", l.limitedBy());
  }

  @Test
  void aMissedResponseTargetStopsAtTheLastGoodLoad()
  {
    final SustainedLoad l = SustainedLoad.ofSweep(List.of(point(1, 50, 1.0), point(2, 120, 0.99)), 0.9);
    assertEquals(1, l.loadFactor(), 1e-9);
    assertEquals("response time", l.limitedBy());
    assertEquals(0, SustainedLoad.ofSweep(List.of(point(1, 50, 0.5)), 0.9).loadFactor());
    assertEquals("none", SustainedLoad.ofSweep(List.of(point(1, 50, 0.95)), 0.9).limitedBy());
  }
}
