package org.getafix.core.quality.split;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** EqResv and MaxQuality on the budget paper's cases (§3.2, §4, §5). */
class BudgetSplitTest
{
  private static final double EPS = 1e-9;

  /** A concave profile close to √x, the shape of the paper's measured Bing profile (Figure 1) and of 1/SEM. */
  private static final QualityProfile SQRT = QualityProfile.of(
      new double[]{0, 0.1, 0.25, 0.5, 0.75, 1},
      new double[]{0, Math.sqrt(0.1), 0.5, Math.sqrt(0.5), Math.sqrt(0.75), 1}
  );

  @Test
  void eqResvReservesUnderLightLoad()
  {
    // Bing's mean demand is about 20 ms (§3.1.2). Two queued queries and 60 ms of budget: the second needs only
    // its mean 20 ms, so the first may use 40 ms (RESV) rather than half (EQ = 30).
    assertEquals(40, EqResv.share(60, 2, 20), EPS);
    assertEquals(60, EqResv.share(60, 1, 20), EPS, "a lone query gets the whole budget");
  }

  @Test
  void eqResvEquiPartitionsUnderHeavyLoad()
  {
    // Ten queued queries and the same 60 ms: reserving 9 × 20 ms would leave nothing, so each gets B / qLen.
    assertEquals(6, EqResv.share(60, 10, 20), EPS);
  }

  @Test
  void eqResvSwitchesWhereTheBudgetCoversEveryMeanDemand()
  {
    // EQ = RESV exactly when B = qLen·w̄; no load threshold is needed (§3.2.2).
    assertEquals(20, EqResv.share(100, 5, 20), EPS);
    assertTrue(EqResv.share(101, 5, 20) > 101.0 / 5, "above: reservation");
    assertEquals(99.0 / 5, EqResv.share(99, 5, 20), EPS, "below: equi-partitioning");
  }

  @Test
  void eqResvMeasuresTheMeanDemandOnlineAndSurvivesGarbage()
  {
    final EqResv eqResv = new EqResv(0.5);
    assertEquals(30, eqResv.share(60, 2), EPS, "no demand measured yet: equi-partitioning only");
    eqResv.recordDemand(20);
    eqResv.recordDemand(Double.NaN);
    eqResv.recordDemand(-3);
    eqResv.recordDemand(Double.POSITIVE_INFINITY);
    assertEquals(20, eqResv.meanDemand(), EPS);
    eqResv.recordDemand(40);
    assertEquals(30, eqResv.meanDemand(), EPS);
    assertEquals(30, eqResv.share(60, 2), EPS);
    assertEquals(0, eqResv.share(Double.NaN, 3), EPS, "a NaN budget counts as 0");
    assertEquals(0, eqResv.share(-10, 3), EPS, "a negative budget counts as 0");
    assertEquals(60, eqResv.share(60, 0), EPS, "an empty queue counts as one query");
    assertThrows(IllegalArgumentException.class, () -> new EqResv(0));
  }

  @Test
  void maxQualityCompletesEveryJobWhenTheBudgetAllows()
  {
    final List<MaxQuality.Job> jobs = List.of(new MaxQuality.Job(100, SQRT), new MaxQuality.Job(300, SQRT));
    assertArrayEquals(new double[]{100, 300}, MaxQuality.split(jobs, 1000), EPS);
    assertArrayEquals(new double[]{0, 0}, MaxQuality.split(jobs, Double.NaN), EPS);
    assertArrayEquals(new double[]{0, 0}, MaxQuality.split(jobs, -5), EPS);
  }

  @Test
  void identicalConcaveJobsGetEqualShares()
  {
    // §3.2.2: "With a concave quality function, giving each job the same amount of processing time maximizes the
    // overall quality."
    final List<MaxQuality.Job> jobs = List.of(new MaxQuality.Job(100, SQRT), new MaxQuality.Job(100, SQRT),
                                              new MaxQuality.Job(100, SQRT), new MaxQuality.Job(100, SQRT));
    assertArrayEquals(new double[]{45, 45, 45, 45}, MaxQuality.split(jobs, 180), EPS);
  }

