package org.getafix.simulator.cluster;

import org.getafix.core.placement.capacity.MeasuredRound;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.workload.QueryType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A cancelled task frees its core at once (running) or leaves the queue (queued), and never reports done. */
class HistoricalCancelTest
{
  @Test
  void cancellingFreesTheCoreAndTheQueue()
  {
    final EventLoop loop = new EventLoop();
    final List<Task> done = new ArrayList<>();
    final List<Double> doneAt = new ArrayList<>();
    final Historical node = new Historical(loop, 0, "n", 1, 1.0, null, (t, s) -> {
      done.add(t);
      doneAt.add(loop.now());
    });
    final Segment segment = new Segment(0, "s", 1);
    final Query query = new Query(0, new QueryType("q", 1, 1, 0), 0);
    final Task running = new Task(query, segment, 0, 10, 0, 0);
    final Task queued = new Task(query, segment, 0, 10, 0, 0);
    final Task next = new Task(query, segment, 0, 1, 0, 0);
    loop.schedule(0, () -> {
      node.submit(running);
      node.submit(queued);
      node.submit(next);
    });
    loop.schedule(2, () -> {
      // The queued one first, so that it leaves the queue rather than taking the core the running one frees.
      assertTrue(node.cancel(queued));
      assertTrue(node.cancel(running));
      assertFalse(node.cancel(queued), "a task is cancelled once");
    });
    loop.runToCompletion();
    // The next task starts when the running one is cancelled at t = 2, not when it would have finished at 10.
    assertEquals(List.of(next), done);
    assertEquals(3.0, doneAt.get(0), 1e-9);
    // The cancelled scan burnt 2 CPU-seconds in 2 s on its core, the finished one 1 in 1 s: both are reported scans.
    final MeasuredRound.NodeCounters measured = node.takeRoundStats(3.0).measured();
    assertEquals(3_000_000, measured.cpuTimeMicros());
    assertEquals(Map.of("s", new MeasuredRound.ScanCounters(3000, 2)), measured.segments());
    assertEquals(0, node.queuedTasks());
  }
}
