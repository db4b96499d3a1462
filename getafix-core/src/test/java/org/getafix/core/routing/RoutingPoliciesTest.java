package org.getafix.core.routing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoutingPoliciesTest
{
  private final FakeClock clock = new FakeClock();
  private final RoutingTableHolder tables = new RoutingTableHolder();
  private final RoutingCounters counters = new RoutingCounters();
  private final RoutingPolicies.Inputs inputs = new RoutingPolicies.Inputs(
      RoutingSettings.DEFAULTS, tables, new NodeFeedback(), counters, clock, new Random(1)
  );

  @Test
  void oneNamePerPolicyInRegistrationOrder()
  {
    assertEquals(
        List.of("getafixLbr", "getafixAbr", "getafixLbrMl", "getafixAdaptive", "random"),
        RoutingPolicies.REGISTRY.names()
    );
    final IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> RoutingPolicies.REGISTRY.get("lbr-cc"));
    assertTrue(unknown.getMessage().contains("getafixAdaptive"), unknown.getMessage());
  }

  @Test
  void traitsSayWhatEachPolicyReads()
  {
    final RoutingPolicies.Traits abr = RoutingPolicies.REGISTRY.get(RoutingPolicies.ABR).traits();
    assertTrue(abr.routingTable());
    assertFalse(abr.perRouterState());
    assertTrue(RoutingPolicies.REGISTRY.get(RoutingPolicies.LBR_ML).traits().perRouterState());
    assertTrue(RoutingPolicies.REGISTRY.get(RoutingPolicies.ADAPTIVE).traits().latencies());
    assertTrue(RoutingPolicies.REGISTRY.get(RoutingPolicies.RANDOM).traits().druidBuiltIn());
    assertEquals(
        1,
        RoutingPolicies.REGISTRY.entries().stream().filter(e -> e.traits().druidBuiltIn()).count(),
        "only Druid's random is built in; every Getafix policy needs its Broker type"
    );
  }

  @Test
  void everyFactoryBuildsAPolicyThatPicksAHolder()
  {
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("a", 3).add("b", 0);
    for (RoutingPolicies.Entry entry : RoutingPolicies.REGISTRY.entries()) {
      final int pick = entry.create(inputs).pick(view);
      assertTrue(pick == 0 || pick == 1, entry.name() + " picked " + pick);
      assertEquals(-1, entry.create(inputs).pick(new ArrayCandidateView().reset("s")), entry.name());
    }
  }

  @Test
  void abrFallsBackToLeastConnectionsAndUsesTheMaxTableAgeSetting()
  {
    final RoutingPolicies.Inputs shortTrust = new RoutingPolicies.Inputs(
        RoutingSettings.DEFAULTS.withMaxTableAge(Duration.ofSeconds(5)), tables, null, counters, clock, new Random(2)
    );
    final RoutingPolicy abr = RoutingPolicies.REGISTRY.get(RoutingPolicies.ABR).create(shortTrust);
    assertInstanceOf(WithFallback.class, abr);
    tables.install(RoutingTable.of(1, 0, Map.of("s", Map.of("a", 1.0))), clock.getAsLong());
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("a", 3).add("b", 0);
    assertEquals(0, abr.pick(view), "a fresh table routes to its node even though it is busier");
    clock.advance(Duration.ofSeconds(6));
    assertEquals(1, abr.pick(view), "a table older than maxTableAge hands the pick to least connections");
    assertEquals(1, counters.drain().fallbacks(FallbackReason.STALE_TABLE));
  }

  @Test
  void leastScoreStopsOnAnUndecidableScore()
  {
    final ArrayCandidateView view = new ArrayCandidateView().reset("s").add("a", 0).add("b", 1).add("c", 2);
    assertEquals(
        LeastScore.UNDECIDED,
        LeastScore.pick(view, (c, i, now) -> i == 2 ? Double.NaN : i, 0, new Random(3))
    );
    assertEquals(0, LeastScore.pick(view, (c, i, now) -> c.inFlight(i), 0, new Random(3)));
    assertEquals(-1, LeastScore.pick(new ArrayCandidateView().reset("s"), (c, i, now) -> 0, 0, new Random(3)));
  }
}
