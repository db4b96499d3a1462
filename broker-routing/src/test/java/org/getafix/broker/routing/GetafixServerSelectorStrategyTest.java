package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.client.DruidServer;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.client.selector.HighestPriorityTierSelectorStrategy;
import org.apache.druid.client.selector.ServerSelector;
import org.apache.druid.client.selector.ServerSelectorStrategy;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.server.coordination.DruidServerMetadata;
import org.apache.druid.server.coordination.ServerType;
import org.apache.druid.timeline.DataSegment;
import org.apache.druid.timeline.partition.NumberedShardSpec;
import org.getafix.core.routing.FallbackReason;
import org.getafix.core.routing.RoutingPolicies;
import org.getafix.core.routing.RoutingSettings;
import org.getafix.core.routing.RoutingTable;
import org.joda.time.Period;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Druid glue with real DruidServer, QueryableDruidServer, DirectDruidClient and ServerSelector objects. */
class GetafixServerSelectorStrategyTest
{
  private static final DataSegment SEGMENT = DataSegment.builder()
                                                        .dataSource("wiki")
                                                        .interval(Intervals.of("2026-01-01/2026-01-02"))
                                                        .version("v1")
                                                        .shardSpec(new NumberedShardSpec(0, 1))
                                                        .size(100)
                                                        .build();

  private final BrokerRoutingState state = new BrokerRoutingState(BrokerRoutingConfig.defaults());
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  @Test
  void jsonTypesBuildTheStrategiesWithTheirProperties() throws Exception
  {
    final ObjectMapper mapper = new DefaultObjectMapper();
    new GetafixRoutingModule().getJacksonModules().forEach(mapper::registerModule);
    mapper.setInjectableValues(new InjectableValues.Std().addValue(BrokerRoutingState.class, state));

    final ServerSelectorStrategy abr =
        mapper.readValue("{\"type\": \"getafixAbr\", \"maxTableAge\": \"PT10S\"}", ServerSelectorStrategy.class);
    assertInstanceOf(GetafixServerSelectorStrategy.Abr.class, abr);
    assertEquals(Duration.ofSeconds(10), ((GetafixServerSelectorStrategy) abr).settings().maxTableAge());
    assertInstanceOf(
        GetafixServerSelectorStrategy.Lbr.class,
        mapper.readValue("{\"type\": \"getafixLbr\"}", ServerSelectorStrategy.class)
    );
    final ServerSelectorStrategy ml = mapper.readValue("{\"type\": \"getafixLbrMl\"}", ServerSelectorStrategy.class);
    assertEquals(RoutingSettings.DEFAULTS, ((GetafixServerSelectorStrategy) ml).settings());
    assertEquals(RoutingPolicies.LBR_ML, ((GetafixServerSelectorStrategy) ml).policyName());
    final ServerSelectorStrategy adaptive = mapper.readValue(
        "{\"type\": \"getafixAdaptive\", \"statsFresh\": \"PT3S\", \"statsDecay\": \"PT7S\"}",
        ServerSelectorStrategy.class
    );
    assertEquals(Duration.ofSeconds(7), ((GetafixServerSelectorStrategy) adaptive).settings().statsDecay());
    assertEquals(Duration.ofSeconds(3), ((GetafixServerSelectorStrategy) adaptive).settings().statsFresh());
    assertEquals("getafixAdaptive", ((GetafixServerSelectorStrategy) adaptive).policyName());

    final Exception bad = org.junit.jupiter.api.Assertions.assertThrows(
        Exception.class,
        () -> mapper.readValue("{\"type\": \"getafixAbr\", \"maxTableAge\": \"PT0S\"}", ServerSelectorStrategy.class)
    );
    assertTrue(String.valueOf(bad.getMessage()).contains("druid.broker.balancer.maxTableAge"), bad.getMessage());
  }

  @Test
  void everyPickMethodAgreesAndNoneRecurses()
  {
    final GetafixServerSelectorStrategy lbr = strategy(RoutingPolicies.LBR, null, new Random(1));
    final QueryableDruidServer busy = server("h1:8083", 5);
    final QueryableDruidServer idle = server("h2:8083", 1);
    final Set<QueryableDruidServer> holders = new HashSet<>(List.of(busy, idle));

    assertSame(idle, lbr.pick(null, holders, SEGMENT));
    assertSame(idle, lbr.pick(holders, SEGMENT));
    assertEquals(List.of(idle), lbr.pick(null, holders, SEGMENT, 1));
    assertEquals(List.of(idle), lbr.pick(holders, SEGMENT, 1));
    assertSame(lbr.pick(null, holders, SEGMENT, 1), lbr.pick(null, holders, SEGMENT, 1), "cached singleton list");

    assertNull(lbr.pick(null, Set.of(), SEGMENT));
    assertEquals(List.of(), lbr.pick(null, Set.of(), SEGMENT, 1));
    assertEquals(List.of(), lbr.pick(null, holders, SEGMENT, 0));
    assertEquals(6, state.counters().drain().picks());
  }

