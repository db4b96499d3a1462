package org.getafix.druid.coordinator;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicaTargetTest
{
  @Test
  void plannedSubsetOfLoadedAsksForThePlannedCount()
  {
    final ReplicaTarget t = ReplicaTarget.decide("s", true, 1, Set.of("a", "b", "c"), Set.of("a", "b"));
    assertEquals(2, t.replicas());
    assertTrue(t.acting());
  }

  @Test
  void missingPlannedCopyAsksForTheUnionSoNothingIsDroppedBeforeItLoads()
  {
    final ReplicaTarget t = ReplicaTarget.decide("s", true, 1, Set.of("a", "b"), Set.of("b", "c"));
    assertEquals(3, t.replicas());
  }

  @Test
  void neverBelowTheFloor()
  {
    assertEquals(2, ReplicaTarget.decide("s", true, 2, Set.of("a", "b"), Set.of("a")).replicas());
    assertEquals(1, ReplicaTarget.decide("s", true, 1, Set.of(), Set.of()).replicas());
  }

  @Test
  void notActingKeepsWhatIsLoadedAndRestoresTheFloor()
  {
    final ReplicaTarget frozen = ReplicaTarget.decide("s", false, 1, Set.of("a", "b", "c"), Set.of("a"));
    assertEquals(3, frozen.replicas());
    assertFalse(frozen.acting());
    assertEquals(2, ReplicaTarget.decide("s", false, 2, Set.of(), Set.of("a")).replicas());
  }

  @Test
  void unknownSegmentFallsBackToFloorWithoutDropping()
  {
    final ReplicaTarget t = ReplicaTarget.decide("s", true, 1, Set.of("a", "b"), Set.of());
    assertEquals(2, t.replicas());
    assertFalse(t.acting());
    assertEquals(1, ReplicaTarget.decide("new", true, 1, Set.of(), Set.of()).replicas());
  }

  @Test
  void floorDeficitCountsOnlyMissingFloorReplicas()
  {
    assertEquals(2, ReplicaTarget.decide("s", true, 2, Set.of(), Set.of("a")).floorDeficit());
    assertEquals(0, ReplicaTarget.decide("s", true, 1, Set.of("x"), Set.of("a")).floorDeficit());
  }
}
