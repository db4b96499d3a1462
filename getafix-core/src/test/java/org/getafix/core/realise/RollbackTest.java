package org.getafix.core.realise;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RollbackTest
{
  @Test
  void whileLoadingNoSegmentIsAskedForFewerReplicasThanItHas()
  {
    assertEquals(2, Rollback.replicas(Rollback.Phase.LOADING, 2, 1));
    assertEquals(3, Rollback.replicas(Rollback.Phase.LOADING, 2, 3), "the plan's extra replica stays while loading");
    assertEquals(2, Rollback.replicas(Rollback.Phase.DROPPING, 2, 3));
    assertEquals(2, Rollback.replicas(Rollback.Phase.DROPPING, 2, 1), "a segment below stock still loads");
    assertEquals(2, Rollback.replicas(Rollback.Phase.DONE, 2, 2));
  }

  @Test
  void thePhaseFollowsWhatThePassLeft()
  {
    final Rollback.Tally tally = new Rollback.Tally();
    assertFalse(tally.counted());
    tally.count(2, 1);
    tally.count(2, 3);
    tally.count(2, 2);
    assertTrue(tally.counted());
    assertEquals(new Rollback.Progress(1, 1, 3), tally.progress());
    assertEquals(Rollback.Phase.LOADING, tally.progress().phase(), "loads come before any drop");
    assertEquals(Rollback.Phase.DROPPING, new Rollback.Progress(0, 1, 3).phase());
    assertEquals(Rollback.Phase.DONE, new Rollback.Progress(0, 0, 3).phase());
  }
}
