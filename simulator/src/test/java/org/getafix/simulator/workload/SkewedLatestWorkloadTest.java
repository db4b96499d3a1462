package org.getafix.simulator.workload;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default workload's skew, measured from the generator itself: the published Yahoo figures are that the top
 * 1% of segments draw about 43% of accesses (Getafix, EuroSys'18) and are an order of magnitude more popular than
 * the bottom 40% (thesis ch. 1). docs/scenarios.md quotes these measurements.
 */
class SkewedLatestWorkloadTest
{
  private static final int SEGMENTS = 500;
  private static final int QUERIES = 200_000;

  @Test
  void defaultSkewMatchesYahooFigures()
  {
    final long[] accesses = accessesPerSegment(new SkewedLatestWorkload(1.4, 4), SEGMENTS, QUERIES, 7);
    final long[] sorted = Arrays.stream(accesses).sorted().toArray();
    final long total = Arrays.stream(sorted).sum();
    final int top = SEGMENTS / 100;
    final int bottom = SEGMENTS * 40 / 100;
    long topSum = 0;
    for (int i = SEGMENTS - top; i < SEGMENTS; i++) {
      topSum += sorted[i];
    }
    long bottomSum = 0;
    for (int i = 0; i < bottom; i++) {
      bottomSum += sorted[i];
    }
    final double topShare = (double) topSum / total;
    final double bottomShare = (double) bottomSum / total;
    assertEquals(0.43, topShare, 0.03, "share of accesses of the top 1% of segments");
    assertTrue(topShare >= 10 * bottomShare, "top 1% vs bottom 40%: " + topShare + " vs " + bottomShare);
    // Mean query fan-out: the geometric interval (mean 4) truncated at the oldest segment.
    assertEquals(4.0, (double) total / QUERIES, 0.1);
  }

  @Test
  void newerSegmentsAreMorePopular()
  {
    final long[] accesses = accessesPerSegment(new SkewedLatestWorkload(1.4, 4), SEGMENTS, QUERIES, 8);
    assertTrue(accesses[1] > accesses[10] && accesses[10] > accesses[100] && accesses[100] > accesses[400]);
  }

  @Test
  void intervalsStayInsideTheQueryableSegments()
  {
    final SkewedLatestWorkload w = new SkewedLatestWorkload(0.5, 20);
    final SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 10_000; i++) {
      final int n = 1 + r.nextInt(30);
      final WorkloadGenerator.Interval interval = w.next(r, n);
      assertTrue(interval.newestAge() >= 0 && interval.length() >= 1);
      assertTrue(interval.newestAge() + interval.length() <= n, interval + " over " + n);
    }
  }

  @Test
  void rejectsBadParameters()
  {
    assertThrows(IllegalArgumentException.class, () -> new SkewedLatestWorkload(Double.NaN, 4));
    assertThrows(IllegalArgumentException.class, () -> new SkewedLatestWorkload(1, 0.5));
  }

  /** Per age (0 = newest), how many queries touched the segment. */
  static long[] accessesPerSegment(WorkloadGenerator w, int segments, int queries, long seed)
  {
    final SplittableRandom r = new SplittableRandom(seed);
    final long[] accesses = new long[segments];
    for (int q = 0; q < queries; q++) {
      final WorkloadGenerator.Interval interval = w.next(r, segments);
      for (int age = interval.newestAge(); age < interval.newestAge() + interval.length(); age++) {
        accesses[age]++;
      }
    }
    return accesses;
  }
}
