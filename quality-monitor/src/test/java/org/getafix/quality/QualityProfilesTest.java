package org.getafix.quality;

import org.apache.druid.query.Druids;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QualityProfilesTest
{
  private static BudgetedQuery<?> answeredHalf(QualityProfiles profiles)
  {
    final TimeseriesQuery query = Druids.newTimeseriesQueryBuilder()
                                        .dataSource("ds")
                                        .intervals("2025-01-01/2025-01-02")
                                        .aggregators(new CountAggregatorFactory("rows"))
                                        .context(Map.of(QueryContextKeys.BUDGET_MS, 100))
                                        .build();
    final BudgetedQuery<?> budgeted = new BudgetedQuery<>(
        query, "ref", QueryBudget.askedIn(query.context(), 1000), 0, 0, true, null, List.of(profiles)
    );
    budgeted.answeredInTime(1);
    budgeted.late(List.of("2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z"));
    return budgeted;
  }

  @Test
  void measuredRunsShapeTheirQueryClassProfile()
  {
    final QualityProfiles profiles = new QualityProfiles();
    for (int i = 0; i < 10; i++) {
      answeredHalf(profiles).measured(new AnswerQuality(0.9, 0.9, 1, 9, 10, 9));
    }
    assertEquals(0.9, profiles.profile("ds/timeseries").quality(0.5), 1e-9, "half the segments gave 0.9");
    assertTrue(profiles.profile("ds/timeseries").quality(0.25) > 0.25, "concave: above linear below the knot");
    assertEquals(List.of("ds/timeseries"), List.copyOf(profiles.state().keySet()));
  }
}
