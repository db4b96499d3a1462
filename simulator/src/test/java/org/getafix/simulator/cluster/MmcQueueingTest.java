package org.getafix.simulator.cluster;

import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.workload.QueryType;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Honesty check of the latency model: one Historical fed Poisson arrivals with exponential service is an M/M/c
 * queue, so the engine's mean wait must match the Erlang-C formula.
 */
class MmcQueueingTest
{
  @Test
  void singleCoreMatchesMm1()
  {
    assertMatchesErlangC(1, 0.7, 1.0, 400_000, 1);
  }

  @Test
  void fourCoresMatchErlangC()
  {
    assertMatchesErlangC(4, 3.2, 1.0, 400_000, 2);
  }

  @Test
  void sixteenCoresAtHighLoadMatchErlangC()
  {
    assertMatchesErlangC(16, 14.0, 1.0, 400_000, 3);
  }

  @Test
  void speedFactorScalesTheServiceRate()
  {
    // Work with mean 1 on a node of speed 2 is service rate 2 per core.
    assertEquals(
        erlangCMeanWait(2, 3.0, 2.0),
        simulatedMeanWait(2, 3.0, 1.0, 2.0, 400_000, 4),
        0.05 * erlangCMeanWait(2, 3.0, 2.0)
    );
  }

  private static void assertMatchesErlangC(int cores, double lambda, double mu, int tasks, long seed)
  {
    final double expected = erlangCMeanWait(cores, lambda, mu);
    final double simulated = simulatedMeanWait(cores, lambda, mu, 1.0, tasks, seed);
    assertTrue(expected > 0.05 / mu, "the test load must make waiting non-trivial");
    assertEquals(expected, simulated, 0.05 * expected, "M/M/" + cores + " mean wait vs Erlang C");
  }

  /** Runs {@code tasks} Poisson arrivals through one Historical; returns the mean time spent queued. */
  private static double simulatedMeanWait(int cores, double lambda, double mu, double speed, int tasks, long seed)
  {
    final EventLoop loop = new EventLoop();
    final Historical node = new Historical(loop, 0, "n", cores, speed, null, (t, s) -> {
    });
    final SplittableRandom random = new SplittableRandom(seed);
    final Segment segment = new Segment(0, "s", 1);
    final QueryType type = new QueryType("q", 1, 1, 0);
    double t = 0;
    for (int i = 0; i < tasks; i++) {
      t += -Math.log(1 - random.nextDouble()) / lambda;
      final double work = -Math.log(1 - random.nextDouble()) / mu;
      final double at = t;
      loop.schedule(at, () -> node.submit(new Task(new Query(0, type, at), segment, 0, work, 0, at)));
    }
    loop.runToCompletion();
    assertEquals(tasks, node.tasksStarted());
    return node.meanWaitSeconds();
  }

  /** Erlang C: mean wait in queue of an M/M/c queue with arrival rate λ and per-server service rate μ. */
  static double erlangCMeanWait(int c, double lambda, double mu)
  {
    final double a = lambda / mu;
    final double rho = a / c;
    double term = 1;
    double sum = 0;
    for (int k = 0; k < c; k++) {
      sum += term;
      term *= a / (k + 1);
    }
    // term is now a^c / c!
    final double waiting = term / (1 - rho);
    final double pWait = waiting / (sum + waiting);
    return pWait / (c * mu - lambda);
  }

  @Test
  void erlangCFormulaReducesToMm1()
  {
    // M/M/1: Wq = ρ / (μ − λ).
    assertEquals(0.7 / 0.3, erlangCMeanWait(1, 0.7, 1.0), 1e-12);
  }
}
