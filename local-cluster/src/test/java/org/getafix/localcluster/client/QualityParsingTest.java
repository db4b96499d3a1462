package org.getafix.localcluster.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.MatureRunReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quality monitor's coverage header and quality endpoint as a client parses them (canned answers). */
class QualityParsingTest
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void coverageComesFromTheResponseContextHeader() throws Exception
  {
    final Coverage partial = BrokerFormats.coverage(MAPPER.readTree(
        "{\"uncoveredIntervals\":[],\"getafixCoverage\":{\"answered\":18,\"total\":24,\"late\":6,"
        + "\"missingIntervals\":[\"2026-01-01T00:00:00.000Z/2026-01-01T04:00:00.000Z\","
        + "\"2026-01-01T10:00:00.000Z/2026-01-01T12:00:00.000Z\"],\"missingIntervalsTruncated\":false,\"timedOut\":true}}"
    ));
    assertEquals(
        new Coverage(
            18,
            6,
            List.of("2026-01-01T00:00:00.000Z/2026-01-01T04:00:00.000Z", "2026-01-01T10:00:00.000Z/2026-01-01T12:00:00.000Z"),
            false
        ),
        partial
    );
    assertEquals(24, partial.total());
    assertTrue(partial.timedOut());
    assertEquals(0.75, partial.fraction(), 1e-9);

    final Coverage whole = BrokerFormats.coverage(MAPPER.readTree(
        "{\"getafixCoverage\":{\"answered\":3,\"total\":3,\"late\":0,\"missingIntervals\":[],\"timedOut\":false}}"
    ));
    assertFalse(whole.timedOut());
    assertEquals(1.0, whole.fraction(), 1e-9);
  }

  @Test
  void aQueryWithoutABudgetHasNoCoverage() throws Exception
  {
    assertNull(BrokerFormats.coverage(MAPPER.readTree("{}")));
    assertNull(BrokerFormats.coverage(MAPPER.readTree("{\"getafixCoverage\":\"garbage\"}")));
    assertNull(BrokerFormats.coverage(MAPPER.readTree("{\"getafixCoverage\":{}}")));
    assertNull(BrokerFormats.coverage(MAPPER.readTree("{\"getafixCoverage\":{\"answered\":-1,\"late\":0}}")));
    assertTrue(new BrokerAnswer(200, MAPPER.nullNode(), MAPPER.readTree("{}"), 1).coverage().isMissingNode());
  }

  @Test
  void matureRunsComeFromTheQualityEndpointsRecentList() throws Exception
  {
    final List<MatureRunReport> runs = BrokerFormats.recentMatureRuns(MAPPER.readTree(
        "{\"budgetedQueries\":12,\"matureRunsCompleted\":3,\"recent\":["
        + "{\"queryId\":\"q3\",\"queryType\":\"timeseries\",\"dataSource\":\"d\","
        + "\"coverage\":{\"answered\":12,\"total\":24,\"late\":12,\"missingIntervals\":[\"a/b\"],\"timedOut\":true},"
        + "\"quality\":{\"quality\":0.5,\"rowRecall\":0.5,\"valueAccuracy\":1.0,\"onlineRows\":12,\"matureRows\":24},"
        + "\"matureMillis\":2100},"
        + "{\"queryId\":\"q2\",\"coverage\":{\"answered\":24,\"total\":24,\"late\":0,\"missingIntervals\":[],"
        + "\"timedOut\":false},\"quality\":null,\"matureMillis\":60000},"
        + "{\"queryType\":\"topN\"}"
        + "]}"
    ));
    assertEquals(2, runs.size());
    assertEquals("q3", runs.get(0).queryId());
    assertEquals(0.5, runs.get(0).measuredQuality(), 1e-9);
    assertEquals(24, runs.get(0).quality().matureRows());
    assertEquals(new Coverage(12, 12, List.of("a/b"), false), runs.get(0).coverage());
    assertTrue(Double.isNaN(runs.get(1).measuredQuality()), "a failed mature run measured no quality");
    assertTrue(BrokerFormats.recentMatureRuns(MAPPER.readTree("{}")).isEmpty());
  }
}
