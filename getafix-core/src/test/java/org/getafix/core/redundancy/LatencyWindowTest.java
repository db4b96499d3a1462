package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyWindowTest
{
  private static final Duration WINDOW = Duration.ofSeconds(30);

  private final AtomicLong clock = new AtomicLong(5_000_000_000L);

  private void advance(Duration by)
  {
    clock.addAndGet(by.toNanos());
  }

  /** Records {@code millis} {@code times} times, {@code apart} from each other. */
  private void record(LatencyWindow window, double millis, int times, Duration apart)
  {
    for (int i = 0; i < times; i++) {
      window.record(millis);
      advance(apart);
    }
  }

  @Test
  void statisticsOfTheRecordedLatencies()
  {
    final LatencyWindow window = new LatencyWindow(WINDOW, clock::get);
    for (int ms = 1; ms <= 100; ms++) {
      window.record(ms);
    }
    assertEquals(100, window.count());
    assertEquals(50.5, window.mean(), 1e-9);
    // Variance of 1..100 is (100² − 1) / 12.
    assertEquals((100.0 * 100 - 1) / 12 / (50.5 * 50.5), window.scv(), 1e-9);
    assertEquals(95, window.quantile(0.95), 1);
    assertEquals(0.5, window.cdf(50), 0.011);
    assertEquals(1, window.cdf(1000), 0);
    assertEquals(0, window.cdf(-1), 0);
  }

  @Test
  void oldObservationsLeaveTheWindowAsTheClockMoves()
  {
    final LatencyWindow window = new LatencyWindow(WINDOW, clock::get);
    record(window, 10, 10, Duration.ZERO);
    advance(Duration.ofSeconds(15));
    record(window, 100, 10, Duration.ZERO);
    assertEquals(20, window.count());
    assertEquals(55, window.mean(), 1e-9);
    advance(Duration.ofSeconds(16));
    assertEquals(10, window.count(), "the first ten are more than a window old");
    assertEquals(100, window.mean(), 1e-9);
    assertEquals(0, window.scv(), 1e-12);
    assertEquals(100, window.quantile(0.5), 1);
    advance(Duration.ofMinutes(5));
    assertEquals(0, window.count());
    assertTrue(Double.isNaN(window.mean()));
    assertTrue(Double.isNaN(window.quantile(0.95)));
    assertTrue(Double.isNaN(window.cdf(10)));
    assertEquals(0, window.arrivalRatePerSecond(), 0);
  }

  @Test
  void arrivalRateOverTheWindow()
  {
    final LatencyWindow window = new LatencyWindow(WINDOW, clock::get);
    record(window, 20, 600, Duration.ofMillis(100));
    // 10 per second; the window covers between 27 and 30 s of them.
    final double rate = window.arrivalRatePerSecond();
    assertTrue(rate >= 9 && rate <= 10.01, "rate " + rate);

    final LatencyWindow fresh = new LatencyWindow(WINDOW, clock::get);
    record(fresh, 20, 60, Duration.ofMillis(100));
    assertEquals(10, fresh.arrivalRatePerSecond(), 0.01, "a node seen for 6 s: its rate over those 6 s");
  }

  @Test
  void garbageIsIgnoredAndCounted()
  {
    final LatencyWindow window = new LatencyWindow(WINDOW, clock::get);
    window.record(10);
    assertFalse(window.record(Double.NaN));
    assertFalse(window.record(-1));
    assertFalse(window.record(Double.POSITIVE_INFINITY));
    assertTrue(window.record(1e300), "absurdly slow is still slow");
    assertEquals(3, window.ignored());
    assertEquals(2, window.count());
    assertEquals(LatencyWindow.MAX_MILLIS, window.quantile(1), LatencyWindow.MAX_MILLIS * 0.01);
    assertTrue(Double.isNaN(window.quantile(1.5)));
    assertTrue(Double.isNaN(window.cdf(Double.NaN)));
    assertThrows(IllegalArgumentException.class, () -> new LatencyWindow(Duration.ofNanos(5), clock::get));
    assertThrows(IllegalArgumentException.class, () -> new NodeLatencies(null, clock::get));
  }

  @Test
  void registryKeepsOneWindowPerNodeAndForgetsSilentOnes()
  {
    final NodeLatencies latencies = new NodeLatencies(WINDOW, clock::get);
    latencies.record("a", 10);
    latencies.record("b", 20);
    latencies.record("b", 30);
    latencies.record(null, 10);
    latencies.record("c", Double.NaN);
    assertEquals(2, latencies.size(), "garbage creates no window");
    assertEquals(2, latencies.ignored());
    assertEquals(2, latencies.get("b").count());
    assertNull(latencies.get("c"));
    assertNull(latencies.get(null));

    final long cutoff = clock.get() + 1;
    advance(Duration.ofSeconds(1));
    latencies.record("b", 25);
    latencies.forgetSilentSince(cutoff);
    assertNull(latencies.get("a"));
    assertNotNull(latencies.get("b"));
  }

  @Test
  void aNewNodeMakesTheRegistryForgetTheNodesLongSilent()
  {
    final NodeLatencies latencies = new NodeLatencies(WINDOW, clock::get);
    latencies.record("restarted-on-an-old-port", 10);
    advance(WINDOW.multipliedBy(NodeLatencies.FORGET_AFTER_WINDOWS - 1));
    latencies.record("recent", 10);
    assertNotNull(latencies.get("restarted-on-an-old-port"), "silent for less than the limit: kept");
    advance(WINDOW.multipliedBy(2));
    latencies.record("recent", 10);
    assertNotNull(latencies.get("restarted-on-an-old-port"), "only a new node's arrival forgets");
    latencies.record("restarted-on-a-new-port", 10);
    assertNull(latencies.get("restarted-on-an-old-port"));
    assertEquals(2, latencies.size());
  }
}
