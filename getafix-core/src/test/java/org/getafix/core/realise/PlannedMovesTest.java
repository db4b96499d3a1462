package org.getafix.core.realise;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlannedMovesTest
{
  private static final Map<String, Double> SHARES = Map.of("a", 0.2, "b", 0.4, "c", 0.4);

  @Test
  void aReplicaOnAPlannedServerStaysUnlessTheServerLeaves()
  {
    assertFalse(PlannedMoves.shouldMove(SHARES.keySet(), "a", false));
    assertTrue(PlannedMoves.shouldMove(SHARES.keySet(), "a", true));
    assertTrue(PlannedMoves.shouldMove(SHARES.keySet(), "x", false));
  }

  @Test
  void theDestinationIsThePlannedCandidateWithTheLargestShareFirstOfEquals()
  {
    assertEquals("c", PlannedMoves.destination(SHARES.keySet(), List.of("x", "a", "c", "b"), Function.identity(),
                                               SHARES::get));
    assertNull(PlannedMoves.destination(Set.of("a"), List.of("x", "y"), Function.identity(), SHARES::get));
  }
}
