package org.getafix.demo;

import org.getafix.demo.PairedDifference.Pair;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedDifferenceTest
{
  /** The ranks of the binomial interval of a median, as tables of it give them. */
  @Test
  void theIntervalIsBetweenTheOrderStatisticsTheBinomialDistributionNames()
  {
    assertEquals(0, PairedDifference.intervalRank(5), "five pairs hold their median with probability 15/16 at best");
    assertEquals(1, PairedDifference.intervalRank(6));
    assertEquals(31.0 / 32, PairedDifference.coverage(6, 1), 1e-12);
    assertEquals(2, PairedDifference.intervalRank(10));
    assertEquals(1 - 2 * 11.0 / 1024, PairedDifference.coverage(10, 2), 1e-12);
    assertEquals(6, PairedDifference.intervalRank(20));
    assertEquals(40, PairedDifference.intervalRank(100), "the 40th and 61st of 100");
    assertEquals(0.9648, PairedDifference.coverage(100, 40), 1e-4);
    assertEquals(469, PairedDifference.intervalRank(1000));
  }

  /** Where ½ⁿ underflows, the logarithms keep the rank near the normal approximation's n/2 − 0.98·√n. */
  @Test
  void manyPairsStillGetAnInterval()
  {
    final int n = 20_000;
    final int rank = PairedDifference.intervalRank(n);
    assertEquals(n / 2.0 - 0.98 * Math.sqrt(n), rank, 2);
    final double coverage = PairedDifference.coverage(n, rank);
    assertTrue(coverage >= PairedDifference.CONFIDENCE && coverage < 0.952, "coverage " + coverage);
  }

  @Test
  void theMedianDifferenceIsOfThePairsNotTheDifferenceOfTheMedians()
  {
    // b is 1 ms faster on every query, whatever the query's own latency, which varies far more.
    final List<Pair> pairs = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      final double query = 10 + 7 * i;
      pairs.add(new Pair(query + 1, query, i % 2 == 0));
    }
    final PairedDifference d = PairedDifference.of(pairs);
    assertEquals(10, d.pairs());
    assertEquals(1, d.median(), 1e-12);
    assertEquals(1, d.low(), 1e-12);
    assertEquals(1, d.high(), 1e-12);
    assertEquals(1 - 2 * 11.0 / 1024, d.coverage(), 1e-12);
    assertEquals(42.5, d.medianA(), 1e-12);
    assertEquals(41.5, d.medianB(), 1e-12);
    assertEquals(74, d.p99A(), 1e-12, "nearest rank: the largest of ten");
    assertEquals(73, d.p99B(), 1e-12);
    assertEquals(1, d.medianAFirst(), 1e-12);
    assertEquals(1, d.medianBFirst(), 1e-12);
  }

  @Test
  void theIntervalTakesTheSecondSmallestAndSecondLargestOfTenDifferences()
  {
    final double[] differences = {-3, 0.5, 2, -1, 0, 4, -0.5, 1, 7, -2};
    final List<Pair> pairs = new ArrayList<>();
    for (int i = 0; i < differences.length; i++) {
      pairs.add(new Pair(20 + differences[i], 20, i < 4));
    }
    final PairedDifference d = PairedDifference.of(pairs);
    // Sorted: -3, -2, -1, -0.5, 0, 0.5, 1, 2, 4, 7.
    assertEquals(0.25, d.median(), 1e-12);
    assertEquals(-2, d.low(), 1e-12);
    assertEquals(4, d.high(), 1e-12);
    assertEquals(-0.25, d.medianAFirst(), 1e-12, "-3, 0.5, 2, -1");
    assertEquals(0.5, d.medianBFirst(), 1e-12, "0, 4, -0.5, 1, 7, -2");
  }

  @Test
  void fewPairsHaveNoIntervalAndOneSidedOrdersNoMedianForTheOther()
  {
    final PairedDifference d = PairedDifference.of(List.of(new Pair(5, 3, true), new Pair(6, 3, true)));
    assertEquals(2.5, d.median(), 1e-12);
    assertTrue(Double.isNaN(d.low()) && Double.isNaN(d.high()) && Double.isNaN(d.coverage()));
    assertEquals(2.5, d.medianAFirst(), 1e-12);
    assertTrue(Double.isNaN(d.medianBFirst()));
    assertThrows(IllegalArgumentException.class, () -> PairedDifference.of(List.of()));
  }

  /** Over many samples of a known shift the interval holds it about as often as it says. */
  @Test
  void theIntervalHoldsAKnownShiftAsOftenAsItSays()
  {
    final Random random = new Random(42);
    int held = 0;
    final int samples = 400;
    for (int s = 0; s < samples; s++) {
      final List<Pair> pairs = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        // Skewed latencies and skewed noise; the differences' median is 0.3 ms.
        final double query = 5 + 20 * -Math.log(1 - random.nextDouble());
        final double noise = Math.log(1 + random.nextDouble() * 3) - Math.log(1 + 1.5);
        pairs.add(new Pair(query + 0.3 + noise, query, i % 2 == 0));
      }
      final PairedDifference d = PairedDifference.of(pairs);
      if (d.low() <= 0.3 && 0.3 <= d.high()) {
        held++;
      }
    }
    assertTrue(held >= 0.92 * samples, held + " of " + samples);
  }
}
