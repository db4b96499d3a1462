package org.getafix.druid.coordinator.plan;

import org.getafix.core.placement.PlanKeeper;
import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.plan.PlacementPlan;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanPublisherTest
{
  private static final PlanningRound.Observed OBSERVED = new PlanningRound.Observed(
      Map.of(),
      Map.of("h1", 0.9876, "h3", 0.25),
      List.of(),
      Map.of(),
      Map.of(),
      List.of(),
      List.of(),
      Map.of(),
      Set.of("h3")
  );

  private static PlanKeeper.Verdict verdict(List<PlanKeeper.HolderChange> changes)
  {
    return new PlanKeeper.Verdict(
        new PlacementPlan(Map.of(), List.of()), PlanKeeper.Reason.KEPT, 1.25, 1.1, 0, 1, 0, changes
    );
  }

  @Test
  void theLogLineOfARoundsChangesSaysWhereEachSegmentWentAndWhyBesideTheEstimates()
  {
    final String line = PlanPublisher.holderChanges(7, verdict(List.of(
        new PlanKeeper.HolderChange("seg-b", Set.of("h3"), Set.of("h1"), PlanKeeper.Cause.REPAIR, "relieves h3"),
        new PlanKeeper.HolderChange("seg-a", Set.of(), Set.of("h1", "h2"), PlanKeeper.Cause.NEW, "")
    )), OBSERVED);
    assertEquals(
        "Getafix round 7 changes the holders of 2 segments (plan kept, peak 1.250 of the mean against the fresh plan's"
        + " 1.100; capacities {h1=0.988, h3=0.250}, unstable [h3]):"
        + " seg-b [h3] -> [h1] repair (relieves h3); seg-a [] -> [h1, h2] new",
        line
    );
  }

  @Test
  void theLogSaysWhenChangesStartAndStopWaitingForTheBudget()
  {
    assertEquals(
        "Getafix round 9: 2 changes of the plan (repairs, splits or growths that load) wait for the rebalancing budget,"
        + " maxRebalanceDataPerHour (was 0)",
        PlanPublisher.deferredChanges(9, 2, 0)
    );
    assertEquals(
        "Getafix round 90: no change of the plan waits for the rebalancing budget any more",
        PlanPublisher.deferredChanges(90, 0, 2)
    );
  }

  @Test
  void aWholePlanAdoptedAtOnceIsCountedNotListed()
  {
    final List<PlanKeeper.HolderChange> changes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      changes.add(new PlanKeeper.HolderChange("s" + i, Set.of(), Set.of("h1"), PlanKeeper.Cause.ADOPTED, ""));
    }
    final String line = PlanPublisher.holderChanges(1, verdict(changes), OBSERVED);
    assertTrue(line.contains("changes the holders of 100 segments"), line);
    assertTrue(line.contains("s19 [] -> [h1] adopted; and 80 more"), line);
    assertFalse(line.contains("s20 "), line);
  }
}
