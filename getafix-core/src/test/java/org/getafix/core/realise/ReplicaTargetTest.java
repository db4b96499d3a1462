package org.getafix.core.realise;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicaTargetTest
{
  private static final RealisePolicy ALL_LOADED = new RealisePolicy(1, LoadBeforeDrop.ALL_PLANNED_LOADED);
  private static final Map<String, Double> SHARES = Map.of("a", 0.2, "b", 0.5, "c", 0.3, "d", 0.5);
  private static final List<String> NODES = List.of("a", "b", "c", "d", "e");

  @Test
  void loadsGoToPlannedServersWithoutTheSegmentLargestShareFirstThenByName()
  {
    final ReplicaTarget t = ALL_LOADED.target("s", Set.of("a"), Set.of("c"), SHARES.keySet());
    assertEquals(List.of("b", "d"), t.loadOrder(NODES, Function.identity(), SHARES::get),
                 "a serves and c loads already; b and d tie on share and go by name");
    assertEquals(List.of("d"), t.loadOrder(List.of("d", "e"), Function.identity(), SHARES::get),
                 "only the offered candidates");
  }

  @Test
  void dropsTakeOnlyUnplannedServersInTheCallersOrder()
  {
    final ReplicaTarget t = ALL_LOADED.target("s", Set.of("a", "b", "x", "y"), Set.of(), Set.of("a", "b"));
    assertEquals(List.of("y", "x"), t.dropOrder(List.of("y", "a", "x", "b"), Function.identity()));
  }

  @Test
  void aFrozenTargetNeitherLoadsNorDrops()
  {
    final ReplicaTarget t = ALL_LOADED.frozen("s", Set.of("x"), Set.of());
    assertTrue(t.loadOrder(NODES, Function.identity(), SHARES::get).isEmpty());
    assertTrue(t.dropOrder(List.of("x"), Function.identity()).isEmpty());
  }

  @Test
  void theLastLoadedReplicaIsNeverOffered()
  {
    // A target that would drop both: the drop order still keeps one loaded replica.
    final ReplicaTarget t = new ReplicaTarget("s", 0, true, 0, Set.of("x", "y"), Set.of(), Set.of("a"));
    assertEquals(List.of("y"), t.dropOrder(List.of("y", "x"), Function.identity()));
    assertEquals(1, t.dropsWithin(ChurnLimits.UNLIMITED.newRound(), List.of("y", "x")).size());
  }

  @Test
  void loadsWithinABudgetRestoreTheFloorFreeAndSpendTheRest()
  {
    final RealisePolicy floorTwo = new RealisePolicy(2, LoadBeforeDrop.ALL_PLANNED_LOADED);
    final ReplicaTarget t = floorTwo.target("s", Set.of("e"), Set.of(), Set.of("b", "c", "d"));
    final ChurnBudget budget = new ChurnLimits(1, 0).newRound();
    assertEquals(List.of("b", "d", "c"), t.loadOrder(NODES, Function.identity(), SHARES::get));
    assertEquals(List.of("b", "d"), t.loadsWithin(budget, NODES, SHARES::get, 100),
                 "b restores the floor for free, d takes the one budgeted load, c waits");
    assertEquals(1, budget.loadsSpent());
    assertEquals(100, budget.loadBytesSpent(), "the free load costs the budget no bytes either");
  }

  @Test
  void dropsWithinTakeTheSurplusWithinTheBudget()
  {
    final ReplicaTarget t = ALL_LOADED.target("s", Set.of("a", "x", "y", "z"), Set.of(), Set.of("a"));
    assertEquals(3, t.surplus());
    assertEquals(List.of("z", "y"), t.dropsWithin(new ChurnLimits(0, 2).newRound(), List.of("z", "a", "y", "x")));
  }

  /**
   * A plan that moves every replica, realised round after round with one load and one drop per round: loads
   * complete between rounds. The segment never goes without a loaded replica, and ends where the plan wants it.
   */
  @Test
  void movingEverythingNeverLosesTheSegment()
  {
    for (LoadBeforeDrop rule : LoadBeforeDrop.values()) {
      final RealisePolicy policy = new RealisePolicy(1, rule);
      final Set<String> loaded = new HashSet<>(Set.of("a", "b", "c"));
      final Set<String> planned = Set.of("d", "e");
      for (int round = 0; round < 10; round++) {
        final ChurnBudget budget = new ChurnLimits(1, 1).newRound();
        final ReplicaTarget t = policy.target("s", Set.copyOf(loaded), Set.of(), planned);
        final List<String> drops = t.dropsWithin(budget, List.copyOf(loaded));
        loaded.removeAll(drops);
        assertTrue(!loaded.isEmpty(), rule + ": round " + round + " dropped the last replica");
        loaded.addAll(t.loadsWithin(budget, List.of("a", "b", "c", "d", "e"), server -> 0.5, 1));
      }
      assertEquals(planned, loaded, rule.toString());
    }
  }
}
