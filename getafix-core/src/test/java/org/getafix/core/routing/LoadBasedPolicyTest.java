package org.getafix.core.routing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LBR-CC and LBR-CC+ML. */
class LoadBasedPolicyTest
{
  private final FakeClock clock = new FakeClock();
  private final NodeFeedback feedback = new NodeFeedback();

  @Test
  void leastConnectionsPicksTheHolderWithFewestOutstandingRequests()
  {
    final LeastConnectionsPolicy lbr = new LeastConnectionsPolicy(new Random(1));
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("a", 4).add("b", 2).add("c", 3);
    for (int i = 0; i < 100; i++) {
      assertEquals(1, lbr.pick(view));
    }
    assertEquals(-1, lbr.pick(new ArrayCandidateView().reset("s")));
  }

  @Test
  void leastConnectionsBreaksTiesUniformly()
  {
    final LeastConnectionsPolicy lbr = new LeastConnectionsPolicy(new Random(2));
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("a", 1).add("b", 0).add("c", 5)
                                                          .add("d", 0).add("e", 0);
    final int[] picks = new int[view.size()];
    final int n = 30_000;
    for (int i = 0; i < n; i++) {
      picks[lbr.pick(view)]++;
    }
    assertEquals(0, picks[0] + picks[2], "only tied minima may be picked");
    for (int tied : new int[]{1, 3, 4}) {
      assertEquals(1.0 / 3, (double) picks[tied] / n, 0.02, "tie share of " + view.nodeId(tied));
    }
  }

  @Test
  void leastLoadAddsTheQueueTheNodeReported()
  {
    final LeastLoadPolicy ml = new LeastLoadPolicy(feedback, Duration.ofSeconds(10).toNanos(), clock, new Random(3));
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("a", 1).add("b", 2);
    // Without reports it is least connections.
    assertEquals(0, ml.pick(view));
    feedback.reportQueue("a", 4, clock.getAsLong());
    feedback.reportQueue("b", 1, clock.getAsLong());
    assertEquals(1, ml.pick(view), "1 + 4 queued at a outweighs 2 + 1 at b");
  }

  @Test
  void leastLoadIgnoresAQueueReportOlderThanTheBound()
  {
    final LeastLoadPolicy ml = new LeastLoadPolicy(feedback, Duration.ofSeconds(10).toNanos(), clock, new Random(4));
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("a", 1).add("b", 2);
    feedback.reportQueue("a", 100, clock.getAsLong());
    assertEquals(1, ml.pick(view));
    clock.advance(Duration.ofSeconds(11));
    assertEquals(0, ml.pick(view), "a stale report of a long queue must not exile the node");
  }

  @Test
  void feedbackIgnoresGarbageObservations()
  {
    feedback.recordLatency("a", Double.NaN, 0);
    feedback.recordLatency("a", -5, 0);
    feedback.reportQueue("a", Double.POSITIVE_INFINITY, 0);
    feedback.reportQueue(null, 1, 0);
    assertEquals(0, feedback.size());

    feedback.recordLatency("a", 10, 0);
    feedback.recordLatency("a", 20, 0);
    assertEquals(10 + NodeFeedback.DEFAULT_ALPHA * 10, feedback.get("a").latencyMillis(), 1e-9);
    assertTrue(Double.isNaN(feedback.get("a").queue()));
  }

  @Test
  void feedbackForgetsNodesThatWentSilent()
  {
    feedback.recordLatency("left", 10, 1_000);
    feedback.recordLatency("stays", 10, 1_000);
    feedback.reportQueue("stays", 1, 5_000);
    feedback.forgetSilentSince(2_000);
    assertEquals(1, feedback.size());
    assertTrue(feedback.get("left") == null && feedback.get("stays") != null);
  }
}
