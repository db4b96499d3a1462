package org.getafix.core.placement.popularity;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

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

  @Test
  void aNewSegmentStartsFromItsPredecessorsStateOnlyWhenNamedAndKnown()
  {
    final PopularityTracker tracker = new PopularityTracker(0.5, false);
    tracker.update(Map.of("h1", 8.0));
    // h2 follows h1: 0.5 * 8 + its own 1; h3 names an unknown predecessor and starts from 0.
    final Map<String, Double> next = tracker.update(
        Map.of("h1", 2.0, "h2", 1.0, "h3", 1.0),
        Map.of("h2", "h1", "h3", "h0")
    );
    assertEquals(6.0, next.get("h1"), 0.0);
    assertEquals(5.0, next.get("h2"), 0.0);
    assertEquals(1.0, next.get("h3"), 0.0);
    // From then on h2 has a history of its own: a predecessor named again is ignored.
    assertEquals(0.5 * 5.0, tracker.update(Map.of("h1", 0.0, "h2", 0.0), Map.of("h2", "h1")).get("h2"), 0.0);
  }

  @Test
  void anUnmeasuredSegmentKeepsItsPopularityAndANewOneStartsAtZero()
  {
    final PopularityTracker tracker = new PopularityTracker(0.5, false);
    tracker.update(Map.of("s", 10.0));
    assertEquals(15.0, tracker.update(Map.of("s", 10.0)).get("s"), 1e-9);
    // Its holder's statistics were late: not halved, as a round of 0 would.
    final Map<String, Double> missed = tracker.update(Map.of("s", 0.0, "new", 0.0), Map.of(), Set.of("s", "new"));
    assertEquals(15.0, missed.get("s"), 1e-9);
    assertEquals(0.0, missed.get("new"), 1e-9);
    assertEquals(17.5, tracker.update(Map.of("s", 10.0, "new", 4.0)).get("s"), 1e-9);
    assertEquals(4.0, tracker.popularity().get("new"), 1e-9);
  }
}
