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
import org.getafix.core.realise.Rollback;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
  /** A whole plan adopted at once changes every segment; the log line lists this many of them. */
  private static final int MAX_CHANGES_LOGGED = 20;

  private final GetafixConfig config;
  private final GetafixPlanHolder holder;
  private final ServiceEmitter emitter;
  private long round;
  private long startNanos;
  private long loadsReported;
  private long loadBytesReported;
  private long dropsReported;
  @Nullable
  private Rollback.Phase loggedRollbackPhase;
  /** The plan's changes waiting for the rebalancing budget when that number was last logged. */
  private int deferredLogged;

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
    loggedRollbackPhase = null;
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

  /**
   * A round of a rollback: no plan, the rule walks segments back to its stock counts, unless the Coordinator's
   * configuration stops the getafix strategy from pacing it (then REFUSED, and nothing changes). Logs each change of
   * phase, so that the operator reads in the log when the rollback is done.
   *
   * @param progress what the last Coordinator run left; null before a run has rolled back
   */
  public void rollingBack(List<String> problems, @Nullable Rollback.Progress progress, GetafixDynamicConfig dynamic)
  {
    if (!problems.isEmpty()) {
      holder.publish(PlanSnapshot.withoutPlan(round, DateTimes.nowUtc(), Mode.REFUSED, problems, config.getTier(),
                                              dynamic));
      return;
    }
    final List<String> why = new ArrayList<>();
    why.add("rollback=true in the Getafix dynamic config: every segment walks back to the rule's stockReplicants");
    if (progress != null) {
      why.add(rollbackLine(progress));
      emit(ServiceMetricEvent.builder(), GetafixMetric.ROLLBACK_BELOW_STOCK, progress.belowStock());
      emit(ServiceMetricEvent.builder(), GetafixMetric.ROLLBACK_ABOVE_STOCK, progress.aboveStock());
      if (progress.phase() != loggedRollbackPhase) {
        log.info("Getafix %s", why.get(1));
        loggedRollbackPhase = progress.phase();
      }
    }
    holder.publish(PlanSnapshot.withoutPlan(round, DateTimes.nowUtc(), Mode.ROLLING_BACK, why, config.getTier(),
                                            dynamic));
  }

  private static String rollbackLine(Rollback.Progress progress)
  {
    return switch (progress.phase()) {
      case LOADING -> StringUtils.format(
          "rollback loading: %d of %d segments have fewer replicas than stockReplicants; nothing is dropped until none",
          progress.belowStock(), progress.segments()
      );
      case DROPPING -> StringUtils.format(
          "rollback dropping: %d of %d segments have more replicas than stockReplicants",
          progress.aboveStock(), progress.segments()
      );
      case DONE -> StringUtils.format(
          "rollback done: all %d segments have their stockReplicants; the getafix rule may now be replaced by the"
          + " stock rule",
          progress.segments()
      );
    };
  }

  /**
   * Why Getafix must not act with the Coordinator configured as it is; empty when all is well. A dry run changes
   * nothing either way, so there they are warnings of what would stop it once {@code dryRun=false}.
   */
  public void configurationProblems(List<String> problems, boolean dryRun)
  {
    for (String problem : problems) {
      if (dryRun) {
        log.warn("Getafix dry run: once dryRun=false, Getafix would refuse to act: %s", problem);
      } else {
        log.error("Getafix refuses to act: %s", problem);
      }
    }
    emit(ServiceMetricEvent.builder(), GetafixMetric.REFUSED, problems.isEmpty() ? 0 : 1);
  }

  /**
   * What the round read and observed, and the plan-driven churn the Coordinator runs issued since the last round.
   *
   * @param loadsIssued plan-driven loads issued since the Coordinator started
   * @param loadBytesIssued the bytes of the segments of those loads
   * @param dropsIssued plan-driven drops issued since the Coordinator started
   */
  public void observed(
      RoundInput input,
      PlanningRound.Observed observed,
      long loadsIssued,
      long loadBytesIssued,
      long dropsIssued
  )
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
    emit(ServiceMetricEvent.builder(), GetafixMetric.SEGMENT_LOAD_BYTES, loadBytesIssued - loadBytesReported);
    loadsReported = loadsIssued;
    loadBytesReported = loadBytesIssued;
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
   * A planned round: DRY_RUN (the problems are then warnings), or ACTIVE, or REFUSED for the given configuration
   * problems. The routing table keeps its version while the plan routes the same.
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
      if (!verdict.changes().isEmpty()) {
        log.info("%s", holderChanges(round, verdict, observed));
      }
      if (verdict.deferred() != deferredLogged) {
        log.info("%s", deferredChanges(round, verdict.deferred(), deferredLogged));
        deferredLogged = verdict.deferred();
      }
    }

    loggedRollbackPhase = null;
    final PlanSnapshot previous = holder.snapshot();
    final Mode mode = dynamic.isDryRun() ? Mode.DRY_RUN : problems.isEmpty() ? Mode.ACTIVE : Mode.REFUSED;
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

  /**
   * One line for a round whose plan changes some segment's holders, each with its cause, so that every load and drop
   * the plan asks of Druid can be traced to why, beside the estimates it was planned from.
   */
  static String holderChanges(long round, PlanKeeper.Verdict verdict, PlanningRound.Observed observed)
  {
    final List<String> listed = new ArrayList<>();
    for (PlanKeeper.HolderChange change : verdict.changes().subList(0, Math.min(MAX_CHANGES_LOGGED, verdict.changes().size()))) {
      listed.add(StringUtils.format(
          "%s %s -> %s %s%s",
          change.segmentId(),
          new TreeSet<>(change.before()),
          new TreeSet<>(change.after()),
          StringUtils.toLowerCase(change.cause().name()),
          change.detail().isEmpty() ? "" : " (" + change.detail() + ")"
      ));
    }
    final Map<String, String> capacities = new TreeMap<>();
    observed.capacities().forEach((node, capacity) -> capacities.put(node, StringUtils.format("%.3f", capacity)));
    final int more = verdict.changes().size() - listed.size();
    return StringUtils.format(
        "Getafix round %d changes the holders of %d segments (plan %s, peak %.3f of the mean against the fresh plan's"
        + " %.3f; capacities %s, unstable %s): %s%s",
        round,
        verdict.changes().size(),
        StringUtils.toLowerCase(verdict.reason().name()),
        verdict.keptPeak(),
        verdict.freshPeak(),
        capacities,
        new TreeSet<>(observed.unstable()),
        String.join("; ", listed),
        more > 0 ? StringUtils.format("; and %d more", more) : ""
    );
  }

  /**
   * One line when the number of the plan's changes that wait for the rebalancing budget changes, so that the log tells
   * why a plan stays as it is (and when the wait ends) without a line every round.
   */
  static String deferredChanges(long round, int deferred, int before)
  {
    return deferred == 0
           ? StringUtils.format("Getafix round %d: no change of the plan waits for the rebalancing budget any more", round)
           : StringUtils.format(
               "Getafix round %d: %d changes of the plan (repairs, splits or growths that load) wait for the"
               + " rebalancing budget, maxRebalanceDataPerHour (was %d)",
               round,
               deferred,
               before
           );
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