  @Test
  void severalPicksAreDistinctAndInPreferenceOrder()
  {
    final GetafixServerSelectorStrategy lbr = strategy(RoutingPolicies.LBR, null, new Random(2));
    final QueryableDruidServer a = server("a:1", 3);
    final QueryableDruidServer b = server("b:1", 0);
    final QueryableDruidServer c = server("c:1", 7);
    final QueryableDruidServer d = server("d:1", 1);
    final Set<QueryableDruidServer> holders = new LinkedHashSet<>(List.of(a, b, c, d));
    assertEquals(List.of(b, d, a), lbr.pick(null, holders, SEGMENT, 3));
    assertEquals(4, lbr.pick(null, holders, SEGMENT, 9).size());
  }

  @Test
  void abrFollowsTheTableThroughDruidsServerSelector()
  {
    final GetafixServerSelectorStrategy abr = strategy(RoutingPolicies.ABR, null, new Random(3));
    final QueryableDruidServer h1 = server("h1:8083", 0);
    final QueryableDruidServer h2 = server("h2:8083", 0);
    final QueryableDruidServer h3 = server("h3:8083", 0);
    final ServerSelector selector = new ServerSelector(SEGMENT, new HighestPriorityTierSelectorStrategy(abr));
    for (QueryableDruidServer s : List.of(h1, h2, h3)) {
      selector.addServerAndUpdateSegment(s, SEGMENT);
    }
    state.tables().install(
        RoutingTable.of(1, 0, Map.of(SEGMENT.getId().toString(), Map.of("h1:8083", 0.8, "h3:8083", 0.2))),
        clock.get()
    );

    final int n = 20_000;
    final Map<QueryableDruidServer, Integer> counts = new java.util.HashMap<>();
    for (int i = 0; i < n; i++) {
      counts.merge(selector.pick(null), 1, Integer::sum);
    }
    assertEquals(0.8, counts.getOrDefault(h1, 0) / (double) n, 0.02);
    assertEquals(0.2, counts.getOrDefault(h3, 0) / (double) n, 0.02);
    assertEquals(0, counts.getOrDefault(h2, 0), "a held replica without a share gets no queries");

    // Druid's candidate listing goes through the multi-pick path: distinct holders, counted as picks.
    final List<DruidServerMetadata> candidates = selector.getCandidates(2);
    assertEquals(2, new HashSet<>(candidates).size());
    assertEquals(n + 2, state.counters().drain().picks());
    assertEquals(3, selector.getCandidates(3).size(), "asking for all holders needs no decision");
  }

  @Test
  void abrFallsBackToLeastConnectionsWhenTheDrawnNodeIsGone()
  {
    final GetafixServerSelectorStrategy abr = strategy(RoutingPolicies.ABR, null, new Random(4));
    final QueryableDruidServer busy = server("h1:8083", 9);
    final QueryableDruidServer idle = server("h2:8083", 0);
    state.tables().install(
        RoutingTable.of(1, 0, Map.of(SEGMENT.getId().toString(), Map.of("gone:8083", 1.0))),
        clock.get()
    );
    assertSame(idle, abr.pick(null, Set.of(busy, idle), SEGMENT));
    assertEquals(1, state.counters().drain().fallbacks(FallbackReason.NOT_HELD));

    clock.addAndGet(Period.seconds(31).toStandardDuration().getMillis() * 1_000_000L);
    assertSame(idle, abr.pick(null, Set.of(busy, idle), SEGMENT));
    assertEquals(1, state.counters().drain().fallbacks(FallbackReason.STALE_TABLE));
  }

  @Test
  void adaptiveAvoidsTheNodeWithSlowResponsesFedThroughTheEmitter()
  {
    final GetafixServerSelectorStrategy adaptive = strategy(
        RoutingPolicies.ADAPTIVE,
        new BalancerProperties(null, null, Period.seconds(10), Period.seconds(20)),
        new Random(5)
    );
    final QueryableDruidServer slow = server("slow:8083", 0);
    final QueryableDruidServer fast = server("fast:8083", 0);
    final RoutingFeedbackEmitter emitter = new RoutingFeedbackEmitter(state.feedback(), "query/node/time");
    // The feedback emitter stamps observations with System.nanoTime(); pick on the same clock.
    clock.set(System.nanoTime());
    emitter.emit(org.apache.druid.java.util.emitter.service.ServiceMetricEvent.builder()
                                                                             .setDimension("server", "slow:8083")
                                                                             .setMetric("query/node/time", 400)
                                                                             .build("druid/broker", "localhost"));
    emitter.emit(org.apache.druid.java.util.emitter.service.ServiceMetricEvent.builder()
                                                                             .setDimension("server", "fast:8083")
                                                                             .setMetric("query/node/time", 20)
                                                                             .build("druid/broker", "localhost"));
    final List<QueryableDruidServer> picked = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      picked.add(adaptive.pick(null, Set.of(slow, fast), SEGMENT));
    }
    assertTrue(picked.stream().allMatch(fast::equals));
  }

  private GetafixServerSelectorStrategy strategy(String name, BalancerProperties properties, Random random)
  {
    return new GetafixServerSelectorStrategy(name, state, properties, clock::get, random);
  }

  private static QueryableDruidServer server(String name, int openConnections)
  {
    return new QueryableDruidServer(
        new DruidServer(name, name, null, 1_000_000, ServerType.HISTORICAL, "_default_tier", 0),
        new FixedConnectionsClient<>(name, openConnections)
    );
  }
}
