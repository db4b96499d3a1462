package org.getafix.core.realise;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RealisePolicyTest
{
  private static final RealisePolicy ALL_LOADED = new RealisePolicy(1, LoadBeforeDrop.ALL_PLANNED_LOADED);
  private static final RealisePolicy COUNT = new RealisePolicy(1, LoadBeforeDrop.PLANNED_COUNT_SERVING);

  @Test
  void plannedSubsetOfLoadedAsksForThePlannedCount()
  {
    final ReplicaTarget t = ALL_LOADED.target("s", Set.of("a", "b", "c"), Set.of(), Set.of("a", "b"));
    assertEquals(2, t.replicas());
    assertTrue(t.acting());
    assertEquals(1, t.surplus());
  }

  @Test
  void missingPlannedCopyAsksForTheUnionSoNothingIsDroppedBeforeItLoads()
  {
    final ReplicaTarget t = ALL_LOADED.target("s", Set.of("a", "b", "c"), Set.of(), Set.of("a", "d"));
    assertEquals(4, t.replicas());
    assertEquals(0, t.surplus());
  }

  @Test
  void plannedCountServingDropsDownToThePlannedCountWhileAPlannedCopyLoads()
  {
    final ReplicaTarget t = COUNT.target("s", Set.of("a", "b", "c"), Set.of("d"), Set.of("a", "d"));
    assertEquals(2, t.replicas());
    assertEquals(1, t.surplus(), "one of b and c leaves; the other serves until d does");
  }

  @Test
  void neverBelowTheFloor()
  {
    final RealisePolicy floorTwo = new RealisePolicy(2, LoadBeforeDrop.PLANNED_COUNT_SERVING);
    assertEquals(2, floorTwo.target("s", Set.of("a", "b"), Set.of(), Set.of("a")).replicas());
    assertEquals(0, floorTwo.target("s", Set.of("a", "b"), Set.of(), Set.of("a")).surplus());
    assertEquals(1, ALL_LOADED.target("s", Set.of(), Set.of(), Set.of()).replicas());
  }

  @Test
  void notActingKeepsWhatIsLoadedAndRestoresTheFloor()
  {
    final ReplicaTarget frozen = ALL_LOADED.frozen("s", Set.of("a", "b", "c"), Set.of());
    assertEquals(3, frozen.replicas());
    assertFalse(frozen.acting());
    assertEquals(0, frozen.surplus());
    assertEquals(2, new RealisePolicy(2, LoadBeforeDrop.ALL_PLANNED_LOADED).frozen("s", Set.of(), Set.of())
                                                                             .replicas());
  }

  @Test
  void aSegmentWithoutLivePlannedHoldersIsFrozen()
  {
    final ReplicaTarget t = ALL_LOADED.target("s", Set.of("a", "b"), Set.of(), Set.of());
    assertEquals(2, t.replicas());
    assertFalse(t.acting());
  }

  @Test
  void floorDeficitCountsServersThatServeOrLoadOnce()
  {
    final RealisePolicy floorTwo = new RealisePolicy(2, LoadBeforeDrop.ALL_PLANNED_LOADED);
    assertEquals(2, floorTwo.target("s", Set.of(), Set.of(), Set.of("a")).floorDeficit());
    assertEquals(1, floorTwo.target("s", Set.of("x"), Set.of("x"), Set.of("a")).floorDeficit());
    assertEquals(0, floorTwo.target("s", Set.of("x"), Set.of("y"), Set.of("a")).floorDeficit());
  }

  @Test
  void badSettingsAreRejectedNamingThem()
  {
    final Exception e = assertThrows(
        IllegalArgumentException.class,
        () -> new RealisePolicy(-1, LoadBeforeDrop.ALL_PLANNED_LOADED)
    );
    assertTrue(e.getMessage().contains("floor"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new RealisePolicy(1, null));
  }
}
