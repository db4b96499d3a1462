package org.getafix.druid.coordinator.load;

import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.Intervals;
import org.apache.druid.server.coordinator.balancer.BalancerStrategyFactory;
import org.apache.druid.server.coordinator.rules.LoadRule;
import org.apache.druid.server.coordinator.rules.Rule;
import org.apache.druid.server.coordinator.rules.SegmentActionHandler;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.realise.ReplicaTarget;
import org.getafix.core.realise.Rollback;
import org.getafix.druid.GetafixDruidModule;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.druid.coordinator.plan.GetafixPlanHolder;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanSnapshot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GetafixLoadRuleTest
{
  private static final DataSegment SEGMENT = DataSegment.builder()
                                                        .dataSource("wiki")
                                                        .interval(Intervals.of("2024-01-01/P1D"))
                                                        .version("v1")
                                                        .size(100)
                                                        .build();
  private final GetafixPlanHolder holder = new GetafixPlanHolder();
  private final GetafixRunHandoff handoff = new GetafixRunHandoff();
  private final RecordingHandler handler = new RecordingHandler();

  @Test
  void deserialisesAsALoadRuleWithTheHolderInjected() throws Exception
  {
    final ObjectMapper mapper = mapper();
    final Rule rule = mapper.readValue(
        "{\"type\":\"getafix\",\"tieredReplicants\":{\"_default_tier\":2,\"cold\":1}}", Rule.class
    );
    final GetafixLoadRule getafix = assertInstanceOf(GetafixLoadRule.class, rule);
    assertTrue(rule instanceof LoadRule, "handoff recognises load rules with instanceof LoadRule");
    assertEquals(Map.of("_default_tier", 2, "cold", 1), getafix.getTieredReplicants());
    assertTrue(getafix.shouldMatchingSegmentBeLoaded());
    assertTrue(getafix.appliesTo(SEGMENT, DateTimes.nowUtc()));

    final String json = mapper.writeValueAsString(rule);
    assertTrue(json.contains("\"type\":\"getafix\""), json);
    assertEquals(rule, mapper.readValue(json, Rule.class));
  }

  @Test
  void negativeReplicasAreRejectedNamingTheTier()
  {
    final Exception e = assertThrows(Exception.class, () -> mapper().readValue(
        "{\"type\":\"getafix\",\"tieredReplicants\":{\"_default_tier\":-1}}", Rule.class
    ));
    assertTrue(String.valueOf(e.getMessage()).contains("_default_tier"), e.getMessage());
  }

  @Test
  void balancerStrategyTypeIsRegistered() throws Exception
  {
    final BalancerStrategyFactory factory = mapper().readValue(
        "{\"strategy\":\"getafix\",\"fallback\":\"diskNormalized\"}", BalancerStrategyFactory.class
    );
    assertEquals("diskNormalized", assertInstanceOf(GetafixBalancerStrategyFactory.class, factory).getFallback());
    assertTrue(handoff.isStrategyInstalled());
    final Exception e = assertThrows(Exception.class, () -> mapper().readValue(
        "{\"strategy\":\"getafix\",\"fallback\":\"bogus\"}", BalancerStrategyFactory.class
    ));
    assertTrue(e.getMessage().contains("bogus"), e.getMessage());
  }

  @Test
  void withoutAnInventoryItIsAPlainLoadRule()
  {
    new GetafixLoadRule(Map.of("_default_tier", 2), null, null, holder, handoff).run(SEGMENT, handler);
    assertEquals(List.of(Map.of("_default_tier", 2)), handler.calls);
  }

  @Test
  void disabledIsAPlainLoadRule()
  {
    handoff.setServedSegments(served(Set.of("a", "b", "c")));
    publish(Mode.DISABLED, Map.of("a", 1.0));
    new GetafixLoadRule(Map.of("_default_tier", 1), null, null, holder, handoff).run(SEGMENT, handler);
    assertEquals(List.of(Map.of("_default_tier", 1)), handler.calls);
  }

  @Test
  void disabledAndDryRunAreTheStockRuleInEveryTier()
  {
    handoff.setServedSegments(served(Set.of("a", "b", "c")));
    final GetafixLoadRule rule = new GetafixLoadRule(
        Map.of("_default_tier", 1, "cold", 1), null, Map.of("_default_tier", 2, "cold", 1), holder, handoff
    );
    publish(Mode.DISABLED, Map.of("a", 1.0));
    rule.run(SEGMENT, handler);
    // A dry run is the stock rule while it warms up, is refused or plans, and also in a run of our strategy.
    final GetafixDynamicConfig dryRun = new GetafixDynamicConfig(true, true, 0.2, 1, 3, null, 50, 50);
    for (Mode mode : List.of(Mode.WARMING_UP, Mode.REFUSED, Mode.DRY_RUN)) {
      publish(mode, Map.of("a", 1.0), dryRun);
      handoff.beginRun(CoordinatorRun.of(holder.snapshot()));
      rule.run(SEGMENT, handler);
    }
    assertEquals(4, handler.calls.size());
    handler.calls.forEach(call -> assertEquals(Map.of("_default_tier", 2, "cold", 1), call));
    assertFalse(handler.sawTarget, "the strategy is left no decision: Druid's own strategy places");
  }

  @Test
  void stockReplicantsAreCheckedAndKeptInTheJson() throws Exception
  {
    final ObjectMapper mapper = mapper();
    final Rule rule = mapper.readValue(
        "{\"type\":\"getafix\",\"tieredReplicants\":{\"_default_tier\":1},"
        + "\"stockReplicants\":{\"_default_tier\":2}}", Rule.class
    );
    assertEquals(Map.of("_default_tier", 2), ((GetafixLoadRule) rule).getStockReplicants());
    assertEquals(rule, mapper.readValue(mapper.writeValueAsString(rule), Rule.class));
    assertFalse(rule.equals(new GetafixLoadRule(Map.of("_default_tier", 1), null, null, holder, handoff)));
    for (String stock : List.of("{\"_default_tier\":-1}", "{\"_default_tier\":0}", "{}")) {
      final Exception e = assertThrows(Exception.class, () -> mapper.readValue(
          "{\"type\":\"getafix\",\"tieredReplicants\":{\"_default_tier\":1},\"stockReplicants\":" + stock + "}",
          Rule.class
      ), stock);
      assertTrue(String.valueOf(e.getMessage()).contains("stockReplicants"), e.getMessage());
    }
  }

  @Test
  void rollbackLoadsBeforeItDropsAndOnlyInARunOfOurStrategy()
  {
    handoff.setServedSegments(served(Set.of("a", "b", "c")));
    final GetafixLoadRule rule = new GetafixLoadRule(
        Map.of("_default_tier", 1), null, Map.of("_default_tier", 2), holder, handoff
    );
    publish(Mode.ROLLING_BACK, Map.of());
    rule.run(SEGMENT, handler);
    assertEquals(Map.of("_default_tier", 3), handler.calls.get(0), "no run of our strategy: frozen");

    handoff.beginRun(CoordinatorRun.of(holder.snapshot()));
    rule.run(SEGMENT, handler);
    assertEquals(Map.of("_default_tier", 3), handler.calls.get(1), "the first run loads and keeps the third copy");
    assertTrue(handler.sawTarget);
    assertFalse(handler.sawTargetActing, "the plan is not realised: Druid's strategy places, the budget paces");

    handoff.beginRun(CoordinatorRun.of(holder.snapshot()));
    assertEquals(new Rollback.Progress(0, 1, 1), handoff.rollbackProgress());
    rule.run(SEGMENT, handler);
    assertEquals(Map.of("_default_tier", 2), handler.calls.get(2), "nothing left to load: drop to the stock count");
  }

  @Test
  void activePlanWithoutTheGetafixStrategyFreezes()
  {
    handoff.setServedSegments(served(Set.of("a", "b", "c")));
    publish(Mode.ACTIVE, Map.of("a", 1.0));
    new GetafixLoadRule(Map.of("_default_tier", 1), null, null, holder, handoff).run(SEGMENT, handler);
    assertEquals(List.of(Map.of("_default_tier", 3)), handler.calls, "no run context: keep the 3 loaded copies");
  }

  @Test
  void activePlanInARunOfOurStrategyFollowsThePlanAndLeavesOtherTiersAlone()
  {
    handoff.setServedSegments(served(Set.of("a", "b", "c")));
    publish(Mode.ACTIVE, Map.of("a", 1.0));
    handoff.beginRun(CoordinatorRun.of(holder.snapshot()));
    new GetafixLoadRule(Map.of("_default_tier", 1, "cold", 1), null, null, holder, handoff).run(SEGMENT, handler);
    assertEquals(List.of(Map.of("_default_tier", 1, "cold", 1)), handler.calls);
    assertEquals(null, handoff.currentTargetFor(SEGMENT.getId().toString()), "the decision is cleared after the call");
    assertTrue(handler.sawTargetActing);
  }

  @Test
  void ruleWithoutTheGetafixTierIsPlain()
  {
    handoff.setServedSegments(served(Set.of("a")));
    publish(Mode.ACTIVE, Map.of("a", 1.0));
    handoff.beginRun(CoordinatorRun.of(holder.snapshot()));
    new GetafixLoadRule(Map.of("cold", 2), null, null, holder, handoff).run(SEGMENT, handler);
    assertEquals(List.of(Map.of("cold", 2)), handler.calls);
    assertFalse(handler.sawTargetActing);
  }

  private ObjectMapper mapper()
  {
    final ObjectMapper mapper = new DefaultObjectMapper();
    new GetafixDruidModule().getJacksonModules().forEach(mapper::registerModule);
    mapper.setInjectableValues(new InjectableValues.Std().addValue(GetafixPlanHolder.class, holder)
                                                           .addValue(GetafixRunHandoff.class, handoff));
    return mapper;
  }

  private void publish(Mode mode, Map<String, Double> shares)
  {
    publish(mode, shares, GetafixDynamicConfig.defaults());
  }

  private void publish(Mode mode, Map<String, Double> shares, GetafixDynamicConfig config)
  {
    holder.publish(new PlanSnapshot(1, 1, DateTimes.nowUtc(), mode, List.of(), "_default_tier",
                                    Map.of(SEGMENT.getId().toString(), shares), Map.of(), Map.of(), Set.of(), Map.of(),
                                    List.of(), config));
  }

  private static ServedSegments served(Set<String> holders)
  {
    return new ServedSegments()
    {
      @Override
      public Set<String> holders(DataSegment segment, String tier)
      {
        return holders;
      }

      @Override
      public Set<String> liveServers(String tier)
      {
        return Set.of("a", "b", "c");
      }
    };
  }

  private class RecordingHandler implements SegmentActionHandler
  {
    final List<Map<String, Integer>> calls = new ArrayList<>();
    boolean sawTarget;
    boolean sawTargetActing;

    @Override
    public void replicateSegment(DataSegment segment, Map<String, Integer> tierToReplicaCount)
    {
      calls.add(tierToReplicaCount);
      final ReplicaTarget target = handoff.currentRun() == null
                                   ? null
                                   : handoff.currentTargetFor(segment.getId().toString());
      sawTarget |= target != null;
      sawTargetActing |= target != null && target.acting();
    }

    @Override
    public void deleteSegment(DataSegment segment)
    {
      throw new AssertionError("a load rule never deletes");
    }

    @Override
    public void broadcastSegment(DataSegment segment)
    {
      throw new AssertionError("a load rule never broadcasts");
    }
  }
}
