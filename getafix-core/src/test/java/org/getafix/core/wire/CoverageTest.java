package org.getafix.core.wire;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoverageTest
{
  private static final Instant START = Instant.parse("2025-01-01T00:00:00Z");

  private static String hours(int from, int to)
  {
    return START.plus(Duration.ofHours(from)).toString().replace("Z", ".000Z") + "/"
           + START.plus(Duration.ofHours(to)).toString().replace("Z", ".000Z");
  }

  private static String hour(int h)
  {
    return hours(h, h + 1);
  }

  @Test
  void coveragesOfOneQueryAddUpAndLateIntervalsCondense()
  {
    final Coverage total = Coverage.answered(3)
                                   .plus(Coverage.late(List.of(hour(5), hour(4))))
                                   .plus(Coverage.late(List.of(hour(6), hour(9))))
                                   .plus(Coverage.none());
    assertEquals(3, total.answered());
    assertEquals(4, total.late());
    assertEquals(7, total.total());
    assertTrue(total.timedOut());
    assertEquals(3 / 7.0, total.fraction(), 1e-12);
    assertEquals(List.of(hours(4, 7), hour(9)), total.missingIntervals());
    assertFalse(total.missingIntervalsTruncated());
  }

  @Test
  void anyIsoInstantReadsAndIsWrittenInUtcWithMilliseconds()
  {
    final Coverage late = Coverage.late(List.of("2025-01-01T00:00:00Z/2025-01-01T01:00:00Z", "garbage"));
    assertEquals(List.of(hour(0), "garbage"), late.missingIntervals(), "what does not parse is kept as it is");
    assertEquals(2, late.late());
  }

  @Test
  void aFullAnswerIsNotTimedOut()
  {
    assertFalse(Coverage.answered(5).plus(Coverage.answered(2)).timedOut());
    assertEquals(1.0, Coverage.none().fraction());
    assertThrows(IllegalArgumentException.class, () -> new Coverage(-1, 0, List.of(), false));
  }

  @Test
  void missingIntervalsAreCappedSoThatTheHeaderStaysSmall()
  {
    final List<String> everyOtherHour = new ArrayList<>();
    for (int h = 0; h < 2 * (Coverage.MAX_MISSING_INTERVALS + 10); h += 2) {
      everyOtherHour.add(hour(h));
    }
    final Coverage late = Coverage.late(everyOtherHour);
    assertEquals(everyOtherHour.size(), late.late(), "the count is exact even when the intervals are capped");
    assertEquals(Coverage.MAX_MISSING_INTERVALS, late.missingIntervals().size());
    assertTrue(late.missingIntervalsTruncated());
    assertTrue(late.plus(Coverage.answered(1)).missingIntervalsTruncated(), "truncation survives adding up");
  }
}
