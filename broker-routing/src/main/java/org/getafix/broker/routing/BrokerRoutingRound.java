package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Inject;
import org.apache.druid.client.coordinator.Coordinator;
import org.apache.druid.client.selector.ServerSelectorStrategy;
import org.apache.druid.discovery.DruidLeaderClient;
import org.apache.druid.discovery.DruidNodeDiscoveryProvider;
import org.apache.druid.guice.ManageLifecycle;
import org.apache.druid.guice.annotations.EscalatedGlobal;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.lifecycle.LifecycleStart;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.java.util.http.client.HttpClient;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.routing.FallbackReason;
import org.getafix.core.routing.RoutingCounters;
import org.getafix.core.routing.RoutingTableHolder;

import javax.annotation.Nullable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The Broker's routing round: every {@code druid.getafix.routing.period}, on its own thread, it refreshes what the
 * configured Getafix strategy needs (the Coordinator's routing table, the Historicals' queue reports), forgets
 * silent nodes, and emits the routing metrics. Query threads never wait on it. Does nothing when the Broker's
 * {@code druid.broker.balancer.type} is not a Getafix strategy.
 */
@ManageLifecycle
public class BrokerRoutingRound
{
  private static final Logger log = new Logger(BrokerRoutingRound.class);

  @Nullable
  private final GetafixServerSelectorStrategy strategy;
  private final BrokerRoutingState state;
  private final BrokerRoutingConfig config;
  private final ServiceEmitter emitter;
  private final RoutingTableClient tableClient;
  private final HistoricalQueueClient queueClient;
  private ScheduledExecutorService exec;

  @Inject
  public BrokerRoutingRound(
      ServerSelectorStrategy strategy,
      BrokerRoutingState state,
      BrokerRoutingConfig config,
      ServiceEmitter emitter,
      @Coordinator DruidLeaderClient coordinator,
      @EscalatedGlobal HttpClient httpClient,
      DruidNodeDiscoveryProvider discovery,
      @Json ObjectMapper jsonMapper
  )
  {
    this.strategy = strategy instanceof GetafixServerSelectorStrategy ? (GetafixServerSelectorStrategy) strategy : null;
    this.state = state;
    this.config = config;
    this.emitter = emitter;
    this.tableClient = new RoutingTableClient(coordinator, jsonMapper, state.tables(), System::nanoTime);
    this.queueClient = new HistoricalQueueClient(
        httpClient,
        discovery,
        jsonMapper,
        state.feedback(),
        config.getStatsPath(),
        config.getStatsTimeout().toStandardDuration(),
        System::nanoTime
    );
  }

  @LifecycleStart
  public void start()
  {
    if (strategy == null) {
      log.info("Broker balancer is not a Getafix strategy; the Getafix routing round stays off.");
      return;
    }
    final long periodMillis = config.getPeriod().toStandardDuration().getMillis();
    exec = Execs.scheduledSingleThreaded("GetafixRoutingRound-%d");
    exec.scheduleWithFixedDelay(this::runRound, 0, periodMillis, TimeUnit.MILLISECONDS);
    log.info(
        "Getafix routing round started: policy [%s], period [%s], routing table [%s], queue reports [%s].",
        strategy.policyName(), config.getPeriod(), strategy.usesRoutingTable(), strategy.usesQueueReports()
    );
  }

  @LifecycleStop
  public void stop()
  {
    if (exec != null) {
      exec.shutdownNow();
    }
  }

  /** One round. Catches everything: an exception escaping a scheduled task would silently end all later rounds. */
  void runRound()
  {
    try {
      if (strategy.usesRoutingTable()) {
        tableClient.refresh();
      }
      if (strategy.usesQueueReports()) {
        queueClient.refresh();
      }
      state.feedback().forgetSilentSince(
          System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(config.getForgetNodesAfter().toStandardDuration().getMillis())
      );
      emitMetrics(System.nanoTime());
    }
    catch (Throwable t) {
      log.error(t, "Getafix routing round failed; routing continues with the last known state.");
    }
  }

  void emitMetrics(long nowNanos)
  {
    final RoutingCounters.Counts counts = state.counters().drain();
    final String policy = strategy.policyName();
    emitter.emit(
        ServiceMetricEvent.builder()
                          .setDimension(MetricDimension.POLICY, policy)
                          .setMetric(GetafixMetric.ROUTE_PICKS.metricName(), counts.picks())
    );
    for (FallbackReason reason : FallbackReason.values()) {
      final long fallbacks = counts.fallbacks(reason);
      if (fallbacks > 0) {
        emitter.emit(
            ServiceMetricEvent.builder()
                              .setDimension(MetricDimension.POLICY, policy)
                              .setDimension(MetricDimension.REASON, reason.metricValue())
                              .setMetric(GetafixMetric.ROUTE_FALLBACKS.metricName(), fallbacks)
        );
      }
    }
    final RoutingTableHolder.Snapshot table = state.tables().snapshot();
    if (strategy.usesRoutingTable() && table.installed()) {
      // Not the table's version: it changes with every plan, so as a dimension it would make a new series each time.
      emitter.emit(
          ServiceMetricEvent.builder()
                            .setDimension(MetricDimension.POLICY, policy)
                            .setMetric(
                                GetafixMetric.ROUTE_TABLE_AGE.metricName(),
                                TimeUnit.NANOSECONDS.toMillis(table.ageNanos(nowNanos))
                            )
      );
    }
  }
}
