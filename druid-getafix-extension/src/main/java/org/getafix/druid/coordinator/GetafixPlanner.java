package org.getafix.druid.coordinator;

import com.google.inject.Inject;
import org.apache.druid.common.config.JacksonConfigManager;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.lifecycle.LifecycleStart;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;
import org.apache.druid.java.util.emitter.EmittingLogger;
import org.apache.druid.server.coordinator.DruidCoordinator;
import org.getafix.core.placement.PlanningRound;
import org.getafix.druid.coordinator.config.GetafixConfig;
import org.getafix.druid.coordinator.config.GetafixDynamicConfig;
import org.getafix.druid.coordinator.load.RealiseMonitor;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanPublisher;
import org.getafix.druid.coordinator.plan.RoundInput;
import org.getafix.druid.coordinator.plan.RoundPlanner;
import org.getafix.druid.coordinator.stats.RoundReader;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Getafix round on the leading Coordinator, every {@code druid.getafix.round.period}: {@link RoundReader} reads
 * the round from Druid, {@link RoundPlanner} plans it with getafix-core, and {@link PlanPublisher} publishes the
 * plan snapshot and the metrics, and {@link RealiseMonitor} tells whether Druid's runs can act on the plan and what
 * they issued. This class decides whether a round may plan at all: leading, enabled, a valid config, not rolling
 * back, warm.
 *
 * <p>Runs on an executor of its own, managed by Druid's lifecycle, rather than as a {@code CoordinatorCustomDuty}:
 * a custom duty gets neither the {@code DruidCluster} nor the server inventory, runs at the Coordinator period
 * (PT60S by default, far from the thesis' 5 s round) and would add blocking HTTP pulls to the Coordinator's duty
 * thread. Our executor keeps the round period, and a slow Historical delays only the plan, never Druid's duties.
 * The state that spans rounds (popularity, capacity, counters) is reset on every leader change, so a new leader
 * warms up before it acts.
 */
public class GetafixPlanner
{
  private static final EmittingLogger log = new EmittingLogger(GetafixPlanner.class);

  private final GetafixConfig config;
  private final DruidCoordinator coordinator;
  private final JacksonConfigManager configManager;
  private final RealiseMonitor realise;
  private final RoundReader reader;
  private final PlanPublisher publisher;
  private final RoundPlanner planner;

  private ScheduledExecutorService exec;
  private AtomicReference<GetafixDynamicConfig> dynamicConfig;
  /** Touched by the round thread only. */
  private boolean leading;

  @Inject
  public GetafixPlanner(
      GetafixConfig config,
      DruidCoordinator coordinator,
      JacksonConfigManager configManager,
      RealiseMonitor realise,
      RoundReader reader,
      PlanPublisher publisher
  )
  {
    this.config = config;
    this.coordinator = coordinator;
    this.configManager = configManager;
    this.realise = realise;
    this.reader = reader;
    this.publisher = publisher;
    this.planner = new RoundPlanner(config);
  }

  @LifecycleStart
  public synchronized void start()
  {
    realise.install(reader.servedSegments());
    exec = Execs.scheduledSingleThreaded("getafix-round-%d");
    exec.schedule(this::runRound, config.getRoundPeriodMillis(), TimeUnit.MILLISECONDS);
    log.info("Getafix planner started for tier [%s], round period [%d] ms.", config.getTier(),
             config.getRoundPeriodMillis());
  }

  @LifecycleStop
  public synchronized void stop()
  {
    if (exec != null) {
      exec.shutdownNow();
      exec = null;
    }
  }

  private void runRound()
  {
    long periodMillis = config.getRoundPeriodMillis();
    try {
      final GetafixDynamicConfig dynamic = currentDynamicConfig();
      if (dynamic.validate().isEmpty()) {
        periodMillis = dynamic.roundPeriodMillisOr(periodMillis);
      }
      doRound(dynamic);
    }
    catch (Throwable t) {
      // Never let a round kill the loop; the last published snapshot stays in force.
      log.makeAlert(t, "Getafix round failed; keeping the previous plan").emit();
    }
    finally {
      synchronized (this) {
        if (exec != null && !exec.isShutdown()) {
          exec.schedule(this::runRound, periodMillis, TimeUnit.MILLISECONDS);
        }
      }
    }
  }

  private GetafixDynamicConfig currentDynamicConfig()
  {
    if (dynamicConfig == null) {
      dynamicConfig = configManager.watch(
          GetafixDynamicConfig.CONFIG_KEY,
          GetafixDynamicConfig.class,
          GetafixDynamicConfig.defaults()
      );
    }
    final GetafixDynamicConfig current = dynamicConfig.get();
    return current == null ? GetafixDynamicConfig.defaults() : current;
  }

  void doRound(GetafixDynamicConfig dynamic)
  {
    publisher.startRound();
    if (!mayPlan(dynamic)) {
      return;
    }
    final List<String> problems = realise.problems();
    publisher.configurationProblems(problems, dynamic.isDryRun());
    final RoundInput input = reader.read(planner.inheritsPopularity());
    final PlanningRound.Observed observed = planner.observe(input);
    reader.forget(observed.departed());
    publisher.observed(input, observed, realise.loadsIssued(), realise.loadBytesIssued(), realise.dropsIssued());
    if (input.nodes().isEmpty()) {
      publisher.warmingUp(problems, "no live Historical in tier [" + config.getTier() + "]", observed, dynamic);
    } else if (!planner.isWarm()) {
      publisher.warmingUp(problems, "warming up: waiting for one full round of stats", observed, dynamic);
    } else {
      publisher.planned(problems, observed, planner.plan(input, dynamic), dynamic);
    }
  }

  /** Whether this round may read and plan: leading, enabled and with a valid config; publishes why not. */
  private boolean mayPlan(GetafixDynamicConfig dynamic)
  {
    if (!coordinator.isLeader()) {
      if (leading) {
        log.info("No longer the leading Coordinator: Getafix stops planning.");
        leading = false;
        reset();
      }
      publisher.withoutPlan(Mode.NOT_LEADER, "this Coordinator is not the leader", dynamic);
      return false;
    }
    if (!leading) {
      log.info("Leading Coordinator: Getafix warms up (one full round of stats) before acting.");
      leading = true;
      reset();
    }
    if (!dynamic.isEnabled()) {
      // Re-enabling must warm up again: stats gathered before were not diffed in the meantime.
      reset();
      publisher.withoutPlan(Mode.DISABLED, "enabled=false in the Getafix dynamic config", dynamic);
      return false;
    }
    final List<String> invalid = dynamic.validate();
    if (!invalid.isEmpty()) {
      publisher.invalidConfig(invalid, dynamic);
      return false;
    }
    if (dynamic.isRollback()) {
      // A plan made after the rollback must start from fresh stats, as after re-enabling.
      reset();
      final List<String> problems = realise.problems();
      publisher.configurationProblems(problems, false);
      publisher.rollingBack(problems, realise.rollbackProgress(), dynamic);
      return false;
    }
    return true;
  }

  private void reset()
  {
    reader.reset();
    planner.reset();
  }
}
