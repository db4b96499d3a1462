package org.getafix.core.quality.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadlineReserveTest
{
  @Test
  void noReserveBeforeEnoughQueriesWaitedUntilTheirDeadline()
  {
    final DeadlineReserve reserve = new DeadlineReserve(0.25);
    for (int i = 0; i < DeadlineReserve.MIN_SAMPLES - 1; i++) {
      reserve.recordAfterDeadline(30);
    }
    assertEquals(0, reserve.reserveMillis(1000));
    reserve.recordAfterDeadline(30);
    assertEquals(30, reserve.reserveMillis(1000), 1);
  }

  @Test
  void theReserveIsAHighPercentileOfTheTimeAfterTheDeadline()
  {
    final DeadlineReserve reserve = new DeadlineReserve(0.25);
    for (int i = 0; i < 100; i++) {
      reserve.recordAfterDeadline(i < 90 ? 5 : 40);
    }
    final long millis = reserve.reserveMillis(1000);
    assertTrue(millis >= 39 && millis <= 41, "the slow tenth sets a 95th-percentile reserve: " + millis);
  }

  @Test
  void theReserveNeverTakesMoreThanItsShareOfTheBudget()
  {
    final DeadlineReserve reserve = new DeadlineReserve(0.25);
    for (int i = 0; i < 50; i++) {
      reserve.recordAfterDeadline(500);
    }
    assertEquals(50, reserve.reserveMillis(200));
    assertEquals(0, new DeadlineReserve(0).reserveMillis(200), "a share of 0 keeps no reserve");
  }

  @Test
  void badMeasurementsAreIgnoredOrClamped()
  {
    final DeadlineReserve reserve = new DeadlineReserve(0.25);
    for (int i = 0; i < 20; i++) {
      reserve.recordAfterDeadline(Double.NaN);
      reserve.recordAfterDeadline(Double.POSITIVE_INFINITY);
    }
    assertEquals(0, reserve.reserveMillis(1000), "no sample yet");
    for (int i = 0; i < 20; i++) {
      reserve.recordAfterDeadline(-50);
    }
    assertEquals(0, reserve.reserveMillis(1000), "answers before the deadline need no reserve");
    assertThrows(IllegalArgumentException.class, () -> new DeadlineReserve(1));
    assertThrows(IllegalArgumentException.class, () -> new DeadlineReserve(Double.NaN));
  }
}
