package org.getafix.druid.coordinator.plan;

import com.google.inject.Inject;
import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.placement.PlanKeeper;
import org.getafix.core.placement.PlanningRound;
import org.getafix.core.placement.plan.PlacementPlan;
import org.getafix.core.placement.tiering.Tier;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The end of each round: the immutable {@link PlanSnapshot} published to {@link GetafixPlanHolder}, for the getafix
 * rule, the getafix strategy and the HTTP endpoints, and the round's metrics. Numbers the rounds; used by the round
 * thread only.
 */
public class PlanPublisher
{
  private static final Logger log = new Logger(PlanPublisher.class);
  /** Share changes up to this keep the routing table's version (see {@link PlanSnapshot#sameRouting}). */
  private static final double SHARE_TOLERANCE = 0.02;

  private final GetafixConfig config;
  private final GetafixPlanHolder holder;
  private final ServiceEmitter emitter;
  private long round;
  private long startNanos;
  private long loadsReported;
  private long dropsReported;

  @Inject
  public PlanPublisher(GetafixConfig config, GetafixPlanHolder holder, ServiceEmitter emitter)
  {
    this.config = config;
    this.holder = holder;
    this.emitter = emitter;
  }

  /** Starts the next round; returns its number. */
  public long startRound()
  {
    startNanos = System.nanoTime();
    return ++round;
  }

  /** A round that plans nothing, e.g. while not leading or disabled. */
  public void withoutPlan(Mode mode, String why, GetafixDynamicConfig dynamic)
  {
    holder.publish(PlanSnapshot.withoutPlan(round, DateTimes.nowUtc(), mode, List.of(why), config.getTier(), dynamic));
  }

  /** A round refused for an invalid dynamic config, which only a metadata store the endpoint did not check holds. */
  public void invalidConfig(List<String> invalid, GetafixDynamicConfig dynamic)
  {
    invalid.forEach(problem -> log.error("Getafix refuses to act: invalid dynamic config: %s", problem));
    emit(ServiceMetricEvent.builder(), GetafixMetric.REFUSED, 1);
    holder.publish(PlanSnapshot.withoutPlan(round, DateTimes.nowUtc(), Mode.REFUSED, invalid, config.getTier(),
                                            dynamic));
  }

  /** Why Getafix must not act with the Coordinator configured as it is; empty when all is well. */
  public void configurationProblems(List<String> problems)
  {
    for (String problem : problems) {
      log.error("Getafix refuses to act: %s", problem);
    }
    emit(ServiceMetricEvent.builder(), GetafixMetric.REFUSED, problems.isEmpty() ? 0 : 1);
  }

  /**
   * What the round read and observed, and the plan-driven churn the Coordinator runs issued since the last round.
   *
   * @param loadsIssued plan-driven loads issued since the Coordinator started
   * @param dropsIssued plan-driven drops issued since the Coordinator started
   */
  public void observed(RoundInput input, PlanningRound.Observed observed, long loadsIssued, long dropsIssued)
  {
    holder.countStatsProblems(input.statsMissing().size(), input.statsImplausible().size());
    input.statsMissing().keySet().forEach(node -> emit(
        forServer(node), GetafixMetric.STATS_MISSING, 1
    ));
    input.statsImplausible().forEach((node, field) -> emit(
        forServer(node).setDimension(MetricDimension.REASON, field), GetafixMetric.STATS_REJECTED, 1
    ));
    observed.capacities().forEach((node, capacity) -> emit(
        forServer(node), GetafixMetric.NODE_CAPACITY, capacity
    ));
    observed.slowRounds().forEach((node, slow) -> {
      emit(forServer(node), GetafixMetric.NODE_SLOW_ROUNDS, slow);
      emit(forServer(node), GetafixMetric.NODE_UNSTABLE, observed.unstable().contains(node) ? 1 : 0);
    });
    emit(ServiceMetricEvent.builder(), GetafixMetric.REPLICAS_ACTUAL,
         input.holders().values().stream().mapToInt(Set::size).sum());
    emit(ServiceMetricEvent.builder(), GetafixMetric.SEGMENT_LOADS, loadsIssued - loadsReported);
    emit(ServiceMetricEvent.builder(), GetafixMetric.SEGMENT_DROPS, dropsIssued - dropsReported);
    loadsReported = loadsIssued;
    dropsReported = dropsIssued;
  }

