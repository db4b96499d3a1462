package org.getafix.core.routing;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AllocationBasedPolicyTest
{
  private static final Duration MAX_AGE = Duration.ofSeconds(30);

  private final FakeClock clock = new FakeClock();
  private final RoutingTableHolder tables = new RoutingTableHolder();
  private final RoutingCounters counters = new RoutingCounters();
  private RoutingPolicy abr;

  @BeforeEach
  void setUp()
  {
    abr = AllocationBasedPolicy.withFallback(
        tables,
        new LeastConnectionsPolicy(new Random(1)),
        MAX_AGE.toNanos(),
        clock,
        new Random(42),
        counters
    );
  }

  @Test
  void pickProportionsConvergeToTheTableWithinTwoPercent()
  {
    final Map<String, Map<String, Double>> shares = new LinkedHashMap<>();
    shares.put("S1", shares("HN1", 0.67, "HN2", 0.0, "HN3", 0.33));
    shares.put("S5", shares("HN1", 0.5, "HN2", 0.3, "HN3", 0.2));
    tables.install(RoutingTable.of(1, 0, shares), clock.getAsLong());

    for (String segment : shares.keySet()) {
      // In-flight counts that would make LBR pick HN2 every time, so any fallback would show in the proportions.
      final ArrayCandidateView view = new ArrayCandidateView().reset(segment).add("HN1", 5).add("HN2", 0).add("HN3", 5);
      final int[] picks = new int[view.size()];
      final int n = 100_000;
      for (int i = 0; i < n; i++) {
        picks[abr.pick(view)]++;
      }
      final Map<String, Double> expected = shares.get(segment);
      final double total = expected.values().stream().mapToDouble(Double::doubleValue).sum();
      for (int c = 0; c < view.size(); c++) {
        final double want = expected.get(view.nodeId(c)) / total;
        assertEquals(want, (double) picks[c] / n, 0.02, segment + " on " + view.nodeId(c));
      }
    }
    final RoutingCounters.Counts counts = counters.drain();
    for (FallbackReason reason : FallbackReason.values()) {
      assertEquals(0, counts.fallbacks(reason), reason.name());
    }
  }

  @Test
  void noTableFallsBackToLeastConnections()
  {
    final ArrayCandidateView view = new ArrayCandidateView().reset("S1").add("a", 3).add("b", 1).add("c", 2);
    assertEquals(1, abr.pick(view));
    assertEquals(1, counters.drain().fallbacks(FallbackReason.NO_TABLE));
  }

  @Test
  void staleTableFallsBackUntilConfirmedAgain()
  {
    tables.install(RoutingTable.of(1, 0, Map.of("S1", Map.of("a", 1.0))), clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("S1").add("a", 3).add("b", 1);
    assertEquals(0, abr.pick(view));

    clock.advance(MAX_AGE.plusMillis(1));
    assertEquals(1, abr.pick(view), "a stale table must not be followed");
    assertEquals(1, counters.drain().fallbacks(FallbackReason.STALE_TABLE));

    // A 304 from the Coordinator vouches for the same table again.
    tables.confirm(clock.getAsLong());
    assertEquals(0, abr.pick(view));
    assertEquals(0, counters.drain().fallbacks(FallbackReason.STALE_TABLE));
  }

  @Test
  void segmentMissingFromTheTableFallsBack()
  {
    tables.install(RoutingTable.of(1, 0, Map.of("S1", Map.of("a", 1.0))), clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("S9").add("a", 3).add("b", 1);
    assertEquals(1, abr.pick(view));
    assertEquals(1, abr.pick(view), "the cached absence must also fall back");
    assertEquals(2, counters.drain().fallbacks(FallbackReason.NOT_IN_TABLE));
  }

  @Test
  void drawnNodeThatNoLongerHoldsTheSegmentFallsBack()
  {
    tables.install(RoutingTable.of(1, 0, Map.of("S1", Map.of("gone", 1.0))), clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("S1").add("a", 3).add("b", 1);
    assertEquals(1, abr.pick(view));
    assertEquals(1, counters.drain().fallbacks(FallbackReason.NOT_HELD));
  }

  @Test
  void newTableReplacesCachedRows()
  {
    tables.install(RoutingTable.of(1, 0, Map.of("S1", Map.of("a", 1.0))), clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("S1").add("a", 0).add("b", 0);
    assertEquals(0, abr.pick(view));
    tables.install(RoutingTable.of(2, 0, Map.of("S1", Map.of("b", 1.0))), clock.getAsLong());
    assertEquals(1, abr.pick(view));
  }

  @Test
  void garbageOrStaleTablesNeverFailAPick()
  {
    final Map<String, Map<String, Double>> garbage = new LinkedHashMap<>();
    garbage.put("S1", shares("a", Double.NaN, "b", -1.0, "unknown", 5.0));
    garbage.put("S2", shares("a", 0.0, "b", 0.0, "c", 0.0));
    garbage.put("S3", shares("a", Double.POSITIVE_INFINITY, "b", 1.0, "c", Double.NEGATIVE_INFINITY));
    tables.install(RoutingTable.of(1, 0, garbage), clock.getAsLong());

    final Random inFlight = new Random(7);
    for (int round = 0; round < 3; round++) {
      for (String segment : new String[]{"S1", "S2", "S3", "S4"}) {
        for (int i = 0; i < 1000; i++) {
          final ArrayCandidateView view = new ArrayCandidateView().reset(segment);
          final int size = 1 + inFlight.nextInt(4);
          for (int c = 0; c < size; c++) {
            view.add(String.valueOf((char) ('a' + c)), inFlight.nextInt(3));
          }
          final int pick = abr.pick(view);
          assertTrue(pick >= 0 && pick < size, "pick " + pick + " of " + size);
        }
      }
      clock.advance(MAX_AGE);
    }
    final RoutingCounters.Counts counts = counters.drain();
    assertTrue(counts.fallbacks(FallbackReason.NOT_HELD) > 0, "S1 only routes to an unknown node");
    assertTrue(counts.fallbacks(FallbackReason.NOT_IN_TABLE) > 0, "S2 has no positive share, S4 no row");
    assertTrue(counts.fallbacks(FallbackReason.STALE_TABLE) > 0, "the table ages past the bound");
  }

  @Test
  void emptyAndSingleCandidateViews()
  {
    assertEquals(-1, abr.pick(new ArrayCandidateView().reset("S1")));
    assertEquals(0, abr.pick(new ArrayCandidateView().reset("S1").add("a", 9)));
    // With one holder there is no decision, so no fallback is recorded even without a table.
    assertEquals(0, counters.drain().fallbacks(FallbackReason.NO_TABLE));
  }

  private static Map<String, Double> shares(String n1, double s1, String n2, double s2, String n3, double s3)
  {
    final Map<String, Double> m = new LinkedHashMap<>();
    m.put(n1, s1);
    m.put(n2, s2);
    m.put(n3, s3);
    return m;
  }
}
