package org.getafix.core.placement;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PopularityTrackerTest
{
  @Test
  void withoutCorrectionTheThesisRecurrenceHoldsExactly()
  {
    final PopularityTracker tracker = new PopularityTracker(0.5, false);
    assertFalse(tracker.biasCorrected());
    double expected = 0;
    final double[] accesses = {3.0, 0.0, 5.0, 1.0, 1.0, 0.0, 7.0};
    for (double a : accesses) {
      expected = 0.5 * expected + a;
      assertEquals(expected, tracker.update(Map.of("s", a)).get("s"), 0.0);
    }
    assertEquals(expected, tracker.popularity().get("s"), 0.0);
  }

  @Test
  void aYoungSegmentWithConstantAccessIsRatedLikeAnOldOne()
  {
    final double decay = 0.5;
    final PopularityTracker corrected = new PopularityTracker(decay, true);
    final PopularityTracker thesis = new PopularityTracker(decay, false);
    for (int round = 0; round < 60; round++) {
      corrected.update(Map.of("old", 2.0));
      thesis.update(Map.of("old", 2.0));
    }
    // The old segment is at the steady state A / (1 - decay) with or without the correction.
    assertEquals(2.0 / (1 - decay), corrected.popularity().get("old"), 1e-12);
    assertEquals(2.0 / (1 - decay), thesis.popularity().get("old"), 1e-12);
    for (int round = 1; round <= 4; round++) {
      final Map<String, Double> c = corrected.update(Map.of("old", 2.0, "young", 2.0));
      final Map<String, Double> t = thesis.update(Map.of("old", 2.0, "young", 2.0));
      assertEquals(c.get("old"), c.get("young"), 1e-12, "round " + round);
      // Without the correction the young one is short by the factor (1 - decay^age).
      assertEquals(t.get("old") * (1 - Math.pow(decay, round)), t.get("young"), 1e-12, "round " + round);
      assertTrue(t.get("young") < t.get("old"));
    }
  }

  @Test
  void correctionPreservesRatiosOfAccessRatesAndRestartsForAReturningSegment()
  {
    final PopularityTracker tracker = new PopularityTracker(0.9, true);
    for (int round = 0; round < 300; round++) {
      tracker.update(Map.of("old", 1.0));
    }
    // A young segment drawing three times the old one's access time is rated three times as popular at once.
    Map<String, Double> p = tracker.update(Map.of("old", 1.0, "hot", 3.0));
    assertEquals(3.0, p.get("hot") / p.get("old"), 1e-9);
    p = tracker.update(Map.of("old", 1.0, "hot", 3.0));
    assertEquals(3.0, p.get("hot") / p.get("old"), 1e-9);
    // "hot" vanishes, then returns: it is forgotten, so its age restarts and the correction applies afresh.
    tracker.update(Map.of("old", 1.0));
    p = tracker.update(Map.of("old", 1.0, "hot", 1.0));
    assertEquals(p.get("old"), p.get("hot"), 1e-9);
  }

  @Test
  void zeroDecayNeedsNoCorrection()
  {
    final PopularityTracker tracker = new PopularityTracker(0.0, true);
    assertEquals(4.0, tracker.update(Map.of("s", 4.0)).get("s"), 0.0);
    assertEquals(1.0, tracker.update(Map.of("s", 1.0)).get("s"), 0.0);
  }
}