  @Test
  void underHeavyLoadLongJobsAreCutSoShortOnesAreNotStarved()
  {
    // §5: demands around the finance server's 300 ms mean, a budget well below their sum.
    final List<MaxQuality.Job> jobs = List.of(new MaxQuality.Job(900, SQRT), new MaxQuality.Job(100, SQRT),
                                              new MaxQuality.Job(300, SQRT));
    final double budget = 600;
    final double[] split = MaxQuality.split(jobs, budget);
    assertEquals(budget, split[0] + split[1] + split[2], EPS);
    final double[] completion = {split[0] / 900, split[1] / 100, split[2] / 300};
    // The long job absorbs the whole cut; FIFO would have given it everything and the short ones nothing.
    assertArrayEquals(new double[]{200.0 / 900, 1, 1}, completion, EPS);

    final double optimum = MaxQuality.totalQuality(jobs, split);
    final double fifo = MaxQuality.totalQuality(jobs, new double[]{600, 0, 0});
    final double equal = MaxQuality.totalQuality(jobs, new double[]{250, 100, 250});
    assertTrue(optimum > fifo && optimum > equal, optimum + " vs fifo " + fifo + ", equal " + equal);
    // Exhaustive check on a 5 ms grid: nothing beats the water-filling split.
    for (int a = 0; a <= 600; a += 5) {
      for (int b = 0; b <= Math.min(100, 600 - a); b += 5) {
        final double c = Math.min(300, 600 - a - b);
        assertTrue(MaxQuality.totalQuality(jobs, new double[]{a, b, c}) <= optimum + EPS, a + "/" + b + "/" + c);
      }
    }
  }

  @Test
  void withLinearProfilesShortJobsGoFirst()
  {
    // No concavity to exploit: quality per ms is 1/w, so the split degenerates to shortest-job-first.
    final List<MaxQuality.Job> jobs = List.of(new MaxQuality.Job(300, QualityProfile.LINEAR),
                                              new MaxQuality.Job(100, QualityProfile.LINEAR));
    assertArrayEquals(new double[]{100, 100}, MaxQuality.split(jobs, 200), EPS);
    assertArrayEquals(new int[]{0, 1}, MaxQuality.shortestFirst(new double[]{10, 30}));
    assertArrayEquals(new int[]{1, 0}, MaxQuality.shortestFirst(new double[]{30, 10}));
  }

  @Test
  void maxQualityBeatsRandomFeasibleSplits()
  {
    final Random random = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      final int n = 2 + random.nextInt(4);
      final MaxQuality.Job[] jobs = new MaxQuality.Job[n];
      double total = 0;
      for (int j = 0; j < n; j++) {
        jobs[j] = new MaxQuality.Job(10 + random.nextInt(500), random.nextBoolean() ? SQRT : QualityProfile.LINEAR);
        total += jobs[j].demand();
      }
      final double budget = random.nextDouble() * total;
      final List<MaxQuality.Job> list = List.of(jobs);
      final double best = MaxQuality.totalQuality(list, MaxQuality.split(list, budget));
      for (int k = 0; k < 50; k++) {
        final double[] candidate = new double[n];
        double left = budget;
        for (int j : random.ints(0, n).distinct().limit(n).toArray()) {
          candidate[j] = Math.min(jobs[j].demand(), random.nextDouble() * left);
          left -= candidate[j];
        }
        assertTrue(MaxQuality.totalQuality(list, candidate) <= best + 1e-9);
      }
    }
  }

  @Test
  void invalidJobsAndProfilesFailAtConstruction()
  {
    assertThrows(IllegalArgumentException.class, () -> new MaxQuality.Job(0, SQRT));
    assertThrows(IllegalArgumentException.class, () -> new MaxQuality.Job(Double.NaN, SQRT));
    assertThrows(IllegalArgumentException.class, () -> new MaxQuality.Job(10, null));
    assertThrows(IllegalArgumentException.class, () -> QualityProfile.of(new double[]{0, 1}, new double[]{0.5, 0.2}),
                 "decreasing");
    assertThrows(IllegalArgumentException.class,
                 () -> QualityProfile.of(new double[]{0, 0.5, 1}, new double[]{0, 0.1, 1}), "convex");
    assertThrows(IllegalArgumentException.class, () -> QualityProfile.of(new double[]{0.1, 1}, new double[]{0, 1}));
    assertThrows(IllegalArgumentException.class, () -> QualityProfile.of(new double[]{0, 1}, new double[]{0, 1.5}));
    assertEquals(0.5, SQRT.quality(0.25), EPS);
    assertEquals(1, SQRT.quality(7), EPS, "clamped");
    assertEquals(0, SQRT.quality(Double.NaN), EPS);
  }
}
