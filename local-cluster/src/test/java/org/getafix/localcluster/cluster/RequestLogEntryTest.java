package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lines as Druid's file request logger writes them for native queries. */
class RequestLogEntryTest
{
  private static final String QUERY = "{\"queryType\":\"timeseries\",\"dataSource\":{\"type\":\"table\",\"name\":\"wiki\"},"
                                      + "\"context\":{\"queryId\":\"q-1\",\"timeout\":300000}}";

  @Test
  void aCancelledQueryReadsAsFailedWithItsReason()
  {
    final RequestLogEntry entry = RequestLogEntry.parse(
        "2026-11-26T05:00:00.000Z\t127.0.0.1\t{\"query/time\":812,\"query/bytes\":-1,\"success\":false,"
        + "\"exception\":\"DruidException: Query cancelled\"}\t" + QUERY
    ).orElseThrow();
    assertEquals("q-1", entry.queryId());
    assertFalse(entry.succeeded());
    assertEquals("DruidException: Query cancelled", entry.exception());
  }

  @Test
  void aSuccessfulQueryHasNoException()
  {
    final RequestLogEntry entry = RequestLogEntry.parse(
        "2026-11-26T05:00:00.000Z\t127.0.0.1\t{\"query/time\":12,\"query/bytes\":300,\"success\":true}\t" + QUERY
    ).orElseThrow();
    assertTrue(entry.succeeded());
    assertEquals("", entry.exception());
  }

  @Test
  void aLineStillBeingWrittenOrOfAnotherFormatIsSkipped()
  {
    assertTrue(RequestLogEntry.parse("2026-11-26T05:00:00.000Z\t127.0.0.1\t{\"query/time\":12,\"succ").isEmpty());
    assertTrue(RequestLogEntry.parse("2026-11-26T05:00:00.000Z\t127.0.0.1\t{\"query/time\":12}\t{\"queryType\":").isEmpty());
    assertTrue(RequestLogEntry.parse("").isEmpty());
  }
}
