package org.getafix.core.quality.sampling;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayQueueTest
{
  private static final long WINDOW = 60_000;

  private static ReplayQueue<String> queue(int capacity)
  {
    return new ReplayQueue<>(capacity, new ReplaySchedule(WINDOW, 0));
  }

  /** Online queries arrive every {@code gap} ms from 0 to {@code until}. */
  private static void arrivals(ReplayQueue<String> queue, long gap, long until)
  {
    for (long t = 0; t <= until; t += gap) {
      queue.arrived(t);
    }
  }

  private static void assertStep(ReplaySchedule.Decision decision, String item, ReplayQueue.Step<String> step)
  {
    assertStep(decision, item, step, "");
  }

  private static void assertStep(
      ReplaySchedule.Decision decision,
      String item,
      ReplayQueue.Step<String> step,
      String why
  )
  {
    assertEquals(decision, step.decision(), why + " " + step);
    assertEquals(item, step.item(), why + " " + step);
  }

  @Test
  void aFullQueueDropsItsOldestForTheNewcomer()
  {
    final ReplayQueue<String> queue = queue(2);
    assertEquals(Optional.empty(), queue.offer("a", 0));
    assertEquals(Optional.empty(), queue.offer("b", 10));
    assertEquals(Optional.of("a"), queue.offer("c", 20), "the oldest makes room");
    assertEquals(2, queue.size());
    arrivals(queue, 1_000, 10_000);
    assertStep(ReplaySchedule.Decision.RUN, "b", queue.next(10_000, 0, true));
    assertStep(ReplaySchedule.Decision.RUN, "c", queue.next(10_000, 0, true));
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(10_000, 0, true));
  }

  @Test
  void replaysRunOnlyWhileTheFrontEndIsIdle()
  {
    final ReplayQueue<String> queue = queue(10);
    // Queries every 50 ms; a query answered whole takes 200 ms.
    arrivals(queue, 50, 5_000);
    queue.answeredWhole(200);
    queue.offer("a", 5_000);
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(5_000, 3, true));
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(5_000, 0, true), "idle, but the next query is due");
    assertEquals(1, queue.size(), "waiting leaves the entry queued");
    // The queries stop: the gap open since the last one (300 ms) outgrows the replay time.
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(5_150, 0, true));
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(5_300, 1, true), "one query still outstanding");
    assertStep(ReplaySchedule.Decision.RUN, "a", queue.next(5_300, 0, true));
    assertEquals(0, queue.size());
  }

  @Test
  void aDueReplayWaitsForRoomAmongTheMatureRuns()
  {
    final ReplayQueue<String> queue = queue(10);
    queue.arrived(0);
    queue.offer("a", 0);
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(10_000, 0, false));
    assertStep(ReplaySchedule.Decision.RUN, "a", queue.next(10_000, 0, true));
  }

  @Test
  void expiredEntriesAreDroppedOldestFirstIdleOrNot()
  {
    final ReplayQueue<String> queue = queue(10);
    arrivals(queue, 50, 100_000);
    queue.offer("a", 1_000);
    queue.offer("b", 2_000);
    queue.offer("c", 50_000);
    final long now = 2_000 + WINDOW;
    assertStep(ReplaySchedule.Decision.DROP, "a", queue.next(now, 5, false));
    assertStep(ReplaySchedule.Decision.DROP, "b", queue.next(now, 5, false));
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(now, 5, false), "c has 48 s left");
    assertEquals(1, queue.size());
  }

  @Test
  void aQueueThatWouldOutlastItsWindowRunsWhileBusy()
  {
    final ReplayQueue<String> queue = queue(10);
    arrivals(queue, 10, 100_000);
    queue.answeredWhole(10_000);
    queue.offer("a", 50_000);
    queue.offer("b", 50_000);
    // Two replays of 10 s each need 20 s; at 100 s, 10 s of the window remain.
    assertStep(ReplaySchedule.Decision.WAIT, null, queue.next(85_000, 8, true), "25 s left");
    assertStep(ReplaySchedule.Decision.RUN, "a", queue.next(100_000, 8, true));
    assertStep(ReplaySchedule.Decision.RUN, "b", queue.next(100_000, 9, true), "one 10 s replay, 10 s left");
  }

  @Test
  void theMeansFollowTheLatestArrivalsAndAnswers()
  {
    final ReplayQueue<String> queue = queue(1);
    assertTrue(Double.isNaN(queue.meanInterArrivalMillis(0)), "no arrival yet");
    assertTrue(Double.isNaN(queue.meanReplayMillis()));
    queue.arrived(1_000);
    assertEquals(0, queue.meanInterArrivalMillis(1_000), 1e-9, "one arrival: the gap open since");
    assertEquals(500, queue.meanInterArrivalMillis(1_500), 1e-9);
    arrivals(queue, 100, 100_000);
    assertEquals(100, queue.meanInterArrivalMillis(100_000), 1, "every 100 ms");
    assertEquals(2_000, queue.meanInterArrivalMillis(102_000), 1e-9, "silence since outgrows the mean");
    queue.arrived(50);
    assertEquals(100, queue.meanInterArrivalMillis(100_000), 1, "an arrival read out of order is no gap");
    queue.answeredWhole(1_000);
    queue.answeredWhole(Double.NaN);
    queue.answeredWhole(-5);
    assertEquals(1_000, queue.meanReplayMillis(), 1e-9, "garbage is ignored");
    queue.answeredWhole(2_000);
    assertEquals(1_000 + ReplayQueue.ALPHA * 1_000, queue.meanReplayMillis(), 1e-9);
  }

  @Test
  void badSettingsAreRefused()
  {
    assertThrows(IllegalArgumentException.class, () -> queue(0));
    assertThrows(NullPointerException.class, () -> new ReplayQueue<String>(1, null));
    assertThrows(NullPointerException.class, () -> queue(1).offer(null, 0));
    assertNull(queue(1).next(0, 0, true).item(), "an empty queue waits");
  }
}