  /** A round that may not plan yet: no full round of stats since (re)starting, or no live Historical. */
  public void warmingUp(List<String> problems, String why, PlanningRound.Observed observed, GetafixDynamicConfig dynamic)
  {
    final List<String> all = new ArrayList<>(problems);
    all.add(why);
    holder.publish(new PlanSnapshot(round, 0, DateTimes.nowUtc(), Mode.WARMING_UP, all, config.getTier(), Map.of(),
                                    observed.popularity(), observed.capacities(), observed.unstable(), Map.of(),
                                    List.of(), dynamic));
    emitRoundTime();
  }

  /**
   * A planned round: ACTIVE, or DRY_RUN, or REFUSED for the given configuration problems. The routing table keeps
   * its version while the plan routes the same.
   */
  public void planned(
      List<String> problems,
      PlanningRound.Observed observed,
      PlanningRound.Result result,
      GetafixDynamicConfig dynamic
  )
  {
    final Map<String, Tier> nodeTiers = result.tiers();
    nodeTiers.forEach((node, t) -> emit(
        forServer(node).setDimension(MetricDimension.GETAFIX_TIER, t.name()),
        GetafixMetric.NODE_TIER,
        t == Tier.HOT ? 2 : t == Tier.WARM ? 1 : 0
    ));
    result.tieringAccuracy(config.getHardwareTiers()).ifPresent(
        accuracy -> emit(ServiceMetricEvent.builder(), GetafixMetric.TIERING_ACCURACY, accuracy)
    );
    final PlacementPlan plan = result.plan();
    emit(ServiceMetricEvent.builder(), GetafixMetric.REPLICAS_PLANNED, plan.totalReplicas());
    final PlanKeeper.Verdict verdict = result.verdict();
    if (verdict != null) {
      final String reason = StringUtils.toLowerCase(verdict.reason().name());
      emit(
          ServiceMetricEvent.builder().setDimension(MetricDimension.REASON, reason),
          GetafixMetric.PLAN_KEPT,
          verdict.adopted() ? 0 : 1
      );
      emit(ServiceMetricEvent.builder(), GetafixMetric.PLAN_REPAIRED, verdict.repaired());
      emit(
          ServiceMetricEvent.builder(),
          GetafixMetric.PLAN_PEAK,
          verdict.adopted() ? verdict.freshPeak() : verdict.keptPeak()
      );
    }

    final PlanSnapshot previous = holder.snapshot();
    final Mode mode = !problems.isEmpty() ? Mode.REFUSED : dynamic.isDryRun() ? Mode.DRY_RUN : Mode.ACTIVE;
    final boolean unchanged = previous.version() > 0
                              && PlanSnapshot.sameRouting(previous.shares(), plan.shares(), SHARE_TOLERANCE);
    holder.publish(new PlanSnapshot(
        round,
        unchanged ? previous.version() : round,
        DateTimes.nowUtc(),
        mode,
        problems,
        config.getTier(),
        unchanged ? previous.shares() : plan.shares(),
        observed.popularity(),
        observed.capacities(),
        observed.unstable(),
        nodeTiers,
        plan.unplaced(),
        dynamic
    ));
    emitRoundTime();
  }

  private void emitRoundTime()
  {
    emit(ServiceMetricEvent.builder(), GetafixMetric.ROUND_TIME,
         TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
  }

  private static ServiceMetricEvent.Builder forServer(String node)
  {
    return ServiceMetricEvent.builder().setDimension(MetricDimension.SERVER, node);
  }

  private void emit(ServiceMetricEvent.Builder builder, GetafixMetric metric, Number value)
  {
    emitter.emit(builder.setDimension(MetricDimension.TIER, config.getTier()).setMetric(metric.metricName(), value));
  }
}
