package org.getafix.druid.historical;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StallMeterTest
{
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Test
  void countsOnlyWakeUpsLaterThanAPauseAndAllOfTheirDelay()
  {
    final StallMeter meter = new StallMeter();
    final long pause = StallMeter.PAUSE_MILLIS * MS;
    meter.record(3 * MS, pause);
    meter.record(75 * MS, pause);
    meter.record(pause, pause);
    assertEquals(0, meter.stalledMillis(), "jitter, and a quarter-core quota's throttling, are no stall");
    meter.record(98 * MS, pause);
    meter.record(1500 * MS, pause);
    assertEquals(1598, meter.stalledMillis());
  }

  @Test
  void measuresOnADaemonThreadThatStopEnds() throws Exception
  {
    final StallMeter meter = new StallMeter();
    meter.start();
    try {
      final Thread ticker = findThread("getafix-stall-meter");
      assertTrue(ticker.isDaemon(), "a daemon, so that it never holds a Historical's JVM up");
      assertTrue(ticker.isAlive());
    }
    finally {
      meter.stop();
    }
    final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (findThreadOrNull("getafix-stall-meter") != null && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(null, findThreadOrNull("getafix-stall-meter"), "stop() ends the thread");
  }

  private static Thread findThread(String name)
  {
    final Thread t = findThreadOrNull(name);
    if (t == null) {
      throw new AssertionError("no thread named " + name);
    }
    return t;
  }

  private static Thread findThreadOrNull(String name)
  {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (name.equals(t.getName())) {
        return t;
      }
    }
    return null;
  }
}
