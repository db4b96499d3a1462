package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplaySetupTest
{
  @Test
  void theSetupsDifferOnlyInTheReplayQueue()
  {
    final Map<String, String> off = ReplaySetup.REPLAY_OFF.brokerProperties();
    final Map<String, String> on = ReplaySetup.REPLAY_ON.brokerProperties();
    assertEquals("0", off.get("druid.getafix.quality.replayQueueSize"), "0 replays nothing");
    assertEquals("64", on.get("druid.getafix.quality.replayQueueSize"));
    assertEquals("0.5", on.get("druid.getafix.quality.matureSampleRate"));
    assertEquals("1", on.get("druid.getafix.quality.maxMatureRuns"));
    assertEquals("0", on.get("druid.getafix.quality.replayIdleQueries"));
    assertEquals(off.keySet(), on.keySet());
    off.keySet().stream()
       .filter(key -> !key.endsWith("replayQueueSize"))
       .forEach(key -> assertEquals(off.get(key), on.get(key), key));
  }

  @Test
  void aSampleSkippedAtTheStartOfABusyPhaseOutlivesItAndTheQuietPhaseAfter()
  {
    final Duration expiration = Duration.parse(ReplaySetup.REPLAY_EXPIRATION);
    for (boolean quick : new boolean[]{false, true}) {
      final BusyQuietCycles cycles = BusyQuietCycles.standard(quick);
      assertTrue(expiration.compareTo(cycles.busy().plus(cycles.quiet())) > 0, cycles.toString());
    }
  }
}
