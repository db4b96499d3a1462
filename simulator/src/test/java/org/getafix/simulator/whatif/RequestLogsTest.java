package org.getafix.simulator.whatif;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestLogsTest
{
  private static final long HOUR0 = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
  private static final long HOUR = 3_600_000;

  /** Two Historicals' shares of one query (Druid 33: statistics before the query), joined by queryResourceId. */
  static final List<String> HISTORICAL_LINES = List.of(
      "2026-11-27T10:00:00.000Z\t127.0.0.1\t{\"query/time\":12,\"success\":true}\t{\"queryType\":\"topN\","
      + "\"dataSource\":{\"type\":\"table\",\"name\":\"wiki\"},\"intervals\":{\"type\":\"segments\",\"segments\":"
      + "[{\"itvl\":\"2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z\",\"ver\":\"v1\",\"part\":0}]},"
      + "\"context\":{\"queryId\":\"reused\",\"queryResourceId\":\"q1\"}}",
      "2026-11-27T10:00:00.050Z\t127.0.0.1\t{\"query/time\":8,\"success\":true}\t{\"queryType\":\"topN\","
      + "\"dataSource\":{\"type\":\"table\",\"name\":\"wiki\"},\"intervals\":{\"type\":\"segments\",\"segments\":"
      + "[{\"itvl\":\"2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z\",\"ver\":\"v1\",\"part\":0}]},"
      + "\"context\":{\"queryId\":\"reused\",\"queryResourceId\":\"q1\"}}"
  );

  @Test
  void theSharesOfAQueryOnSeveralHistoricalsAreOneQuery()
  {
    final RequestLogs.Parsed parsed = RequestLogs.parse(HISTORICAL_LINES);
    assertEquals(0, parsed.skippedLines());
    assertEquals(1, parsed.queries().size());
    final RequestLogs.LoggedQuery query = parsed.queries().get(0);
    assertEquals("wiki", query.dataSource());
    assertEquals("topN", query.queryType());
    assertEquals(Instant.parse("2026-11-27T10:00:00Z").toEpochMilli(), query.arrivalMillis());
    assertEquals(20, query.timeMillis());
    assertTrue(query.bySegment());
    assertEquals(List.of(new RequestLogs.Span(HOUR0 + HOUR, HOUR0 + 2 * HOUR, 0),
                         new RequestLogs.Span(HOUR0, HOUR0 + HOUR, 0)), query.spans());
  }

  @Test
  void brokerLinesInEitherFieldOrderGiveIntervalsAndTheRestIsSkipped()
  {
    final RequestLogs.Parsed parsed = RequestLogs.parse(List.of(
        // An older Druid: the query before its statistics; a plain datasource name; a list of intervals.
        "2026-11-27T10:00:01.000Z\t10.0.0.1\t{\"queryType\":\"timeseries\",\"dataSource\":\"wiki\","
        + "\"intervals\":[\"2025-01-01T00:00:00.000Z/2025-01-01T02:00:00.000Z\"],\"context\":{\"queryId\":\"a\"}}"
        + "\t{\"query/time\":40}",
        // No time filter: "eternity", beyond what java.time parses, reads every segment.
        "2026-11-27T10:00:02.000Z\t10.0.0.1\t{\"query/time\":5}\t{\"queryType\":\"groupBy\",\"dataSource\":\"wiki\","
        + "\"intervals\":{\"type\":\"intervals\",\"intervals\":"
        + "[\"-146136543-09-08T08:23:32.096Z/146140482-04-24T15:36:27.903Z\"]},\"context\":{\"queryId\":\"b\"}}",
        "2026-11-27T10:00:03.000Z\t10.0.0.1\t{\"sqlQuery/time\":3}\t\t{\"query\":\"SELECT 1\"}",
        "2026-11-27T10:00:04.000Z\t10.0.0.1\t{\"query/time\":1}\t{\"queryType\":\"timeseries\",\"dataSource\":"
        + "{\"type\":\"query\"},\"intervals\":[\"2025-01-01T00:00:00.000Z/2025-01-01T02:00:00.000Z\"]}",
        "garbage",
        "2026-11-27T10:00:05.000Z\t10.0.0.1\t{\"query/time\":1}\t{\"queryType\":\"topN\",\"dataSource\":\"wiki\""
    ));
    assertEquals(4, parsed.skippedLines(), "SQL, a subquery datasource, garbage and a line cut short");
    assertEquals(2, parsed.queries().size());
    final RequestLogs.LoggedQuery older = parsed.queries().get(0);
    assertEquals(40, older.timeMillis());
    assertFalse(older.bySegment());
    assertEquals(List.of(new RequestLogs.Span(HOUR0, HOUR0 + 2 * HOUR, -1)), older.spans());
    assertEquals(List.of(new RequestLogs.Span(Long.MIN_VALUE, Long.MAX_VALUE, -1)), parsed.queries().get(1).spans());
  }
}
