package org.getafix.core.realise;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChurnBudgetTest
{
  @Test
  void eachRoundHasItsOwnLimitsAndCountsWhatItSpent()
  {
    final ChurnLimits limits = new ChurnLimits(2, 1);
    final ChurnBudget first = limits.newRound();
    assertTrue(first.tryLoad(100));
    assertTrue(first.tryLoad(30));
    assertFalse(first.tryLoad(100), "the round's loads are spent");
    assertTrue(first.tryDrop());
    assertFalse(first.tryDrop(), "the round's drops are spent");
    assertEquals(2, first.loadsSpent(), "refused loads are not counted");
    assertEquals(130, first.loadBytesSpent(), "the bytes of the loads it paid for");
    assertEquals(1, first.dropsSpent());
    assertTrue(limits.newRound().tryLoad(100), "a new round starts with its whole budget");
  }

  @Test
  void negativeLimitsAllowNothingRatherThanFail()
  {
    final ChurnBudget budget = new ChurnLimits(-3, -1).newRound();
    assertFalse(budget.tryLoad(1));
    assertFalse(budget.tryDrop());
  }

  @Test
  void admittedLoadsSpendOnlyWhatTheCallerTakes()
  {
    final ChurnBudget budget = new ChurnLimits(5, 0).newRound();
    final Iterator<String> loads = budget.admitLoads(List.of("a", "b", "c", "d").iterator(), 1, 7);
    assertEquals("a", loads.next());
    assertEquals(0, budget.loadsSpent(), "the first one is free");
    assertEquals("b", loads.next());
    assertEquals(1, budget.loadsSpent(), "c and d are not reached yet");
    assertEquals(7, budget.loadBytesSpent());
  }

  @Test
  void admittedDropsStopWhenTheBudgetIsSpent()
  {
    final ChurnBudget budget = new ChurnLimits(0, 2).newRound();
    final List<String> taken = new ArrayList<>();
    budget.admitDrops(List.of("a", "b", "c").iterator()).forEachRemaining(taken::add);
    assertEquals(List.of("a", "b"), taken);
    assertEquals(2, budget.dropsSpent());
  }
}
