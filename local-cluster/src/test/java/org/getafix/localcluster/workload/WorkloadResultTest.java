package org.getafix.localcluster.workload;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WorkloadResultTest
{
  private static final WorkloadQuery QUERY = new WorkloadQuery(QueryKind.TIMESERIES, 0, 1, List.of(), Map.of());

  @Test
  void fastFailuresCountNeitherAsAnsweredNorInTheAnsweredLatencies()
  {
    final Histogram all = new Histogram(3);
    final List<QueryOutcome> outcomes = List.of(
        outcome(200, true),
        outcome(300, true),
        outcome(1, false),
        outcome(1, false)
    );
    outcomes.forEach(o -> all.recordValue(o.latencyNanos() / 1000));
    final WorkloadResult result = new WorkloadResult(outcomes, Map.of(QueryKind.TIMESERIES, all), Duration.ofSeconds(2));

    assertEquals(2.0, result.queriesPerSecond(), 1e-9);
    assertEquals(1.0, result.answeredPerSecond(), 1e-9);
    assertEquals(2, result.answeredLatencyMicros().getTotalCount());
    assertEquals(200_000, result.answeredLatencyMicros().getMinValue(), 200_000 * 0.001);
    assertEquals(1_000, result.latencyMicros().getMinValue(), 1_000 * 0.001);
  }

  private static QueryOutcome outcome(long millis, boolean success)
  {
    return new QueryOutcome(QUERY, Instant.EPOCH, millis * 1_000_000, success, success ? null : "refused", success ? 1 : -1);
  }
}
