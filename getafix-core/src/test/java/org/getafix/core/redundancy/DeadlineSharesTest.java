package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadlineSharesTest
{
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final DeadlineShares shares = new DeadlineShares(new NodeLatencies(Duration.ofSeconds(30), clock::get), 3);

  @Test
  void aNodesShareIsUnknownUntilItHasMinSamplesThenTheirMean()
  {
    shares.record("a", 100, 400);
    shares.record("a", 200, 400);
    assertTrue(Double.isNaN(shares.share("a")), "two of three samples");
    shares.record("a", 300, 400);
    assertEquals(0.5, shares.share("a"), 1e-12);
    assertTrue(Double.isNaN(shares.share("b")), "a node never seen");
  }

  @Test
  void aSubQueryCutAtOrPastItsDeadlineOrSentWithNoTimeLeftCountsOne()
  {
    shares.record("a", 450, 400);
    shares.record("a", 400, 400);
    shares.record("a", 0, 0);
    assertEquals(1.0, shares.share("a"), 1e-12);
  }

  @Test
  void theShareForgetsWhatLeftTheWindow()
  {
    for (int i = 0; i < 3; i++) {
      shares.record("a", 400, 400);
    }
    clock.addAndGet(Duration.ofSeconds(61).toNanos());
    for (int i = 0; i < 3; i++) {
      shares.record("a", 40, 400);
    }
    assertEquals(0.1, shares.share("a"), 1e-12);
  }

  @Test
  void minSamplesBelowOneIsRefused()
  {
    assertThrows(
        IllegalArgumentException.class,
        () -> new DeadlineShares(new NodeLatencies(Duration.ofSeconds(30), clock::get), 0)
    );
  }
}
