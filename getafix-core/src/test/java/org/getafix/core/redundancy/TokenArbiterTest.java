package org.getafix.core.redundancy;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenArbiterTest
{
  private static final List<String> HOLDERS = List.of("a", "b", "c", "d");

  /** An arbiter that has seen each holder answer once, a in 50 ms, b in 10, c in 30, d in 20. */
  private static TokenArbiter measured(int tokensPerServer, int extraLookups)
  {
    final TokenArbiter arbiter = new TokenArbiter(tokensPerServer, extraLookups, new Random(3));
    final double[] latencies = {50, 10, 30, 20};
    for (int i = 0; i < HOLDERS.size(); i++) {
      assertEquals(List.of(HOLDERS.get(i)), arbiter.acquire(1, List.of(HOLDERS.get(i))));
      arbiter.release(HOLDERS.get(i), latencies[i]);
    }
    return arbiter;
  }

  @Test
  void takesTheFastestServersWithATokenLeft()
  {
    final TokenArbiter arbiter = measured(1, TokenArbiter.ALL_CANDIDATES);
    assertEquals(List.of("b", "d"), arbiter.acquire(2, HOLDERS));
    assertEquals(0, arbiter.available("b"));
    // b and d have no token left: the next request gets the fastest of the rest.
    assertEquals(List.of("c"), arbiter.acquire(1, HOLDERS));
    arbiter.release("b", 60);
    assertEquals(List.of("a", "b"), arbiter.acquire(2, HOLDERS), "b's last answer took 60 ms");
    assertEquals(List.of(), arbiter.acquire(1, HOLDERS), "every token is out");
  }

  @Test
  void neverTwoTokensOfOneServerForOneRequest()
  {
    final TokenArbiter arbiter = measured(3, TokenArbiter.ALL_CANDIDATES);
    assertEquals(List.of("b", "a"), arbiter.acquire(3, List.of("b", "b", "a", "b")));
    assertEquals(2, arbiter.available("b"));
    assertEquals(2, arbiter.available("a"));
  }

  @Test
  void fewerAvailableThanWantedTakesThoseThereAre()
  {
    final TokenArbiter arbiter = measured(1, TokenArbiter.ALL_CANDIDATES);
    arbiter.acquire(1, List.of("b"));
    assertEquals(List.of("d", "c", "a"), arbiter.acquire(4, HOLDERS));
  }

  @Test
  void aServerNeverObservedIsTriedFirst()
  {
    final TokenArbiter arbiter = measured(1, TokenArbiter.ALL_CANDIDATES);
    assertEquals(List.of("new", "b"), arbiter.acquire(2, List.of("a", "b", "new")));
  }

  @Test
  void fewerLookUpsSpreadTheChoice()
  {
    // One look-up per token: a random holder, whatever its latency.
    final TokenArbiter arbiter = measured(1, 0);
    final double[] latencies = {50, 10, 30, 20};
    final Map<String, Integer> picks = new HashMap<>();
    for (int i = 0; i < 2000; i++) {
      final String server = arbiter.acquire(1, HOLDERS).get(0);
      picks.merge(server, 1, Integer::sum);
      arbiter.release(server, latencies[HOLDERS.indexOf(server)]);
    }
    for (String holder : HOLDERS) {
      assertTrue(picks.getOrDefault(holder, 0) > 400, picks.toString());
    }
    // Looking up two of four, the slowest is taken only when it is drawn with nothing else: never.
    final TokenArbiter two = measured(1, 1);
    for (int i = 0; i < 200; i++) {
      final String server = two.acquire(1, HOLDERS).get(0);
      assertTrue(!server.equals("a"), "a is slower than every other holder");
      two.release(server, latencies[HOLDERS.indexOf(server)]);
    }
  }

  @Test
  void garbageReleasesAreIgnoredAndCounted()
  {
    final TokenArbiter arbiter = measured(1, TokenArbiter.ALL_CANDIDATES);
    arbiter.acquire(1, List.of("a"));
    arbiter.release("a", Double.NaN);
    assertEquals(1, arbiter.available("a"), "the token comes back");
    assertEquals(50, arbiter.lastLatencyMillis("a"), 0, "the latency is not recorded");
    arbiter.release("a", 5);
    arbiter.release("unknown", 5);
    arbiter.release(null, 5);
    assertEquals(1, arbiter.available("a"), "no token beyond C");
    assertEquals(50, arbiter.lastLatencyMillis("a"), 0);
    assertEquals(4, arbiter.ignored());
    assertEquals(List.of(), arbiter.acquire(0, HOLDERS));
    assertEquals(List.of(), arbiter.acquire(1, null));
    assertEquals(List.of("b"), arbiter.acquire(1, Arrays.asList(null, "b", null)));
    arbiter.forget("b");
    arbiter.release("b", 10);
    assertEquals(1, arbiter.available("b"), "a forgotten server starts afresh");
    assertThrows(IllegalArgumentException.class, () -> new TokenArbiter(0, 0, new Random()));
    assertThrows(IllegalArgumentException.class, () -> new TokenArbiter(1, -1, new Random()));
  }
}
