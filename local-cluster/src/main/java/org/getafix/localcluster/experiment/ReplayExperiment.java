package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.wire.QueryContextKeys;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.client.QualityClient;
import org.getafix.localcluster.cluster.LocalDruidCluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * What the quality monitor's replays (Ubora §6.4) cost the Historicals, and what they do to online queries and to the
 * Broker's sampled-quality estimate, on {@link BudgetExperiment}'s cluster, data and calibration: one replica per
 * segment, the straggler throttled throughout a run, the hourly straggler queries at the calibrated admission budget
 * (the whole answers' p90 under the calibration's load), so that under the busy load most answers are cut.
 *
 * <p>Each run restarts the Broker with one {@link ReplaySetup} (so that its counters and estimate cover the run's
 * queries only) and runs the {@link BusyQuietCycles}. Every budgeted query is sampled at
 * {@link ReplaySetup#MATURE_SAMPLE_RATE}, one mature run at a time: in the busy phases that run waits on the straggler
 * and the other samples are skipped. With replays off a skipped sample stays unmeasured; with replays on, one cut at
 * its budget is queued, and replayed whole in a quiet phase (the Broker idle) or, when the queue would outlast its
 * oldest entry's expiration, at once, busy or not. Around every phase the experiment reads the Historicals' and the
 * Broker's CPU time and the quality endpoint's counters ({@link ReplayRun}).
 *
 * @param budget the cluster, its data, its straggler and the calibration's settings
 * @param cycles the load every run sends
 */
public record ReplayExperiment(BudgetExperiment budget, BusyQuietCycles cycles)
{
  private static final Duration BROKER_RESTART = Duration.ofMinutes(10);

  /**
   * A run of {@code setup}: the Broker restarted with it, the straggler throttled, the cycles at the calibrated
   * admission budget. Leaves the straggler's CPU restored and the Broker as the run set it: call
   * {@link BudgetExperiment#restore} when done.
   */
  public ReplayRun run(ReplaySetup setup, BudgetExperiment.Calibration calibration) throws Exception
  {
    final LocalDruidCluster cluster = budget.cluster();
    final String prefix = budget.settings().queryIdPrefix() + "replay-" + setup.name().toLowerCase(Locale.ROOT) + "-";
    final long budgetMs = calibration.admissionBudgetMs();
    // Numbered across the run rather than by each busy phase's own load, so that no two queries of a run share an id.
    final AtomicLong numbers = new AtomicLong();
    final LongFunction<BudgetLoad.Request> queries = ignored -> {
      final long i = numbers.getAndIncrement();
      return new BudgetLoad.Request(
          NativeQuery.withContext(BudgetExperiment.sizedQuery(budget.dataset(), i), Map.of(
              QueryContextKeys.BUDGET_MS, budgetMs,
              "queryId", prefix + i
          )),
          true
      );
    };
    cluster.setCpuQuota(budget.straggler(), budget.settings().stragglerCores());
    try {
      cluster.restartBroker(setup.brokerProperties(), BROKER_RESTART);
      final QualityClient quality = new QualityClient(cluster.broker().uri());
      Reading before = Reading.now(cluster, quality);
      final List<ReplayRun.Phase> phases = new ArrayList<>();
      for (BusyQuietCycles.Phase phase : cycles.phases()) {
        final List<BudgetLoad.Outcome> outcomes = phase.kind() == BusyQuietCycles.Kind.BUSY
                                                  ? busy(phase.length(), queries)
                                                  : quiet(phase.length());
        final Reading after = Reading.now(cluster, quality);
        phases.add(new ReplayRun.Phase(
            phase.kind(),
            TimeUnit.NANOSECONDS.toMillis(after.nanos() - before.nanos()),
            after.cpu().historicalSecondsSince(before.cpu()),
            after.cpu().brokerSecondsSince(before.cpu()),
            after.counters().minus(before.counters()),
            outcomes
        ));
        before = after;
      }
      return ReplayRun.of(setup, phases, before.state());
    }
    finally {
      budget.restoreStraggler();
    }
  }

  /** {@code length} of closed-loop clients, then the wait for their queries in flight; returns every outcome. */
  private List<BudgetLoad.Outcome> busy(Duration length, LongFunction<BudgetLoad.Request> queries) throws Exception
  {
    final BudgetLoad load = new BudgetLoad(budget.cluster(), BudgetExperiment.INTERVAL, null);
    try {
      load.closedLoop(cycles.busyClients(), queries);
      load.awaitCompleted("a busy phase", Integer.MAX_VALUE, length);
    }
    finally {
      load.stop();
    }
    return load.outcomes(o -> true);
  }

  private static List<BudgetLoad.Outcome> quiet(Duration length) throws InterruptedException
  {
    Thread.sleep(length.toMillis());
    return List.of();
  }

  /** The load and the Broker's settings in words, for reports. */
  public String describe(BudgetExperiment.Calibration calibration)
  {
    return String.format(
        Locale.ROOT,
        "%d cycles of %d s with %d closed-loop clients sending the straggler queries at the admission budget of %d ms, "
        + "then %d s without a query; the Broker restarted per run with matureSampleRate %s, maxMatureRuns %d, "
        + "replayExpiration %s, replayIdleQueries %d and replayQueueSize %d (%s) or %d (%s)",
        cycles.cycles(), cycles.busy().toSeconds(), cycles.busyClients(), calibration.admissionBudgetMs(),
        cycles.quiet().toSeconds(), ReplaySetup.MATURE_SAMPLE_RATE, ReplaySetup.MAX_MATURE_RUNS,
        ReplaySetup.REPLAY_EXPIRATION, ReplaySetup.REPLAY_IDLE_QUERIES,
        ReplaySetup.REPLAY_OFF.replayQueueSize(), ReplaySetup.REPLAY_OFF, ReplaySetup.REPLAY_ON.replayQueueSize(),
        ReplaySetup.REPLAY_ON
    );
  }

  /** The CPU time and the quality endpoint's state at one moment. */
  private record Reading(long nanos, CpuReading cpu, JsonNode state, SampleCounters counters)
  {
    static Reading now(LocalDruidCluster cluster, QualityClient quality)
    {
      final long nanos = System.nanoTime();
      final CpuReading cpu = CpuReading.of(cluster);
      final JsonNode state = quality.qualityState();
      return new Reading(nanos, cpu, state, SampleCounters.of(state));
    }
  }
}
