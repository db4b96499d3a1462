package org.getafix.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.getafix.core.wire.Coverage;
import org.getafix.localcluster.client.BrokerFormats;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QualityAnalysisTest
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Stock Druid: no budgets; fast before the straggler (second 3), slow after. */
  static final List<TimedQuery> STOCK_TIMELINE = List.of(
      new TimedQuery(1, 10, null),
      new TimedQuery(2, 12, null),
      new TimedQuery(4, 900, null),
      new TimedQuery(5, 1100, null)
  );

  /** druid-getafix: whole answers before the straggler, two partial ones after, coverage from canned headers. */
  static final List<TimedQuery> BUDGETED_TIMELINE = List.of(
      new TimedQuery(1, 10, header("{\"getafixCoverage\":{\"answered\":24,\"total\":24,\"late\":0,\"missingIntervals\":[],\"timedOut\":false}}")),
      new TimedQuery(2, 20, header("{\"getafixCoverage\":{\"answered\":24,\"total\":24,\"late\":0,\"missingIntervals\":[],\"timedOut\":false}}")),
      new TimedQuery(4, 640, header("{\"getafixCoverage\":{\"answered\":12,\"total\":24,\"late\":12,\"missingIntervals\":"
                                    + "[\"2026-01-01T00:00:00.000Z/2026-01-01T12:00:00.000Z\"],\"timedOut\":true}}")),
      new TimedQuery(5, 30, header("{\"uncoveredIntervals\":[],\"getafixCoverage\":{\"answered\":23,\"total\":24,\"late\":1,"
                                   + "\"missingIntervals\":[\"2026-01-01T05:00:00.000Z/2026-01-01T06:00:00.000Z\"],\"timedOut\":true}}"))
  );

  static final QualityRecord QUALITY = new QualityRecord(640, "stock Druid's measured p99 (633 ms), rounded up to 10 ms", 0.25,
                                                         List.of(1.0, 1.0, 0.5, 0.9), 1, 0, true, 12, 5);

  private static Coverage header(String json)
  {
    try {
      return BrokerFormats.coverage(MAPPER.readTree(json));
    }
    catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void figuresCountPartialAnswersCoverageClassesAndQualities()
  {
    final QualityAnalysis.Figures f = QualityAnalysis.figures(BUDGETED_TIMELINE, QUALITY.matureQualities());
    assertEquals(4, f.budgeted());
    assertEquals(2, f.partial());
    assertEquals(0.5, f.partialFraction(), 1e-9);
    assertEquals((1 + 1 + 0.5 + 23.0 / 24) / 4, f.meanCoverage(), 1e-9);
    assertEquals(List.of(2L, 1L, 0L, 1L, 0L), List.copyOf(f.coverageClasses().values()));
    assertEquals(4, f.matureRuns());
    assertEquals(0.85, f.meanQuality(), 1e-9);
    assertEquals(0.5, f.p10Quality(), 1e-9);
  }

  @Test
  void failedMatureRunsAndUnbudgetedQueriesDoNotCount()
  {
    final QualityAnalysis.Figures f = QualityAnalysis.figures(STOCK_TIMELINE, Arrays.asList(Double.NaN, 0.7, null));
    assertEquals(0, f.budgeted());
    assertTrue(Double.isNaN(f.partialFraction()));
    assertTrue(Double.isNaN(f.meanCoverage()));
    assertEquals(1, f.matureRuns());
    assertEquals(0.7, f.p10Quality(), 1e-9);
    assertTrue(Double.isNaN(QualityAnalysis.figures(List.of(), List.of()).meanQuality()));
  }

  @Test
  void p10IsTheNearestRankOfTheSortedQualities()
  {
    final List<Double> qualities = List.of(1.0, 0.2, 0.9, 0.3, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.95);
    // 12 samples: index floor(0.1 * 11) = 1 of the sorted list [0.2, 0.3, 0.9, ...].
    assertEquals(0.3, QualityAnalysis.figures(List.of(), qualities).p10Quality(), 1e-9);
  }

  @Test
  void coverageClassesHaveClosedLowerBounds()
  {
    assertEquals(0, QualityAnalysis.coverageClass(1.0));
    assertEquals(1, QualityAnalysis.coverageClass(0.9));
    assertEquals(2, QualityAnalysis.coverageClass(0.89));
    assertEquals(3, QualityAnalysis.coverageClass(0.5));
    assertEquals(4, QualityAnalysis.coverageClass(0.0));
  }

  @Test
  void theStragglerSplitsLatencyAndPartialAnswers()
  {
    final PhaseRecord stock = DemoReportTest.stock();
    final QualityAnalysis.Window stockBefore = QualityAnalysis.beforeStraggler(stock);
    final QualityAnalysis.Window stockAfter = QualityAnalysis.afterStraggler(stock);
    assertEquals(2, stockBefore.queries());
    assertEquals(12, stockBefore.p99Ms(), 0.1);
    assertEquals(1100, stockAfter.p99Ms(), 1.0);
    assertEquals(0, stockAfter.partial());

    final PhaseRecord getafix = DemoReportTest.getafix();
    assertEquals(0, QualityAnalysis.beforeStraggler(getafix).partial());
    assertEquals(2, QualityAnalysis.afterStraggler(getafix).partial());
    assertEquals(1.0, QualityAnalysis.afterStraggler(getafix).partialFraction(), 1e-9);
    assertEquals(640, QualityAnalysis.afterStraggler(getafix).p99Ms(), 1.0);
  }

  @Test
  void withoutAStragglerEveryQueryIsBefore()
  {
    final PhaseRecord p = DemoReportTest.stock();
    final PhaseRecord noStraggler = new PhaseRecord(
        p.strategy(), p.nodes(), p.samples(), 0, 6, null, Double.NaN, true, p.latencyMicros(), p.latencyByType(),
        p.queries(), 0, List.of(), 6, p.segmentIds(), p.segmentSizes(), p.segmentAccesses(), 0, STOCK_TIMELINE, null,
        p.warmUp(), 0, 0
    );
    assertEquals(4, QualityAnalysis.beforeStraggler(noStraggler).queries());
    assertEquals(0, QualityAnalysis.afterStraggler(noStraggler).queries());
    assertTrue(Double.isNaN(QualityAnalysis.afterStraggler(noStraggler).p99Ms()));
  }
}
