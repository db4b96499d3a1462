package org.getafix.core.quality.split;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QualityProfileLearnerTest
{
  @Test
  void learnsAConcaveProfileFromNoisyMatureSamples()
  {
    final QualityProfileLearner learner = new QualityProfileLearner();
    final Random random = new Random(5);
    for (int i = 0; i < 5000; i++) {
      final double fraction = random.nextDouble();
      final double quality = Math.max(0, Math.min(1, Math.sqrt(fraction) + random.nextGaussian() * 0.05));
      learner.record("wiki/topN", fraction, quality);
    }
    final QualityProfile profile = learner.profile("wiki/topN");
    for (double x = 0.1; x <= 0.9; x += 0.1) {
      assertEquals(Math.sqrt(x), profile.quality(x), 0.06, "at " + x);
    }
    // Usable by MaxQuality: non-decreasing and concave (QualityProfile.of already rejected anything else).
    double previous = -1;
    for (double x = 0; x <= 1; x += 0.01) {
      assertTrue(profile.quality(x) >= previous - 1e-12);
      previous = profile.quality(x);
    }
    assertEquals(1, profile.quality(1), 1e-12);
  }

  @Test
  void classesAreLearnedSeparatelyAndUnknownOnesAreLinear()
  {
    final QualityProfileLearner learner = new QualityProfileLearner(10, 5);
    for (int i = 0; i < 10; i++) {
      learner.record("fast", 0.25, 0.9);
    }
    assertEquals(0.9, learner.profile("fast").quality(0.25), 1e-9);
    assertSame(QualityProfile.LINEAR, learner.profile("slow"));
    assertSame(QualityProfile.LINEAR, learner.profile(null));
  }

  @Test
  void sparseBinsAndGarbageSamplesDoNotShapeTheProfile()
  {
    final QualityProfileLearner learner = new QualityProfileLearner(10, 5);
    for (int i = 0; i < 4; i++) {
      learner.record("c", 0.15, 1.0);
    }
    learner.record("c", Double.NaN, 0.5);
    learner.record("c", 0.5, Double.NaN);
    learner.record("c", -0.1, 0.5);
    learner.record("c", 0.5, 1.5);
    learner.record(null, 0.5, 0.5);
    assertEquals(0.5, learner.profile("c").quality(0.5), 1e-9, "only the (0,0)-(1,1) anchors are left");
    assertThrows(IllegalArgumentException.class, () -> new QualityProfileLearner(0, 5));
  }
}
