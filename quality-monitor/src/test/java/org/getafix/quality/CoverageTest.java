package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.query.context.ResponseContext;
import org.joda.time.Interval;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoverageTest
{
  private static final ObjectMapper MAPPER = new DefaultObjectMapper();

  private static final long START = DateTimes.of("2025-01-01").getMillis();
  private static final long HOUR = 3_600_000L;

  private static Interval hour(int h)
  {
    return Intervals.utc(START + h * HOUR, START + (h + 1) * HOUR);
  }

  @Test
  void coveragesOfOneQueryAddUpAndLateIntervalsCondense()
  {
    final Coverage total = Coverage.answered(3)
                                   .plus(Coverage.late(List.of(hour(4), hour(5))))
                                   .plus(Coverage.late(List.of(hour(6), hour(9))))
                                   .plus(Coverage.none());
    assertEquals(3, total.getAnswered());
    assertEquals(4, total.getLate());
    assertEquals(7, total.getTotal());
    assertTrue(total.isTimedOut());
    assertEquals(3 / 7.0, total.fraction(), 1e-12);
    assertEquals(List.of(new Interval(hour(4).getStart(), hour(6).getEnd()), hour(9)), total.getMissingIntervals());
    assertFalse(total.isMissingIntervalsTruncated());
  }

  @Test
  void aFullAnswerIsNotTimedOut()
  {
    assertFalse(Coverage.answered(5).plus(Coverage.answered(2)).isTimedOut());
    assertEquals(1.0, Coverage.none().fraction());
  }

  @Test
  void missingIntervalsAreCappedSoThatTheHeaderStaysSmall()
  {
    final List<Interval> everyOtherHour = new ArrayList<>();
    for (int h = 0; h < 2 * (Coverage.MAX_MISSING_INTERVALS + 10); h += 2) {
      everyOtherHour.add(hour(h));
    }
    final Coverage late = Coverage.late(everyOtherHour);
    assertEquals(everyOtherHour.size(), late.getLate(), "the count is exact even when the intervals are capped");
    assertEquals(Coverage.MAX_MISSING_INTERVALS, late.getMissingIntervals().size());
    assertTrue(late.isMissingIntervalsTruncated());
    assertTrue(late.plus(Coverage.answered(1)).isMissingIntervalsTruncated(), "truncation survives adding up");
  }

  @Test
  void theResponseContextCarriesItThroughTheHeaderAndBack() throws Exception
  {
    CoverageKey.register();
    final ResponseContext context = ResponseContext.createEmpty();
    CoverageKey.add(context, Coverage.answered(2));
    CoverageKey.add(context, Coverage.late(List.of(hour(1))));
    final String header = context.serializeWith(MAPPER, 7 * 1024).getResult();
    final Map<?, ?> json = MAPPER.readValue(header, Map.class);
    final Map<?, ?> coverage = (Map<?, ?>) json.get(CoverageKey.NAME);
    assertEquals(3, coverage.get("total"));
    assertEquals(2, coverage.get("answered"));
    assertEquals(1, coverage.get("late"));
    assertEquals(true, coverage.get("timedOut"));
    assertEquals(List.of(hour(1).toString()), coverage.get("missingIntervals"));
    assertEquals(CoverageKey.of(context), CoverageKey.of(ResponseContext.deserialize(header, MAPPER)));
  }
}
