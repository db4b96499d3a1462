package org.getafix.druid.coordinator.http;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.DateTimes;
import org.getafix.core.realise.Rollback;
import org.getafix.core.routing.RoutingTable;
import org.getafix.core.wire.RoutingTableMessage;
import org.getafix.druid.WireFormatModule;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.druid.coordinator.load.GetafixBalancerStrategyFactory;
import org.getafix.druid.coordinator.load.GetafixRunHandoff;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanSnapshot;
import org.junit.jupiter.api.Test;

import javax.ws.rs.core.Response;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GetafixStatusResourceTest
{
  private final ObjectMapper mapper = new DefaultObjectMapper().registerModule(new WireFormatModule());
  private final GetafixPlanHolder holder = new GetafixPlanHolder();
  private final GetafixRunHandoff handoff = new GetafixRunHandoff();
  private final GetafixStatusResource resource = new GetafixStatusResource(holder, handoff, mapper);

  @Test
  void routingServesTheActivePlanWithAnETagAnd304WhileUnchanged() throws Exception
  {
    publish(3, 2, Mode.ACTIVE, Map.of("seg1", Map.of("h1:8083", 0.75, "h2:8083", 0.25)));
    final Response first = resource.getRouting(null);
    assertEquals(200, first.getStatus());
    final Map<String, Object> table = mapper.readValue((byte[]) first.getEntity(), new TypeReference<>() {});
    assertEquals(2, ((Number) table.get("version")).intValue());
    assertEquals(Map.of("seg1", Map.of("h1:8083", 0.75, "h2:8083", 0.25)), table.get("segments"));
    assertTrue(table.containsKey("generatedAt"));
    // What a Broker reads: its mapper has no Getafix modules; records are read through their constructor.
    final RoutingTable routed =
        new DefaultObjectMapper().readValue((byte[]) first.getEntity(), RoutingTableMessage.class).toTable();
    assertEquals(2, routed.version());
    assertEquals(0.75, routed.row("seg1").share("h1:8083"), 1e-12);
    assertTrue(routed.generatedAtMillis() > 0);
    final Object tag = first.getMetadata().getFirst("ETag");
    assertEquals("2", ((javax.ws.rs.core.EntityTag) tag).getValue());
    final String etag = "\"2\"";

    // A later round with the same plan keeps the version: the Broker's poll is answered 304 with no body.
    publish(4, 2, Mode.ACTIVE, Map.of("seg1", Map.of("h1:8083", 0.75, "h2:8083", 0.25)));
    final Response again = resource.getRouting(etag);
    assertEquals(304, again.getStatus());
    assertEquals(null, again.getEntity());

    publish(5, 5, Mode.ACTIVE, Map.of("seg1", Map.of("h2:8083", 1.0)));
    assertEquals(200, resource.getRouting(etag).getStatus(), "a new plan is a new version");
  }

  @Test
  void statusSaysWhereARollbackStandsAfterTheLastCoordinatorRun()
  {
    publish(1, 0, Mode.ROLLING_BACK, Map.of());
    assertFalse(status().containsKey("rollback"), "no Coordinator run has rolled back yet");
    final GetafixBalancerStrategyFactory strategy = new GetafixBalancerStrategyFactory(null, holder, handoff);
    strategy.createBalancerStrategy(1);
    handoff.currentRun().rollback().count(2, 2);
    handoff.currentRun().rollback().count(2, 3);
    strategy.createBalancerStrategy(1);
    assertEquals(
        Map.of("phase", Rollback.Phase.DROPPING, "belowStock", 0, "aboveStock", 1, "segments", 2),
        status().get("rollback")
    );
    publish(2, 2, Mode.ACTIVE, Map.of());
    assertFalse(status().containsKey("rollback"), "shown only while rolling back");
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> status()
  {
    return (Map<String, Object>) resource.getStatus().getEntity();
  }

  @Test
  void routingIsEmptyUnlessThePlanIsActive() throws Exception
  {
    for (Mode mode : List.of(Mode.DRY_RUN, Mode.WARMING_UP, Mode.REFUSED)) {
      publish(7, 7, mode, Map.of("seg1", Map.of("h1:8083", 1.0)));
      final Response response = resource.getRouting(null);
      final Map<String, Object> table = mapper.readValue((byte[]) response.getEntity(), new TypeReference<>() {});
      assertEquals(Map.of(), table.get("segments"), mode.name());
      assertEquals(0, ((Number) table.get("version")).intValue());
    }
    // The plan itself stays visible in dry run.
    publish(8, 8, Mode.DRY_RUN, Map.of("seg1", Map.of("h1:8083", 1.0)));
    @SuppressWarnings("unchecked")
    final Map<String, Object> plan = (Map<String, Object>) resource.getPlan().getEntity();
    assertEquals(Map.of("seg1", Map.of("h1:8083", 1.0)), plan.get("segments"));
  }

  @Test
  void statusShowsWhyGetafixRefuses()
  {
    holder.publish(PlanSnapshot.withoutPlan(1, DateTimes.nowUtc(), Mode.REFUSED,
                                            List.of("smartSegmentLoading=true"), "_default_tier",
                                            GetafixDynamicConfig.defaults()));
    @SuppressWarnings("unchecked")
    final Map<String, Object> status = (Map<String, Object>) resource.getStatus().getEntity();
    assertEquals(Mode.REFUSED, status.get("mode"));
    assertEquals(List.of("smartSegmentLoading=true"), status.get("problems"));
    assertFalse((Boolean) status.get("balancerStrategyInstalled"));
    assertEquals(0L, status.get("statsRejected"));
  }

  @Test
  void statusCountsTheStatisticsTheRoundsCouldNotUse()
  {
    holder.countStatsProblems(1, 2);
    holder.countStatsProblems(0, 1);
    @SuppressWarnings("unchecked")
    final Map<String, Object> status = (Map<String, Object>) resource.getStatus().getEntity();
    assertEquals(1L, status.get("statsMissing"));
    assertEquals(3L, status.get("statsRejected"));
  }

  @Test
  void statusNamesTheUnstableHistoricalsInOrder()
  {
    holder.publish(new PlanSnapshot(1, 1, DateTimes.nowUtc(), Mode.ACTIVE, List.of(), "_default_tier", Map.of(),
                                    Map.of(), Map.of(), Set.of("h:2", "h:1"), Map.of(), List.of(),
                                    GetafixDynamicConfig.defaults()));
    @SuppressWarnings("unchecked")
    final Map<String, Object> status = (Map<String, Object>) resource.getStatus().getEntity();
    assertEquals(List.of("h:1", "h:2"), List.copyOf((Collection<?>) status.get("unstableHistoricals")));
  }

  @Test
  void ifNoneMatchAcceptsQuotedWeakListedAndStar()
  {
    assertTrue(GetafixStatusResource.matches("\"5\"", "5"));
    assertTrue(GetafixStatusResource.matches("W/\"5\"", "5"));
    assertTrue(GetafixStatusResource.matches("\"1\", \"5\"", "5"));
    assertTrue(GetafixStatusResource.matches("*", "5"));
    assertFalse(GetafixStatusResource.matches("\"6\"", "5"));
    assertFalse(GetafixStatusResource.matches(null, "5"));
  }

  @Test
  void plansThatOnlyWobbleRouteTheSame()
  {
    final Map<String, Map<String, Double>> a = Map.of("s", Map.of("h1", 0.50, "h2", 0.50));
    assertTrue(PlanSnapshot.sameRouting(a, Map.of("s", Map.of("h1", 0.51, "h2", 0.49)), 0.02));
    assertFalse(PlanSnapshot.sameRouting(a, Map.of("s", Map.of("h1", 0.60, "h2", 0.40)), 0.02));
    assertFalse(PlanSnapshot.sameRouting(a, Map.of("s", Map.of("h1", 0.5, "h3", 0.5)), 0.02), "other holders");
    assertFalse(PlanSnapshot.sameRouting(a, Map.of("t", Map.of("h1", 0.5, "h2", 0.5)), 0.02), "other segment");
    assertFalse(PlanSnapshot.sameRouting(a, Map.of(), 0.02));
  }

  private void publish(long round, long version, Mode mode, Map<String, Map<String, Double>> shares)
  {
    holder.publish(new PlanSnapshot(round, version, DateTimes.nowUtc(), mode, List.of(), "_default_tier", shares,
                                    Map.of(), Map.of(), Set.of(), Map.of(), List.of(),
                                    GetafixDynamicConfig.defaults()));
  }
}
