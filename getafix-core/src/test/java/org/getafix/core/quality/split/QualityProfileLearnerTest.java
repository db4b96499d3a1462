package org.getafix.core.quality.split;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

  @Test
  void aRestoredSnapshotGivesTheSameProfiles()
  {
    final QualityProfileLearner learned = new QualityProfileLearner();
    final Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      final double fraction = random.nextDouble();
      learned.record(i % 2 == 0 ? "wiki/topN" : "wiki/scan", fraction, Math.sqrt(fraction) * random.nextDouble());
    }
    final QualityProfileLearner.Snapshot snapshot = learned.snapshot();
    final QualityProfileLearner restored = new QualityProfileLearner();
    restored.restore(snapshot);

    assertEquals(learned.queryClasses(), restored.queryClasses());
    for (String queryClass : learned.queryClasses()) {
      assertArrayEquals(learned.profile(queryClass).fractions(), restored.profile(queryClass).fractions(), queryClass);
      assertArrayEquals(learned.profile(queryClass).qualities(), restored.profile(queryClass).qualities(), queryClass);
    }
    assertEquals(snapshot, restored.snapshot());
  }

  @Test
  void restoringAddsToWhatWasRecordedMeanwhile()
  {
    final QualityProfileLearner before = new QualityProfileLearner(10, 5);
    for (int i = 0; i < 3; i++) {
      before.record("c", 0.25, 0.8);
    }
    final QualityProfileLearner after = new QualityProfileLearner(10, 5);
    for (int i = 0; i < 2; i++) {
      after.record("c", 0.25, 0.8);
    }
    after.restore(before.snapshot());
    assertEquals(0.8, after.profile("c").quality(0.25), 1e-9, "3 restored + 2 new samples fill the bin");
  }

  @Test
  void aSnapshotThatIsNotALearnersStateIsRefused()
  {
    final QualityProfileLearner.BinTotals empty = new QualityProfileLearner.BinTotals(
        Collections.nCopies(10, 0L), Collections.nCopies(10, 0.0), Collections.nCopies(10, 0.0));

    assertRefused("bin 0 has a negative count [-1]", () -> new QualityProfileLearner.BinTotals(
        List.of(-1L), List.of(0.0), List.of(0.0)));
    assertRefused("fractionSums of bin 0 must be in [0, 2] (its count), got [NaN]", () ->
        new QualityProfileLearner.BinTotals(List.of(2L), List.of(Double.NaN), List.of(1.0)));
    assertRefused("qualitySums of bin 0 must be in [0, 2] (its count), got [3.0]", () ->
        new QualityProfileLearner.BinTotals(List.of(2L), List.of(1.0), List.of(3.0)));
    assertRefused("bin totals need as many fractionSums and qualitySums as counts (>= 1), got 1, 2 and 1", () ->
        new QualityProfileLearner.BinTotals(List.of(2L), List.of(1.0, 1.0), List.of(1.0)));
    assertRefused("bin totals need counts, fractionSums and qualitySums, without nulls", () ->
        new QualityProfileLearner.BinTotals(List.of(2L), null, List.of(1.0)));
    assertRefused("query class [c] has 10 bins, the snapshot 5", () ->
        new QualityProfileLearner.Snapshot(5, Map.of("c", empty)));
    assertRefused("a snapshot needs >= 1 bins, got [0]", () -> new QualityProfileLearner.Snapshot(0, Map.of()));
    assertRefused("a snapshot needs its query classes", () -> new QualityProfileLearner.Snapshot(10, null));

    final QualityProfileLearner learner = new QualityProfileLearner(20, 5);
    assertRefused("a snapshot of 10 bins cannot restore a learner of 20 bins", () ->
        learner.restore(new QualityProfileLearner.Snapshot(10, Map.of("c", empty))));
    assertRefused("no snapshot to restore", () -> learner.restore(null));
    assertEquals(Set.of(), learner.queryClasses(), "a refused snapshot restores nothing");
  }

  private static void assertRefused(String message, Runnable construction)
  {
    assertEquals(message, assertThrows(IllegalArgumentException.class, construction::run).getMessage());
  }
}
