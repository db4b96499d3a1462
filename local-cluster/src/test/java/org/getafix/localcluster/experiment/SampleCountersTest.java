package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleCountersTest
{
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The quality endpoint's counters as the Broker writes them, with fields the counters do not read. */
  static JsonNode state(long started, long skipped, long queued, long replayed, long expired) throws Exception
  {
    return MAPPER.readTree(String.format(
        "{\"budgetedQueries\": 99, \"matureRunsStarted\": %d, \"matureRunsCompleted\": 1, \"matureRunsSkipped\": %d,"
        + " \"replaysQueued\": %d, \"replaysUnneeded\": 2, \"replaysStarted\": %d, \"replaysCompleted\": %d,"
        + " \"replaysFailed\": 1, \"replaysDroppedByReason\": {\"full\": 3, \"expired\": %d}, \"replayQueue\": 4}",
        started, skipped, queued, replayed, replayed - 1, expired
    ));
  }

  @Test
  void theCountersAreReadByTheBrokersNames() throws Exception
  {
    final SampleCounters counters = SampleCounters.of(state(3, 20, 15, 9, 2));
    assertEquals(new SampleCounters(3, 20, 15, 2, 9, 8, 1, 3, 2), counters);
    assertEquals(23, counters.sampled(), "every sample started a mature run or was skipped");
    assertEquals(5, counters.replaysDropped(), "full and expired");
  }

  @Test
  void aPhaseCountsTheDifferenceAndPhasesAddUp() throws Exception
  {
    final SampleCounters before = SampleCounters.of(state(3, 20, 15, 9, 2));
    final SampleCounters after = SampleCounters.of(state(5, 30, 22, 16, 6));
    final SampleCounters phase = after.minus(before);
    assertEquals(new SampleCounters(2, 10, 7, 0, 7, 7, 0, 0, 4), phase);
    assertEquals(after, before.plus(phase));
    assertEquals(before, SampleCounters.ZERO.plus(before));
  }

  @Test
  void aStateWithoutTheCountersIsRefusedRatherThanReadAsNothingSampled() throws Exception
  {
    final IllegalArgumentException missing = assertThrows(
        IllegalArgumentException.class,
        () -> SampleCounters.of(MAPPER.readTree("{\"matureRunsStarted\": 1}"))
    );
    assertTrue(missing.getMessage().contains("matureRunsSkipped"), missing.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> SampleCounters.of(MAPPER.readTree(state(1, 1, 1, 1, 1).toString().replace("\"expired\"", "\"old\"")))
    );
  }
}
