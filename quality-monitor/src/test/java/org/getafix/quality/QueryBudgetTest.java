package org.getafix.quality;

import org.apache.druid.error.DruidException;
import org.apache.druid.query.QueryContext;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryBudgetTest
{
  private static final long MAX = 300_000;

  private static QueryBudget budget(Object value)
  {
    final Map<String, Object> context = new HashMap<>();
    context.put(QueryContextKeys.BUDGET_MS, value);
    return QueryBudget.askedIn(QueryContext.of(context), MAX);
  }

  @Test
  void noBudgetKeyMeansNoBudget()
  {
    assertNull(QueryBudget.askedIn(QueryContext.of(Map.of("timeout", 1000)), MAX));
  }

  @Test
  void numbersAndNumericStringsAreMilliseconds()
  {
    assertEquals(250, budget(250).millis());
    assertEquals(250, budget(250L).millis());
    assertEquals(251, budget(250.2).millis(), "a fraction of a millisecond rounds up");
    assertEquals(1, budget(0.001).millis());
    assertEquals(250, budget("250").millis());
    assertEquals(250, budget(" 250 ").millis());
    assertEquals(MAX, budget(MAX).millis());
  }

  @Test
  void everythingElseIsAnInvalidInputThatNamesTheKey()
  {
    for (Object bad : List.of(0, -1, -0.5, Double.NaN, Double.POSITIVE_INFINITY, "NaN", "Infinity", "-5", "abc", "",
                              "1e400", true, List.of(5), Map.of("ms", 5), MAX + 1)) {
      final DruidException e = assertThrows(DruidException.class, () -> budget(bad), "budget " + bad);
      assertEquals(DruidException.Category.INVALID_INPUT, e.getCategory(), "budget " + bad);
      assertEquals(400, e.getStatusCode(), "budget " + bad);
      assertTrue(e.getMessage().contains(QueryContextKeys.BUDGET_MS), e.getMessage());
    }
  }
}
