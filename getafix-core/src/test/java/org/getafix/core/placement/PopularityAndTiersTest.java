package org.getafix.core.placement;

import org.getafix.core.placement.popularity.PopularityTracker;
import org.getafix.core.placement.tiering.Tier;
import org.getafix.core.placement.tiering.TierClassifier;
import org.getafix.core.placement.tiering.TieringAccuracy;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PopularityAndTiersTest
{
  @Test
  void popularityHalvesEachRoundAndAddsTheNewAccessTime()
  {
    final PopularityTracker tracker = new PopularityTracker();
    assertEquals(Map.of("a", 8.0, "b", 2.0), tracker.update(Map.of("a", 8.0, "b", 2.0)));
    assertEquals(Map.of("a", 4.0, "b", 3.0), tracker.update(Map.of("a", 0.0, "b", 2.0)));
    assertEquals(Map.of("a", 2.0 + 1.0, "b", 1.5), tracker.update(Map.of("a", 1.0, "b", 0.0)));
    // "b" vanished and is forgotten; when it comes back it starts from scratch.
    assertEquals(Map.of("a", 1.5), tracker.update(Map.of("a", 0.0)));
    assertEquals(Map.of("a", 0.75, "b", 1.0), tracker.update(Map.of("a", 0.0, "b", 1.0)));
  }

  @Test
  void decayIsAParameter()
  {
    final PopularityTracker tracker = new PopularityTracker(0.9);
    tracker.update(Map.of("a", 10.0));
    assertEquals(9.0 + 1.0, tracker.update(Map.of("a", 1.0)).get("a"), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> new PopularityTracker(1.0));
    assertThrows(IllegalArgumentException.class, () -> new PopularityTracker(Double.NaN));
  }

  @Test
  void badAccessTimesAreNamedAndLeaveTheTrackerUnchanged()
  {
    final PopularityTracker tracker = new PopularityTracker();
    tracker.update(Map.of("a", 4.0));
    final Map<String, Double> bad = new LinkedHashMap<>();
    bad.put("a", 1.0);
    bad.put("seg-x", Double.NaN);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tracker.update(bad));
    assertTrue(e.getMessage().contains("seg-x") && e.getMessage().contains("NaN"), e.getMessage());
    bad.put("seg-x", -1.0);
    e = assertThrows(IllegalArgumentException.class, () -> tracker.update(bad));
    assertTrue(e.getMessage().contains("seg-x") && e.getMessage().contains("-1.0"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> tracker.update(Map.of("", 1.0)));
    assertTrue(e.getMessage().contains("segmentId"), e.getMessage());
    assertEquals(Map.of("a", 4.0), tracker.popularity());
  }

  @Test
  void naturalBreaksFindTheThreeHardwareTiers()
  {
    // Table 4.1 Cluster-1: 3 × 16 cores, 6 × 8, 6 × 4, with some noise in the measured load.
    final Map<String, Double> load = new HashMap<>();
    final Map<String, Tier> hardware = new HashMap<>();
    for (int i = 0; i < 3; i++) {
      load.put("xl-" + i, 16.0 + 0.3 * i);
      hardware.put("xl-" + i, Tier.HOT);
    }
    for (int i = 0; i < 6; i++) {
      load.put("l-" + i, 8.0 - 0.2 * i);
      hardware.put("l-" + i, Tier.WARM);
    }
    for (int i = 0; i < 6; i++) {
      load.put("m-" + i, 4.0 + 0.1 * i);
      hardware.put("m-" + i, Tier.COLD);
    }
    final Map<String, Tier> tiers = TierClassifier.classify(load);
    assertEquals(hardware, tiers);
    assertEquals(1.0, TieringAccuracy.of(tiers, hardware));
    assertEquals(hardware, TierClassifier.classifyByRank(load, 3, 6));
  }

  @Test
  void accuracyCountsCorrectAssignments()
  {
    final Map<String, Tier> hardware = Map.of("a", Tier.HOT, "b", Tier.WARM, "c", Tier.COLD, "d", Tier.COLD);
    final Map<String, Tier> measured = Map.of("a", Tier.HOT, "b", Tier.COLD, "c", Tier.COLD, "d", Tier.WARM);
    assertEquals(0.5, TieringAccuracy.of(measured, hardware));
    assertEquals(0.75, TieringAccuracy.overRounds(List.of(measured, hardware), hardware));
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> TieringAccuracy.of(Map.of("a", Tier.HOT, "zz", Tier.HOT), hardware)
    );
    assertTrue(e.getMessage().contains("zz"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> TieringAccuracy.of(Map.of("a", Tier.HOT), hardware));
    assertTrue(e.getMessage().contains("[b]"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TieringAccuracy.of(Map.of(), Map.of()));
  }

  @Test
  void degenerateLoadsAreClassifiedSensibly()
  {
    assertEquals(Map.of(), TierClassifier.classify(Map.of()));
    assertEquals(Map.of("a", Tier.WARM, "b", Tier.WARM), TierClassifier.classify(Map.of("a", 1.0, "b", 1.0)));
    assertEquals(Map.of("a", Tier.HOT, "b", Tier.COLD), TierClassifier.classify(Map.of("a", 2.0, "b", 1.0)));
    // Equal loads share a tier.
    final Map<String, Tier> tiers = TierClassifier.classify(Map.of("a", 9.0, "b", 5.0, "c", 5.0, "d", 1.0));
    assertEquals(tiers.get("b"), tiers.get("c"));
    assertEquals(Tier.HOT, tiers.get("a"));
    assertEquals(Tier.COLD, tiers.get("d"));
  }

  @Test
  void badLoadsAreNamed()
  {
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> TierClassifier.classify(Map.of("node-7", Double.NaN))
    );
    assertTrue(e.getMessage().contains("node-7"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> TierClassifier.classify(Map.of("node-8", -0.5)));
    assertTrue(e.getMessage().contains("node-8") && e.getMessage().contains("-0.5"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> TierClassifier.classify(Map.of("", 1.0)));
    assertTrue(e.getMessage().contains("nodeId"), e.getMessage());
  }
}
