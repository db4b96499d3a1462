package org.getafix.broker.routing;

import org.apache.druid.java.util.emitter.core.Emitter;
import org.apache.druid.java.util.emitter.core.Event;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.routing.FallbackReason;
import org.getafix.core.routing.RoutingPolicies;
import org.getafix.core.routing.RoutingTable;
import org.joda.time.Period;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BrokerRoutingRoundTest
{
  @Test
  void emitsPicksFallbacksAndTableAge()
  {
    final BrokerRoutingState state = new BrokerRoutingState(BrokerRoutingConfig.defaults());
    final List<ServiceMetricEvent> events = new CopyOnWriteArrayList<>();
    final ServiceEmitter serviceEmitter = new ServiceEmitter("druid/broker", "localhost", new Emitter()
    {
      @Override
      public void start()
      {
      }

      @Override
      public void emit(Event event)
      {
        events.add((ServiceMetricEvent) event);
      }

      @Override
      public void flush()
      {
      }

      @Override
      public void close()
      {
      }
    });
    final BrokerRoutingRound round = new BrokerRoutingRound(
        new GetafixServerSelectorStrategy(RoutingPolicies.ABR, state, null, System::nanoTime, new java.util.Random(1)),
        state,
        BrokerRoutingConfig.defaults(),
        serviceEmitter,
        null,
        null,
        null,
        null
    );
    state.counters().recordPick();
    state.counters().recordPick();
    state.counters().recordFallback(FallbackReason.NOT_HELD);
    state.tables().install(RoutingTable.of(4, 0, Map.of()), 1_000_000_000L);

    round.emitMetrics(3_500_000_000L);

    assertEquals(3, events.size());
    assertEquals(GetafixMetric.ROUTE_PICKS.metricName(), events.get(0).getMetric());
    assertEquals(2L, events.get(0).getValue());
    assertEquals("getafixAbr", events.get(0).getUserDims().get("policy"));
    assertEquals(GetafixMetric.ROUTE_FALLBACKS.metricName(), events.get(1).getMetric());
    assertEquals("notHeld", events.get(1).getUserDims().get("reason"));
    assertEquals(1L, events.get(1).getValue());
    assertEquals(GetafixMetric.ROUTE_TABLE_AGE.metricName(), events.get(2).getMetric());
    assertEquals(2500L, events.get(2).getValue());
    assertEquals(Map.of("policy", "getafixAbr"), events.get(2).getUserDims());

    // Counters are per period.
    events.clear();
    round.emitMetrics(3_500_000_000L);
    assertEquals(0L, events.get(0).getValue());
  }
}
