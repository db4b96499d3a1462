package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArrivalScheduleTest
{
  /** 10/s for 1,000 s, then 20/s for 1,000 s: about 10,000 and 20,000 arrivals. */
  private static final ArrivalSchedule LONG = new ArrivalSchedule(10, 1_000_000, 2_000_000, 7);

  @Test
  void theRateDoublesAtTheStep()
  {
    final List<Double> times = LONG.arrivalMillis();
    final long before = times.stream().filter(t -> t < LONG.stepMillis()).count();
    final long after = times.size() - before;
    // Poisson counts: sd = sqrt(10,000) = 100 before and sqrt(20,000) = 141 after; 5 sd either way.
    assertTrue(Math.abs(before - 10_000) < 500, "before the step: " + before);
    assertTrue(Math.abs(after - 20_000) < 710, "after the step: " + after);
    assertEquals(10, LONG.rateAt(999_999), 0);
    assertEquals(20, LONG.rateAt(1_000_000), 0);
  }

  @Test
  void theGapsAreExponentialNotEven()
  {
    final List<Double> times = LONG.arrivalMillis().stream().filter(t -> t < LONG.stepMillis()).toList();
    double sum = 0;
    double sumSquares = 0;
    for (int i = 1; i < times.size(); i++) {
      final double gap = times.get(i) - times.get(i - 1);
      sum += gap;
      sumSquares += gap * gap;
    }
    final int n = times.size() - 1;
    final double mean = sum / n;
    final double sd = Math.sqrt(sumSquares / n - mean * mean);
    assertEquals(100, mean, 5, "1/(10 per second)");
    // An exponential's sd equals its mean; even spacing would have none.
    assertEquals(1, sd / mean, 0.05);
  }

  @Test
  void theTimesAscendWithinTheRunAndRepeatWithTheirSeed()
  {
    final ArrivalSchedule schedule = new ArrivalSchedule(5, 10_000, 30_000, 1);
    final List<Double> times = schedule.arrivalMillis();
    for (int i = 1; i < times.size(); i++) {
      assertTrue(times.get(i) > times.get(i - 1));
    }
    assertTrue(times.get(0) >= 0 && times.get(times.size() - 1) < 30_000);
    assertEquals(times, schedule.arrivalMillis());
    assertNotEquals(times, new ArrivalSchedule(5, 10_000, 30_000, 2).arrivalMillis());
  }

  @Test
  void aScheduleNeedsARateAndAStepWithinTheRun()
  {
    assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(0, 1, 2, 1));
    assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(1, 0, 2, 1));
    assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(1, 2, 2, 1));
  }
}
