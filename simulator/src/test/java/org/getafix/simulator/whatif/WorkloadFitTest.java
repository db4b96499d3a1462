package org.getafix.simulator.whatif;

import org.getafix.simulator.workload.SkewedLatestWorkload;
import org.getafix.simulator.workload.WorkloadGenerator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadFitTest
{
  private static final long HOUR = 3_600_000;
  private static final int SEGMENTS = 200;

  @Test
  void recoversTheModelThatMadeTheQueries()
  {
    final ClusterInventory inventory = hourly(SEGMENTS);
    final WorkloadGenerator model = new SkewedLatestWorkload(1.2, 3);
    final SplittableRandom random = new SplittableRandom(7);
    final List<RequestLogs.LoggedQuery> queries = new ArrayList<>();
    double spans = 0;
    for (int i = 0; i < 4000; i++) {
      final WorkloadGenerator.Interval interval = model.next(random, SEGMENTS);
      spans += interval.length();
      // Age a is hour SEGMENTS - 1 - a: the newest segment is the last hour.
      final long end = (SEGMENTS - interval.newestAge()) * HOUR;
      final long start = end - interval.length() * HOUR;
      queries.add(new RequestLogs.LoggedQuery("wiki", i % 5 < 3 ? "topN" : "groupBy", i * 50L,
                                              List.of(new RequestLogs.Span(start, end, -1)), 0, false));
    }
    queries.add(new RequestLogs.LoggedQuery("wiki", "segmentMetadata", 0, List.of(new RequestLogs.Span(0, HOUR, -1)),
                                            0, false));
    queries.add(new RequestLogs.LoggedQuery("wiki", "topN", 0, List.of(new RequestLogs.Span(-2 * HOUR, -HOUR, -1)),
                                            0, false));

    final WorkloadFit fit = WorkloadFit.of(inventory, queries);
    assertEquals(4000, fit.queries());
    assertEquals(2, fit.ignoredQueries(), "a type the simulator does not model, and a query of no served segment");
    assertEquals(1.2, fit.recencyExponent(), 0.1);
    assertEquals(spans / 4000, fit.meanIntervalSegments(), 1e-9);
    assertEquals(20, fit.queriesPerSecond(), 0.1, "4000 queries over 200 s");
    assertEquals(0.6, fit.types().get("topN").share(), 1e-9);
    assertNull(fit.types().get("topN").meanSegmentMillis(), "a Broker's log has no per-segment time");
    assertEquals(fit.newestTenthShare(), fit.modelNewestTenthShare(), 0.03, "the fitted model draws as observed");
    assertTrue(fit.newestTenthShare() > 0.5, "the newest tenth draws most: " + fit.newestTenthShare());
  }

  @Test
  void historicalSharesGiveTheTimePerSegmentAndAFlatWorkloadFitsNoSkew()
  {
    final ClusterInventory inventory = hourly(10);
    final List<RequestLogs.LoggedQuery> queries = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      final long hour = i % 10;
      queries.add(new RequestLogs.LoggedQuery("wiki", "timeseries", i * 100L,
                                              List.of(new RequestLogs.Span(hour * HOUR, (hour + 1) * HOUR, 0)), 6,
                                              true));
    }
    final WorkloadFit fit = WorkloadFit.of(inventory, queries);
    assertEquals(0, fit.recencyExponent(), 0.05, "every age as likely");
    assertEquals(1, fit.meanIntervalSegments());
    assertEquals(6.0, fit.types().get("timeseries").meanSegmentMillis(), 1e-9);
    assertEquals(0.1, fit.newestTenthShare(), 1e-9);
  }

  @Test
  void logsWithNothingToFitAreAClearError()
  {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadFit.of(
        hourly(3),
        List.of(new RequestLogs.LoggedQuery("other", "topN", 0, List.of(new RequestLogs.Span(0, HOUR, -1)), 0, false))
    ));
    assertTrue(e.getMessage().contains("1 other queries"), e.getMessage());
  }

  /** {@code n} hourly segments of datasource wiki, hours [0, n), one replica of 100 bytes each. */
  static ClusterInventory hourly(int n)
  {
    final List<ClusterInventory.ServedSegment> newestFirst = new ArrayList<>();
    for (int hour = n - 1; hour >= 0; hour--) {
      newestFirst.add(new ClusterInventory.ServedSegment("wiki", hour * HOUR, (hour + 1) * HOUR, 0, 100, 1));
    }
    return new ClusterInventory(List.of(new ClusterInventory.Historical("h1:8083", "_default_tier", 0)),
                                newestFirst);
  }
}
