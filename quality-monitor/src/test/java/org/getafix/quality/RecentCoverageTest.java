package org.getafix.quality;

import org.apache.druid.query.Druids;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import javax.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Coverage looked up by query id or SQL query id, as a client without the response-context header does. */
class RecentCoverageTest
{
  private final RecentCoverage recent = new RecentCoverage();

  /** A budgeted native query of {@code sqlQueryId} that answered one segment and missed one, as the Broker ends it. */
  private void answered(String queryId, String sqlQueryId, String lateInterval)
  {
    final TimeseriesQuery query = Druids.newTimeseriesQueryBuilder()
                                        .dataSource("ds")
                                        .intervals("2025-01-01/2025-01-02")
                                        .aggregators(new CountAggregatorFactory("rows"))
                                        .context(Map.of(QueryContextKeys.BUDGET_MS, 100, "queryId", queryId, "sqlQueryId", sqlQueryId))
                                        .build();
    final BudgetedQuery<?> budgeted = new BudgetedQuery<>(
        query, "ref", QueryBudget.askedIn(query.context(), 1000), 0, 0, true, null, false, List.of(recent)
    );
    budgeted.answeredInTime(1);
    budgeted.late(List.of(lateInterval));
    budgeted.answered(List.of(), 100);
  }

  @Test
  void aNativeQueryIsFoundByItsIdAndASqlQueryByItsIdWithItsNativeQueriesSummed()
  {
    answered("n1", "s1", "2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z");
    answered("n2", "s1", "2025-01-01T05:00:00.000Z/2025-01-01T06:00:00.000Z");
    assertEquals(1, recent.ofQuery("n1").answered());
    assertEquals(1, recent.ofQuery("n1").late());
    final Coverage sql = recent.ofSqlQuery("s1");
    assertEquals(2, sql.answered());
    assertEquals(2, sql.late());
    assertEquals(
        List.of("2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z", "2025-01-01T05:00:00.000Z/2025-01-01T06:00:00.000Z"),
        sql.missingIntervals()
    );
    assertNull(recent.ofQuery("s1"), "query ids and SQL query ids are looked up apart");
    assertNull(recent.ofSqlQuery("unknown"));
  }

  @Test
  void theEndpointAnswersOneIdAtATime()
  {
    answered("n1", "s1", "2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z");
    // Only the coverage lookup is exercised: the endpoint's other parts are not needed for it.
    final QualityResource resource = new QualityResource(null, null, null, null, null, null, null, null, null, recent);
    assertEquals(200, resource.getCoverage("n1", null).getStatus());
    assertEquals(recent.ofQuery("n1"), resource.getCoverage("n1", null).getEntity());
    assertEquals(200, resource.getCoverage(null, "s1").getStatus());
    assertEquals(404, resource.getCoverage("n9", null).getStatus());
    final Response both = resource.getCoverage("n1", "s1");
    assertEquals(400, both.getStatus());
    assertEquals(400, resource.getCoverage(null, null).getStatus());
  }
}
