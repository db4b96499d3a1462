package org.getafix.quality;

import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.query.Druids;
import org.apache.druid.query.QueryCapacityExceededException;
import org.apache.druid.query.QueryContexts;
import org.apache.druid.query.QueryTimeoutException;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionTest
{
  private final RecordingEmitter emitted = new RecordingEmitter();
  private final AtomicLong millis = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();

  private Admission admission(Map<String, Object> properties)
  {
    final QualityConfig config = new DefaultObjectMapper().convertValue(properties, QualityConfig.class).validate();
    return new Admission(config, emitted.serviceEmitter(), new QualityProfiles(), millis::get, nanos::get);
  }

  private static TimeseriesQuery withPriority(int priority)
  {
    return Druids.newTimeseriesQueryBuilder()
                 .dataSource("ds")
                 .intervals("2025-01-01/2025-01-02")
                 .aggregators(new CountAggregatorFactory("rows"))
                 .context(Map.of(QueryContexts.PRIORITY_KEY, priority, QueryContextKeys.BUDGET_MS, 100))
                 .build();
  }

  private static BudgetedQuery<?> budgeted(TimeseriesQuery query)
  {
    return budgeted(query, false);
  }

  private static BudgetedQuery<?> budgeted(TimeseriesQuery query, boolean skippedSample)
  {
    return new BudgetedQuery<>(
        query, "ref", QueryBudget.askedIn(query.context(), 300_000), 0, 0, true, null, skippedSample, List.of()
    );
  }

  private static AnswerQuality quality(double quality)
  {
    return new AnswerQuality(quality, quality, 1, 10, 10, 10);
  }

  @Test
  void offByDefaultNothingIsShedOrCounted()
  {
    final Admission admission = admission(Map.of());
    for (int i = 0; i < 20; i++) {
      assertDoesNotThrow(() -> admission.admit(withPriority(-10)));
    }
    admission.onQualityMeasured(budgeted(withPriority(0)), quality(0));
    assertEquals(Map.of("enabled", false), admission.state());
  }

  @Test
  void onlyHighPriorityQualitySteersAndShedQueriesAreA429WithTheirMetric()
  {
    final Admission admission = admission(Map.of(
        "admission", "ANSWER_QUALITY",
        "admissionWindowMs", 100
    ));
    admission.onQualityMeasured(budgeted(withPriority(-1)), quality(0));
    millis.set(100);
    admission.admit(withPriority(-1));
    assertEquals(1.0, (double) admission.state().get("lowPriorityAdmitFraction"), 1e-9, "low-priority quality is ignored");

    admission.onQualityMeasured(budgeted(withPriority(5)), quality(0.1));
    admission.admit(withPriority(5));
    millis.set(200);
    assertThrows(QueryCapacityExceededException.class, () -> admission.admit(withPriority(-1)));
    assertEquals(1L, admission.state().get("shedQueries"));
    assertEquals(List.of(1), emitted.values("getafix/query/shed"));
    assertEquals("ANSWER_QUALITY", emitted.dimensions("getafix/query/shed").get(0).get("signal"));
  }

  /**
   * A high-priority sample that found no room for a mature run counts when it answers, at the quality the (untrained,
   * linear) profile gives its coverage, a quarter; its replay's measurement later does not count again, and an answer
   * that was never sampled says nothing about quality.
   */
  @Test
  void aSkippedHighPrioritySampleCountsAtOnceAtTheQualityItsCoveragePredicts()
  {
    final Admission admission = admission(Map.of(
        "admission", "ANSWER_QUALITY",
        "admissionWindowMs", 100
    ));
    final BudgetedQuery<?> skipped = budgeted(withPriority(0), true);
    skipped.answeredInTime(1);
    skipped.late(List.of(
        "2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z",
        "2025-01-01T02:00:00.000Z/2025-01-01T03:00:00.000Z",
        "2025-01-01T03:00:00.000Z/2025-01-01T04:00:00.000Z"
    ));
    admission.onAnswered(skipped, List.of(), 100);
    admission.onQualityMeasured(skipped, quality(1.0));
    final BudgetedQuery<?> unsampled = budgeted(withPriority(0), false);
    unsampled.late(List.of("2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z"));
    admission.onAnswered(unsampled, List.of(), 100);
    admission.onAnswered(budgeted(withPriority(-1), true), List.of(), 100);
    millis.set(100);
    // The next low-priority query, in the next window, closes this one: a quarter is far below the target.
    assertThrows(QueryCapacityExceededException.class, () -> admission.admit(withPriority(-1)));
    assertEquals(0.25, (double) admission.state().get("highPrioritySignal"), 1e-9, admission.state().toString());
    assertEquals(1L, admission.state().get("skippedSamplesCounted"));
  }

  /**
   * Predicted quality counts every high-priority answer as it leaves, sampled or not, at the quality the (untrained,
   * linear) profile gives its coverage; the mature runs' measurements do not count again, and low-priority answers
   * not at all.
   */
  @Test
  void predictedQualityCountsEveryHighPriorityAnswerAtOnceAndNoMeasurementAgain()
  {
    final Admission admission = admission(Map.of(
        "admission", "PREDICTED_QUALITY",
        "admissionWindowMs", 100
    ));
    final BudgetedQuery<?> half = budgeted(withPriority(0), false);
    half.answeredInTime(1);
    half.late(List.of("2025-01-01T01:00:00.000Z/2025-01-01T02:00:00.000Z"));
    admission.onAnswered(half, List.of(), 100);
    final BudgetedQuery<?> whole = budgeted(withPriority(0), false);
    whole.answeredInTime(2);
    admission.onAnswered(whole, List.of(), 100);
    admission.onQualityMeasured(whole, quality(0.0));
    admission.onAnswered(budgeted(withPriority(-1), false), List.of(), 100);
    millis.set(100);
    // The next low-priority query, in the next window, closes this one: (0.5 + 1) / 2 is below the target.
    assertThrows(QueryCapacityExceededException.class, () -> admission.admit(withPriority(-1)));
    assertEquals(0.75, (double) admission.state().get("highPrioritySignal"), 1e-9, admission.state().toString());
    assertEquals("PREDICTED_QUALITY", admission.state().get("signal"));
    assertEquals(0L, admission.state().get("skippedSamplesCounted"));
  }

  @Test
  void theTimeoutRateIgnoresSkippedSamplesQuality()
  {
    final Admission admission = admission(Map.of(
        "admission", "TIMEOUT_RATE",
        "admissionWindowMs", 100
    ));
    admission.onAnswered(budgeted(withPriority(0), true), List.of(), 100);
    assertEquals(0L, admission.state().get("skippedSamplesCounted"));
  }

  @Test
  void theTimeoutRateCountsPartialAnswersAndTimeoutFailures()
  {
    final Admission admission = admission(Map.of(
        "admission", "TIMEOUT_RATE",
        "admissionWindowMs", 100
    ));
    final BudgetedQuery<?> partial = budgeted(withPriority(0));
    partial.late(List.of("2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z"));
    admission.onAnswered(partial, List.of(), 100);
    admission.onFailed(budgeted(withPriority(0)), new RuntimeException(new QueryTimeoutException("slow")));
    admission.onFailed(budgeted(withPriority(0)), new IllegalStateException("not a timeout"));
    admission.onAnswered(budgeted(withPriority(0)), List.of(), 50);
    millis.set(100);
    // The next high-priority completion, in the next window, closes this one.
    admission.completed(withPriority(0), false);
    assertEquals(0.5, (double) admission.state().get("highPrioritySignal"), 1e-9, admission.state().toString());
    assertTrue((double) admission.state().get("lowPriorityAdmitFraction") < 1, admission.state().toString());
  }

  @Test
  void gradient2ShedsLowPriorityBeyondItsLimitAndCountsHighPriorityInFlight()
  {
    final Admission admission = admission(Map.of(
        "admission", "GRADIENT2",
        "admissionGradientInitialLimit", 2
    ));
    final TimeseriesQuery high = withPriority(0);
    final TimeseriesQuery low = withPriority(-1);
    admission.admit(high);
    admission.admit(low);
    assertEquals(2, admission.state().get("inFlight"));
    final QueryCapacityExceededException e =
        assertThrows(QueryCapacityExceededException.class, () -> admission.admit(withPriority(-1)));
    assertTrue(e.getMessage().contains("Gradient2"), e.getMessage());
    assertEquals("GRADIENT2", emitted.dimensions("getafix/query/shed").get(0).get("signal"));
    assertDoesNotThrow(() -> admission.admit(withPriority(3)), "high priority is never shed");
    assertEquals(3, admission.state().get("inFlight"));

    nanos.set(5_000_000);
    admission.completed(high, false);
    admission.failed(low, new IllegalStateException("not a timeout"));
    admission.completed(low, false);
    assertEquals(1, admission.state().get("inFlight"), "each query leaves once, however it ends");
    assertEquals(1L, admission.state().get("admittedLowPriorityQueries"));
    assertEquals(1L, admission.state().get("shedQueries"));
  }

  @Test
  void gradient2WatchesTheEndOfEveryQueryAndThePidModesOnlyHighPriority()
  {
    final Admission gradient = admission(Map.of("admission", "GRADIENT2"));
    final Admission quality = admission(Map.of("admission", "ANSWER_QUALITY"));
    assertTrue(gradient.watchesEnd(withPriority(-1)));
    assertFalse(quality.watchesEnd(withPriority(-1)));
    assertTrue(quality.watchesEnd(withPriority(0)));
    assertFalse(admission(Map.of()).watchesEnd(withPriority(0)));
  }
}
