package org.getafix.core.routing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdaptivePolicyTest
{
  private static final Duration FRESH = Duration.ofSeconds(1);
  private static final Duration DECAY = Duration.ofSeconds(2);

  private final FakeClock clock = new FakeClock();
  private final NodeFeedback feedback = new NodeFeedback();

  private AdaptivePolicy policy(Duration fresh)
  {
    return policy(feedback, fresh);
  }

  private AdaptivePolicy policy(NodeFeedback stats, Duration fresh)
  {
    return new AdaptivePolicy(stats, fresh.toNanos(), DECAY.toNanos(), clock, new Random(5));
  }

  @Test
  void prefersTheFasterNodeAtEqualLoad()
  {
    final AdaptivePolicy adaptive = policy(FRESH);
    feedback.recordLatency("fast", 10, clock.getAsLong());
    feedback.recordLatency("slow", 100, clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("slow", 0).add("fast", 0);
    assertEquals(1, adaptive.pick(view));
  }

  @Test
  void queueingOutweighsLatencyOnceANodeBacksUp()
  {
    final AdaptivePolicy adaptive = policy(FRESH);
    feedback.recordLatency("fast", 10, clock.getAsLong());
    feedback.recordLatency("slow", 30, clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("slow", 0).add("fast", 1);
    // fast: (1 + 1)³ × 10 = 80 > slow: 1³ × 30.
    assertEquals(0, adaptive.pick(view));
    // A reported queue counts like outstanding requests: slow (1 + 2)³ × 30 = 810 > fast 80.
    feedback.reportQueue("slow", 2, clock.getAsLong());
    assertEquals(1, adaptive.pick(view));
  }

  @Test
  void nodesWithoutStatisticsCountAsAverage()
  {
    final AdaptivePolicy adaptive = policy(FRESH);
    feedback.recordLatency("a", 10, clock.getAsLong());
    feedback.recordLatency("b", 50, clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("b", 0).add("new", 0).add("a", 0);
    // new = mean 30: worse than a, better than b.
    assertEquals(2, adaptive.pick(view));
    view.setInFlight(2, 1);
    assertEquals(1, adaptive.pick(view), "a at (1+1)³ × 10 = 80 loses to the unknown node at 30");
  }

  /**
   * A sequential workload: one request every 20 ms, so fast nodes (10 ms) are idle at each arrival and only
   * latency separates the holders. The slow node (100 ms) must be avoided, yet probed again whenever its one bad
   * measurement has decayed, which the same policy without decay never does.
   */
  @Test
  void avoidsASlowNodeButKeepsProbingItAfterItsStatsDecay()
  {
    final NodeFeedback decaying = new NodeFeedback();
    final int[] withDecay = simulate(policy(decaying, FRESH), decaying);
    final int total = withDecay[0] + withDecay[1] + withDecay[2];
    assertTrue(withDecay[2] < total * 0.05, "slow node got " + withDecay[2] + " of " + total);
    // Probes after the warm-up: at least one in every 4 s window (fresh 1 s + decay 2 s < 4 s).
    for (int window = 1; window < 8; window++) {
      assertTrue(withDecay[3 + window] > 0, "no probe of the slow node in window " + window);
    }

    final NodeFeedback permanent = new NodeFeedback();
    final int[] withoutDecay = simulate(policy(permanent, Duration.ofHours(1)), permanent);
    assertTrue(withoutDecay[2] > 0, "the cold start tries every node once its peers are measured");
    int laterProbes = 0;
    for (int window = 1; window < 8; window++) {
      laterProbes += withoutDecay[3 + window];
    }
    assertEquals(0, laterProbes, "without decay the first bad measurement exiles the slow node");
  }

  /** @return picks of fast1, fast2, slow, then picks of slow per 4 s window */
  private int[] simulate(AdaptivePolicy adaptive, NodeFeedback stats)
  {
    final String[] nodes = {"fast1", "fast2", "slow"};
    final double[] latency = {10, 10, 100};
    final ArrayCandidateView view = new ArrayCandidateView().reset("s");
    for (String node : nodes) {
      view.add(node, 0);
    }
    final int[] result = new int[3 + 8];
    final long start = clock.getAsLong();
    for (int request = 0; request < 1600; request++) {
      final int pick = adaptive.pick(view);
      result[pick]++;
      if (pick == 2) {
        result[3 + (int) ((clock.getAsLong() - start) / Duration.ofSeconds(4).toNanos())]++;
      }
      // The response arrives before the next request; the Broker records its time on completion.
      stats.recordLatency(nodes[pick], latency[pick], clock.getAsLong());
      clock.advance(Duration.ofMillis(20));
    }
    return result;
  }

  /** With every statistic fresh, the pick is the argmin of (1 + outstanding + queue)³ × max(latency, 1 ms). */
  @Test
  void freshStatisticsRankExactlyByTheFormula()
  {
    final Random random = new Random(11);
    for (int trial = 0; trial < 500; trial++) {
      final NodeFeedback stats = new NodeFeedback();
      final AdaptivePolicy adaptive = policy(stats, FRESH);
      final ArrayCandidateView view = new ArrayCandidateView().reset("s");
      final int size = 2 + random.nextInt(6);
      int expected = -1;
      double expectedRank = Double.POSITIVE_INFINITY;
      for (int i = 0; i < size; i++) {
        final String node = "n" + i;
        final double latency = random.nextDouble() * 100;
        final double queue = random.nextInt(4) + random.nextDouble();
        final int inFlight = random.nextInt(4);
        stats.recordLatency(node, latency, clock.getAsLong());
        stats.reportQueue(node, queue, clock.getAsLong());
        view.add(node, inFlight);
        final double qHat = 1 + inFlight + queue;
        final double rank = qHat * qHat * qHat * Math.max(latency, 1.0);
        if (rank < expectedRank) {
          expected = i;
          expectedRank = rank;
        }
      }
      assertEquals(expected, adaptive.pick(view), "trial " + trial);
    }
  }
}
