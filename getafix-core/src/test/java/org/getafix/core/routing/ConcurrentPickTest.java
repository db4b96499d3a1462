package org.getafix.core.routing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many query threads pick through shared policy instances while a feedback thread installs tables and records
 * statistics, as on a Broker. Every pick must be a valid position, and the routing invariants must hold.
 */
class ConcurrentPickTest
{
  private static final int THREADS = 4;
  private static final int PICKS_PER_THREAD = 50_000;

  @Test
  void concurrentPicksStayValidWhileTablesAndStatsChange() throws Exception
  {
    final RoutingTableHolder tables = new RoutingTableHolder();
    final NodeFeedback feedback = new NodeFeedback();
    final RoutingCounters counters = new RoutingCounters();
    // Both alternating tables route only to a and b; c is also never the least loaded, so nothing may pick c.
    final RoutingTable t1 = RoutingTable.of(1, 0, Map.of("s0", Map.of("a", 0.7, "b", 0.3), "s1", Map.of("b", 1.0)));
    final RoutingTable t2 = RoutingTable.of(2, 0, Map.of("s0", Map.of("a", 0.2, "b", 0.8), "s1", Map.of("a", 1.0)));
    tables.install(t1, System.nanoTime());
    final List<RoutingPolicy> policies = List.of(
        AllocationBasedPolicy.withFallback(
            tables,
            new LeastConnectionsPolicy(RoutingRandom.threadLocal()),
            TimeUnit.MINUTES.toNanos(1),
            System::nanoTime,
            RoutingRandom.threadLocal(),
            counters
        ),
        new LeastConnectionsPolicy(RoutingRandom.threadLocal()),
        new LeastLoadPolicy(feedback, TimeUnit.MINUTES.toNanos(1), System::nanoTime, RoutingRandom.threadLocal()),
        new AdaptivePolicy(feedback, 0, TimeUnit.MINUTES.toNanos(1), System::nanoTime, RoutingRandom.threadLocal())
    );
    // Feedback keeps c looking worst for the load-aware policies.
    feedback.recordLatency("a", 5, System.nanoTime());
    feedback.recordLatency("b", 5, System.nanoTime());
    feedback.recordLatency("c", 500, System.nanoTime());

    final ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
    final AtomicBoolean done = new AtomicBoolean();
    final CountDownLatch start = new CountDownLatch(1);
    final AtomicLongArray picksPerNode = new AtomicLongArray(3);
    try {
      final Future<?> writer = pool.submit(() -> {
        long round = 0;
        while (!done.get()) {
          tables.install(++round % 2 == 0 ? t1 : t2, System.nanoTime());
          feedback.recordLatency("a", 4 + round % 3, System.nanoTime());
          feedback.recordLatency("b", 4 + round % 2, System.nanoTime());
          feedback.reportQueue("c", 50, System.nanoTime());
          feedback.reportQueue("a", round % 2, System.nanoTime());
          Thread.yield();
        }
      });
      final List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        readers.add(pool.submit(() -> {
          start.await();
          final ArrayCandidateView view = new ArrayCandidateView();
          final java.util.Random local = new java.util.Random();
          for (int i = 0; i < PICKS_PER_THREAD; i++) {
            view.reset("s" + (i & 1)).add("a", local.nextInt(3)).add("c", 10).add("b", local.nextInt(3));
            final RoutingPolicy policy = policies.get(i % policies.size());
            final int pick = policy.pick(view);
            assertTrue(pick >= 0 && pick < 3, policy.getClass().getSimpleName() + " picked " + pick);
            picksPerNode.incrementAndGet(pick);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> reader : readers) {
        reader.get(2, TimeUnit.MINUTES);
      }
      done.set(true);
      writer.get(1, TimeUnit.MINUTES);
    }
    finally {
      done.set(true);
      pool.shutdownNow();
    }
    assertEquals((long) THREADS * PICKS_PER_THREAD, picksPerNode.get(0) + picksPerNode.get(1) + picksPerNode.get(2));
    assertEquals(0, picksPerNode.get(1), "c is neither in any table nor ever the least loaded");
    final RoutingCounters.Counts counts = counters.drain();
    for (FallbackReason reason : FallbackReason.values()) {
      assertEquals(0, counts.fallbacks(reason), "ABR always had a fresh table routing to held nodes: " + reason);
    }
  }
}
