package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RaceLossesTest
{
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final RaceLosses losses = new RaceLosses(new NodeLatencies(Duration.ofSeconds(30), clock::get), 4);

  @Test
  void aNodesShareIsUnknownAndItLosesNotMostUntilItHasMinSamples()
  {
    for (int i = 0; i < 3; i++) {
      losses.record("a", true);
    }
    assertTrue(Double.isNaN(losses.lostShare("a")), "three of four samples");
    assertFalse(losses.losesMost("a"), "unknown: not losing most");
    losses.record("a", false);
    assertEquals(0.75, losses.lostShare("a"), 1e-12);
    assertTrue(losses.losesMost("a"));
    assertFalse(losses.losesMost("b"), "a node never seen");
  }

  @Test
  void aNodeLosingUnderHalfOfItsSubQueriesLosesNotMost()
  {
    losses.record("a", true);
    for (int i = 0; i < 3; i++) {
      losses.record("a", false);
    }
    assertEquals(0.25, losses.lostShare("a"), 1e-12);
    assertFalse(losses.losesMost("a"));
    losses.record("a", true);
    losses.record("a", true);
    assertEquals(0.5, losses.lostShare("a"), 1e-12);
    assertTrue(losses.losesMost("a"), "at the losing share");
  }

  @Test
  void aRecoveredNodeLosesNotMostOnceItsLossesLeaveTheWindow()
  {
    for (int i = 0; i < 4; i++) {
      losses.record("a", true);
    }
    assertTrue(losses.losesMost("a"));
    clock.addAndGet(Duration.ofSeconds(61).toNanos());
    for (int i = 0; i < 4; i++) {
      losses.record("a", false);
    }
    assertEquals(0.0, losses.lostShare("a"), 1e-12);
    assertFalse(losses.losesMost("a"));
  }

  @Test
  void minSamplesBelowOneIsRefused()
  {
    assertThrows(
        IllegalArgumentException.class,
        () -> new RaceLosses(new NodeLatencies(Duration.ofSeconds(30), clock::get), 0)
    );
  }
}
