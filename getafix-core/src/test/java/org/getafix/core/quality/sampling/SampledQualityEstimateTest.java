package org.getafix.core.quality.sampling;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampledQualityEstimateTest
{
  private static final long BUCKET = 10_000;

  /**
   * Calm minutes answer at 0.9 and every sample gets its run; congested ones answer at 0.5 and 9 of 10 samples are
   * skipped at the limit. The truth over every sampled query is their plain mean.
   */
  @Test
  void skipsUnderCongestionNoLongerBiasTheEstimateAndItsIntervalHoldsTheTruth()
  {
    final SampledQualityEstimate estimate = new SampledQualityEstimate(BUCKET, 100);
    final SplittableRandom random = new SplittableRandom(42);
    double truthSum = 0;
    double measuredSum = 0;
    long all = 0;
    long measured = 0;
    for (int bucket = 0; bucket < 60; bucket++) {
      final boolean congested = bucket % 3 == 0;
      for (int i = 0; i < 50; i++) {
        final long now = bucket * BUCKET + i * 100;
        final double quality = Math.min(1, Math.max(0, (congested ? 0.5 : 0.9) + (random.nextDouble() - 0.5) * 0.1));
        final boolean started = !congested || i % 10 == 0;
        estimate.onSampled(now, started);
        truthSum += quality;
        all++;
        if (started) {
          estimate.onMeasured(now, quality);
          measuredSum += quality;
          measured++;
        }
      }
    }
    final double truth = truthSum / all;
    final double naive = measuredSum / measured;
    final SampledQualityEstimate.Estimate e = estimate.estimate();
    assertTrue(naive - truth > 0.08, "measured runs alone read high: " + naive + " vs " + truth);
    assertEquals(truth, e.meanQuality(), 0.01, e.toString());
    assertTrue(Math.abs(e.meanQuality() - truth) <= e.confidence95(), "the 95% interval holds the truth: " + e);
    assertEquals(measured, e.measuredRuns());
    assertTrue(e.effectiveRuns() < measured, "unequal weights count for fewer runs: " + e);
  }

  @Test
  void withoutSkipsItIsThePlainMeanAndGarbageIsIgnored()
  {
    final SampledQualityEstimate estimate = new SampledQualityEstimate(BUCKET, 10);
    assertTrue(Double.isNaN(estimate.estimate().meanQuality()));
    for (int i = 0; i < 4; i++) {
      estimate.onSampled(i, true);
      estimate.onMeasured(i, i / 4.0);
    }
    estimate.onMeasured(5, Double.NaN);
    estimate.onMeasured(5, 1.5);
    estimate.onMeasured(-1, 0.5);
    estimate.onSampled(-1, false);
    assertEquals((0 + 0.25 + 0.5 + 0.75) / 4, estimate.estimate().meanQuality(), 1e-12);
    assertEquals(4, estimate.estimate().measuredRuns());
  }

  @Test
  void aRunWhoseBucketIsForgottenWeighsOne()
  {
    final SampledQualityEstimate estimate = new SampledQualityEstimate(BUCKET, 2);
    estimate.onSampled(0, true);
    estimate.onSampled(1, false);
    estimate.onSampled(4 * BUCKET, true);
    estimate.onMeasured(0, 0.2);
    estimate.onMeasured(4 * BUCKET, 1.0);
    assertEquals(0.6, estimate.estimate().meanQuality(), 1e-12, "bucket 0 is gone: its run weighs 1, not 2");

    final SampledQualityEstimate retiring = new SampledQualityEstimate(BUCKET, 2);
    retiring.onSampled(0, true);
    retiring.onSampled(1, false);
    retiring.onMeasured(0, 0.2);
    retiring.onSampled(4 * BUCKET, true);
    retiring.onMeasured(4 * BUCKET, 1.0);
    assertEquals((2 * 0.2 + 1.0) / 3, retiring.estimate().meanQuality(), 1e-12, "a run measured in time keeps its weight");
  }

  /**
   * A bucket of four samples: one got its mature run (quality 1), three were skipped at the limit. Until they are
   * replayed, the one run stands for all four; each replay that starts then stands for itself, and one that never
   * starts (dropped) is stood for by the bucket's runs.
   */
  @Test
  void aReplayedSampleCountsAsStartedInTheBucketOfItsSampling()
  {
    final SampledQualityEstimate estimate = new SampledQualityEstimate(BUCKET, 10);
    estimate.onSampled(0, true);
    for (int i = 1; i <= 3; i++) {
      estimate.onSampled(i, false);
    }
    estimate.onMeasured(0, 1.0);
    assertEquals(1.0, estimate.estimate().meanQuality(), 1e-12);

    // Two replays start later and measure the answers of the bucket's moment: 0.4 each.
    estimate.onStartedLater(1);
    estimate.onStartedLater(2);
    estimate.onMeasured(1, 0.4);
    estimate.onMeasured(2, 0.4);
    final SampledQualityEstimate.Estimate e = estimate.estimate();
    // Each of the three runs weighs 4 / 3: the third skipped sample was dropped and is stood for.
    assertEquals((1.0 + 0.4 + 0.4) / 3, e.meanQuality(), 1e-12, e.toString());
    assertEquals(3, e.measuredRuns());
    assertEquals(3, e.effectiveRuns(), 1e-9, "equal weights: " + e);

    // Starting later never counts more runs than samples, nor touches a forgotten bucket.
    estimate.onStartedLater(3);
    estimate.onStartedLater(3);
    estimate.onStartedLater(-1);
    estimate.onStartedLater(100 * BUCKET);
    estimate.onMeasured(3, 0.4);
    assertEquals((1.0 + 3 * 0.4) / 4, estimate.estimate().meanQuality(), 1e-12);
  }
}
