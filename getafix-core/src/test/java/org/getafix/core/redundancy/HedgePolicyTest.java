package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HedgePolicyTest
{
  private static final double NO_DEADLINE = Double.NaN;

  private final AtomicLong clock = new AtomicLong(5_000_000_000L);
  private final NodeLatencies latencies = new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, clock::get);
  private final RaceLosses losses = new RaceLosses(new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, clock::get), 5);
  private final HedgePolicy policy = new HedgePolicy(HedgeSettings.DEFAULTS, latencies, losses);

  /** A record of race losses no node has lost to. */
  private static RaceLosses noLosses()
  {
    return new RaceLosses(new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, System::nanoTime), RaceLosses.MIN_SAMPLES);
  }

  /**
   * "s" lost its last races, each recorded at the few ms it ran until its hedge won: its latencies read faster than
   * "b"'s, yet "b" takes the hedge, and "s"'s low p95 does not bring "a"'s hedge point forward.
   */
  @Test
  void aNodeThatLosesMostOfItsRacesIsTheLastHedgeTargetAndNoYardstick()
  {
    for (int i = 0; i < HedgeSettings.DEFAULTS.minSamples(); i++) {
      latencies.record("a", 200);
      latencies.record("b", 100);
      latencies.record("s", 20);
      losses.record("s", true);
      losses.record("b", false);
    }
    assertEquals(Map.of("b", List.of("x")), policy.reassign("a", List.of("x"), segment -> List.of("a", "s", "b")));
    assertEquals(Map.of("s", List.of("y")), policy.reassign("a", List.of("y"), segment -> List.of("a", "s")),
                 "the only other holder is still a target");
    assertEquals(200, policy.hedgeAfterMillis("a", List.of("s"), NO_DEADLINE), 2, "a's own p95, not s's 20 ms");
    assertEquals(100, policy.hedgeAfterMillis("a", List.of("s", "b"), NO_DEADLINE), 1, "b's p95 against a's");
  }

  /** Records 1..100 ms, {@code scale} times each, for {@code node}. */
  private void uniform(String node, double scale)
  {
    for (int round = 0; round < 2; round++) {
      for (int ms = 1; ms <= 100; ms++) {
        latencies.record(node, ms * scale);
      }
    }
  }

  private void constant(String node, double millis, int samples)
  {
    for (int i = 0; i < samples; i++) {
      latencies.record(node, millis);
    }
  }

  @Test
  void hedgePointIsTheEarlierOfTheNodesAndItsBestAlternativesP95()
  {
    uniform("a", 1);
    uniform("b", 2);
    assertEquals(95, policy.hedgeAfterMillis("a", List.of("a", "b"), NO_DEADLINE), 1.5, "a's own p95 comes first");
    // The node slows down tenfold; once its window has moved on, its own p95 is 950 ms, but it is late once it has
    // taken longer than most of b's answers.
    clock.addAndGet(Duration.ofSeconds(31).toNanos());
    uniform("a", 10);
    uniform("b", 2);
    assertEquals(190, policy.hedgeAfterMillis("a", List.of("b"), NO_DEADLINE), 3);
    assertEquals(190, policy.hedgeAfterMillis("b", List.of("a"), NO_DEADLINE), 3, "b's own p95 comes first");
  }

  @Test
  void hedgePointIsCappedByTheRemainingBudget()
  {
    uniform("a", 1);
    uniform("b", 2);
    constant("c", 300, 50);
    // The best alternative, b, answers in 101 ms on average: hedge no later than that before the deadline.
    assertEquals(49, policy.hedgeAfterMillis("a", List.of("c", "b"), 150), 1e-9);
    assertEquals(95, policy.hedgeAfterMillis("a", List.of("c", "b"), 500), 1.5);
    assertEquals(0, policy.hedgeAfterMillis("a", List.of("b"), 101), 1e-9);
    assertEquals(HedgePolicy.NO_HEDGE, policy.hedgeAfterMillis("a", List.of("b"), 90), "no alternative can make it");
    assertEquals(HedgePolicy.NO_HEDGE, policy.hedgeAfterMillis("a", List.of("b"), -1), "deadline passed");
  }

  @Test
  void anAlternativeIsExpectedToTakeItsRecentMean()
  {
    constant("b", 10, 50);
    constant("sparse", 1, 5);
    assertEquals(10, policy.expectedMillis("b"), 1e-9);
    assertEquals(HedgeSettings.DEFAULTS.unknownLatencyMillis(), policy.expectedMillis("sparse"));
    assertEquals(HedgeSettings.DEFAULTS.unknownLatencyMillis(), policy.expectedMillis("never-seen"));
  }

  @Test
  void noHedgeWithoutAnotherHolder()
  {
    uniform("a", 1);
    assertEquals(HedgePolicy.NO_HEDGE, policy.hedgeAfterMillis("a", List.of(), NO_DEADLINE));
    assertEquals(HedgePolicy.NO_HEDGE, policy.hedgeAfterMillis("a", Arrays.asList("a", null), NO_DEADLINE));
    assertEquals(HedgePolicy.NO_HEDGE, policy.hedgeAfterMillis("a", null, NO_DEADLINE));
  }

  @Test
  void unknownAndIdleNodesAreNotHedgedAtOnce()
  {
    constant("sparse", 1, 5);
    constant("idle", 0.1, 200);
    uniform("busy", 10);
    final HedgeSettings defaults = HedgeSettings.DEFAULTS;
    // Too few samples count as the unknown-node latency, for the node and for its alternative.
    assertEquals(defaults.unknownLatencyMillis(), policy.hedgeAfterMillis("sparse", List.of("busy"), NO_DEADLINE));
    assertEquals(defaults.unknownLatencyMillis(), policy.hedgeAfterMillis("busy", List.of("never-seen"), NO_DEADLINE));
    // An idle-fast node, or one whose alternative is idle-fast, waits the minimum delay.
    assertEquals(defaults.minDelayMillis(), policy.hedgeAfterMillis("idle", List.of("sparse"), NO_DEADLINE));
    assertEquals(defaults.minDelayMillis(), policy.hedgeAfterMillis("never-seen", List.of("idle"), NO_DEADLINE));
    // A sparse alternative is expected to take the unknown-node latency.
    assertEquals(150 - defaults.unknownLatencyMillis(), policy.hedgeAfterMillis("never-seen", List.of("sparse"), 150));
  }

  /**
   * Sub-queries to three nodes, one per simulated millisecond; a sub-query wants a hedge when its latency passes
   * the hedge point, and gets one if the budget allows. Returns {hedges, of which to "slow"}.
   */
  private static long[] run(HedgeSettings settings, double slowMean, double remainingBudget, int subQueries)
  {
    final AtomicLong clock = new AtomicLong();
    final NodeLatencies latencies = new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, clock::get);
    final HedgePolicy policy = new HedgePolicy(settings, latencies, noLosses());
    final Random random = new Random(7);
    final List<String> nodes = List.of("fast1", "fast2", "slow");
    long hedges = 0;
    long slowHedges = 0;
    for (int i = 0; i < subQueries; i++) {
      final String node = nodes.get(i % 3);
      final double mean = node.equals("slow") ? slowMean : 20;
      final double latency = -mean * Math.log(1 - random.nextDouble());
      policy.onPrimary();
      if (latency > policy.hedgeAfterMillis(node, nodes, remainingBudget) && policy.tryHedge()) {
        hedges++;
        if (node.equals("slow")) {
          slowHedges++;
        }
      }
      latencies.record(node, latency);
      clock.addAndGet(1_000_000);
    }
    return new long[]{hedges, slowHedges};
  }

  @Test
  void budgetHoldsHedgesToTheirShareWithNoSlowNode()
  {
    final int subQueries = 6_000;
    final long hedges = run(HedgeSettings.DEFAULTS, 20, NO_DEADLINE, subQueries)[0];
    final double cap = 0.05 * subQueries + HedgeSettings.DEFAULTS.maxTokens();
    assertTrue(hedges > 0 && hedges <= cap, "hedges " + hedges);
    // Hedging at the p80 wants about 20% extra sub-queries; the budget lets 5% through.
    final HedgeSettings eager = new HedgeSettings(0.8, 10, 100, 20, 0.05, 10);
    final long eagerHedges = run(eager, 20, NO_DEADLINE, subQueries)[0];
    assertTrue(eagerHedges <= cap && eagerHedges >= 0.049 * subQueries, "hedges " + eagerHedges);
  }

  @Test
  void budgetLetsHedgesGoToASlowNode()
  {
    final int subQueries = 6_000;
    // The slow node's own p95 is over a second; the 250 ms budget hedges it at 230 ms, where over half are late.
    final long[] hedges = run(HedgeSettings.DEFAULTS, 400, 250, subQueries);
    assertTrue(hedges[0] >= 0.049 * subQueries, "the budget is used: " + hedges[0]);
    assertTrue(hedges[1] > 0.75 * hedges[0], "mostly for the slow node: " + hedges[1] + " of " + hedges[0]);
  }

  @Test
  void budgetStartsFullAndRefillsPerPrimary()
  {
    final HedgeBudget budget = new HedgeBudget(0.05, 2);
    assertTrue(budget.tryAcquire());
    assertTrue(budget.tryAcquire());
    assertFalse(budget.tryAcquire());
    for (int i = 0; i < 19; i++) {
      budget.onPrimary();
    }
    assertFalse(budget.tryAcquire(), "19 primaries earn 0.95 of a token");
    budget.onPrimary();
    assertTrue(budget.tryAcquire());
    for (int i = 0; i < 1000; i++) {
      budget.onPrimary();
    }
    assertEquals(2, budget.tokens(), 1e-9, "capped at maxTokens");
  }

  @Test
  void aHedgeThatWinsHandsItsTokenBack()
  {
    final HedgeBudget budget = new HedgeBudget(0.05, 2);
    assertTrue(budget.tryAcquire());
    assertTrue(budget.tryAcquire());
    assertFalse(budget.tryAcquire(), "both tokens out");
    budget.onHedgeWon();
    assertTrue(budget.tryAcquire(), "the winner's token is back");
    budget.onHedgeWon();
    budget.onHedgeWon();
    budget.onHedgeWon();
    assertEquals(2, budget.tokens(), 1e-9, "capped at maxTokens");
  }

  /**
   * Behind a node that stays slow, hedges win and replace their primaries: the budget caps the hedges that lose (work
   * done twice), not the number of sub-queries that may dodge the slow node.
   */
  @Test
  void winningHedgesAreNotCappedByTheBudget()
  {
    final HedgePolicy policy = new HedgePolicy(HedgeSettings.DEFAULTS, new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, System::nanoTime), noLosses());
    int hedges = 0;
    for (int i = 0; i < 1_000; i++) {
      policy.onPrimary();
      if (policy.tryHedge()) {
        hedges++;
        policy.onHedgeWon();
      }
    }
    assertEquals(1_000, hedges, "every late primary hedged while its hedges win");

    final HedgePolicy losing = new HedgePolicy(HedgeSettings.DEFAULTS, new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, System::nanoTime), noLosses());
    int lost = 0;
    for (int i = 0; i < 1_000; i++) {
      losing.onPrimary();
      if (losing.tryHedge()) {
        lost++;
      }
    }
    assertTrue(lost <= 0.05 * 1_000 + HedgeSettings.DEFAULTS.maxTokens(), "losing hedges stay within the ratio: " + lost);
  }

  @Test
  void budgetHoldsUnderConcurrentQueryThreads() throws InterruptedException
  {
    final HedgeBudget budget = new HedgeBudget(0.05, 10);
    final AtomicLong hedges = new AtomicLong();
    final Runnable queries = () -> {
      for (int i = 0; i < 20_000; i++) {
        budget.onPrimary();
        if (budget.tryAcquire()) {
          hedges.incrementAndGet();
        }
      }
    };
    final Thread other = new Thread(queries);
    other.start();
    queries.run();
    other.join();
    // Every token is spent as soon as it is whole: the initial 10 plus 5% of 40,000, none doubled, at most one
    // unspent (and the share earned while the bucket was still full).
    assertTrue(hedges.get() >= 10 + 1998 && hedges.get() <= 10 + 2000, "hedges " + hedges.get());
  }

  @Test
  void eachLateSegmentGoesToItsFastestOtherHolder()
  {
    constant("a", 5, 50);
    constant("b", 10, 50);
    constant("c", 30, 50);
    final Map<String, List<String>> holders = Map.of(
        "s1", List.of("a", "b", "c"),
        "s2", List.of("c", "a"),
        "s3", List.of("b", "c"),
        "s4", Arrays.asList("c", null)
    );
    // a is late: s1 and s3 go to b, s2 and s4 to c; the late node is never chosen, however fast it was.
    assertEquals(
        Map.of("b", List.of("s1", "s3"), "c", List.of("s2", "s4")),
        policy.reassign("a", List.of("s1", "s2", "s3", "s4"), holders::get)
    );
    assertEquals(List.of("b", "c"), List.copyOf(policy.reassign("a", List.of("s1", "s2"), holders::get).keySet()));
    // A node with too few samples is expected at the unknown-node latency (100 ms), slower than c.
    assertEquals(Map.of("c", List.of("s1")), policy.reassign("b", List.of("s1"), s -> List.of("d", "c", "b")));
    // On a tie the first holder listed wins.
    assertEquals(Map.of("d", List.of("s1")), policy.reassign("a", List.of("s1"), s -> List.of("d", "e")));
  }

  @Test
  void nothingIsReassignedWhenASegmentHasNoOtherHolder()
  {
    final Map<String, List<String>> holders = Map.of("s1", List.of("a", "b"), "s2", List.of("a"));
    assertTrue(policy.reassign("a", List.of("s1", "s2"), holders::get).isEmpty());
    assertTrue(policy.reassign("a", List.of("s1"), s -> null).isEmpty());
    assertTrue(policy.reassign("a", List.of(), holders::get).isEmpty());
    assertEquals(Map.of("b", List.of("s1")), policy.reassign("a", List.of("s1"), holders::get));
  }

  @Test
  void whereAPartAnswerWillDoTheSegmentsOnlyTheLateNodeHoldsStayWithIt()
  {
    final Map<String, List<String>> holders = Map.of("s1", List.of("a", "b"), "s2", List.of("a"), "s3", List.of("c", "a"));
    final HedgePolicy.Reassignment<String> reassignment =
        policy.reassignWherePossible("a", List.of("s1", "s2", "s3"), holders::get);
    assertEquals(Map.of("b", List.of("s1"), "c", List.of("s3")), reassignment.byHolder());
    assertEquals(List.of("s2"), reassignment.stranded());
    final HedgePolicy.Reassignment<String> none = policy.reassignWherePossible("a", List.of("s2"), holders::get);
    assertTrue(none.byHolder().isEmpty());
    assertEquals(List.of("s2"), none.stranded());
  }

  /**
   * "s" was cut at its last deadlines: under a deadline, a late sub-query of "a" sends nothing to it, and what only "a"
   * and "s" hold stays with "a"; with no deadline "s" is still a target, as the only other holder.
   */
  @Test
  void underADeadlineAHolderThatMissesItsDeadlinesIsNoTarget()
  {
    final DeadlineShares deadlines = new DeadlineShares(new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, clock::get), 5);
    for (int i = 0; i < 5; i++) {
      deadlines.record("s", 900, 900);
      deadlines.record("b", 300, 900);
    }
    deadlines.record("c", 900, 900);
    final Map<String, List<String>> holders = Map.of(
        "s1", List.of("a", "s"),
        "s2", List.of("a", "s", "b"),
        "s3", List.of("a", "c")
    );
    final HedgePolicy.Reassignment<String> reassignment =
        policy.reassignBeforeDeadline("a", List.of("s1", "s2", "s3"), holders::get, deadlines, 1_000);
    assertEquals(Map.of("b", List.of("s2"), "c", List.of("s3")), reassignment.byHolder(), "c's share is not known yet");
    assertEquals(List.of("s1"), reassignment.stranded());
    assertEquals(Map.of("s", List.of("s1")), policy.reassign("a", List.of("s1"), holders::get));
    assertTrue(policy.reassignBeforeDeadline("a", List.of("s1"), s -> null, deadlines, 1_000).byHolder().isEmpty());
  }

  /**
   * "s" answers its sub-queries, but in 1.5 s on average (the time it had to no deadline): under a deadline 1 s away a
   * late sub-query of "a" sends nothing to it, though its deadline share is not known; 2 s away, "s" is a target again.
   */
  @Test
  void underADeadlineAHolderExpectedToTakeLongerThanTheTimeLeftIsNoTarget()
  {
    final DeadlineShares deadlines = new DeadlineShares(new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, clock::get), 5);
    for (int i = 0; i < HedgeSettings.DEFAULTS.minSamples(); i++) {
      latencies.record("s", 1_500);
      latencies.record("b", 50);
    }
    final Map<String, List<String>> holders = Map.of("s1", List.of("a", "s"), "s2", List.of("a", "s", "b"));
    final HedgePolicy.Reassignment<String> reassignment =
        policy.reassignBeforeDeadline("a", List.of("s1", "s2"), holders::get, deadlines, 1_000);
    assertEquals(Map.of("b", List.of("s2")), reassignment.byHolder());
    assertEquals(List.of("s1"), reassignment.stranded());
    assertEquals(
        Map.of("s", List.of("s1"), "b", List.of("s2")),
        policy.reassignBeforeDeadline("a", List.of("s1", "s2"), holders::get, deadlines, 2_000).byHolder()
    );
  }

  @Test
  void settingsAreValidated()
  {
    assertThrows(IllegalArgumentException.class, () -> new HedgeSettings(1, 10, 100, 20, 0.05, 10));
    assertThrows(IllegalArgumentException.class, () -> new HedgeSettings(0.95, -1, 100, 20, 0.05, 10));
    assertThrows(IllegalArgumentException.class, () -> new HedgeSettings(0.95, 10, 0, 20, 0.05, 10));
    assertThrows(IllegalArgumentException.class, () -> new HedgeSettings(0.95, 10, 100, 0, 0.05, 10));
    assertThrows(IllegalArgumentException.class, () -> new HedgeSettings(0.95, 10, 100, 20, 0, 10));
    assertThrows(IllegalArgumentException.class, () -> new HedgeSettings(0.95, 10, 100, 20, 0.05, 0.5));
    assertThrows(IllegalArgumentException.class, () -> new HedgeSettings(Double.NaN, 10, 100, 20, 0.05, 10));
  }
}
