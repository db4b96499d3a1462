package org.getafix.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.experiment.BusyQuietCycles;
import org.getafix.localcluster.experiment.OnlineFigures;
import org.getafix.localcluster.experiment.ReplayExperiment;
import org.getafix.localcluster.experiment.ReplayRun;
import org.getafix.localcluster.experiment.ReplaySetup;
import org.getafix.localcluster.experiment.SampleCounters;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.BUSY;
import static org.getafix.localcluster.experiment.BusyQuietCycles.Kind.QUIET;

/**
 * The replay experiment of {@code ./getafix bench live}: what the quality monitor's replays of skipped samples (Ubora
 * §6.4) cost the Historicals, and what they do to online queries and to the Broker's sampled-quality estimate, on a
 * fresh cluster with a straggler, calibrated once as the admission experiment is ({@link ReplayExperiment}). Each
 * repetition runs the Broker with replays off and on, the order reversed every other repetition; the ratios are
 * replays on over off within a repetition: the busy phases' response times and Historical CPU, and the whole run's
 * Historical CPU. Beside them each setup's samples and replays, and its estimate against the true mean quality.
 */
final class ReplayBench
{
  static final String DATA_SOURCE = "getafix_replay";
  static final String OFF = ReplaySetup.REPLAY_OFF.name();
  static final String ON = ReplaySetup.REPLAY_ON.name();
  static final String TRUTH_WITHIN = "true mean quality within the estimate's 95% interval (1 = yes)";
  /** Replays off first, as the baseline runs first in the other comparisons; replays on over off. */
  static final AbbaComparison<Figures> COMPARISON = new AbbaComparison<>(
      "replay",
      List.of(OFF, ON),
      ON,
      OFF,
      List.of(
          new Figure<>("busy phases: mean response time", f -> f.busy().meanMillis()),
          new Figure<>("busy phases: p99 response time", f -> f.busy().p99Millis()),
          new Figure<>("busy phases: Historical CPU", f -> f.run().historicalCpuSeconds(BUSY)),
          new Figure<>("whole run: Historical CPU", f -> f.run().historicalCpuSeconds())
      ),
      List.of(
          new Figure<>("busy phases: queries answered", f -> f.busy().answered()),
          new Figure<>("busy phases: queries failed", f -> f.busy().failed()),
          new Figure<>("busy phases: mean response time (ms)", f -> f.busy().meanMillis()),
          new Figure<>("busy phases: p99 response time (ms)", f -> f.busy().p99Millis()),
          new Figure<>("busy phases: mean coverage", f -> f.busy().meanCoverage()),
          new Figure<>("Historical CPU in the busy phases (s)", f -> f.run().historicalCpuSeconds(BUSY)),
          new Figure<>("Historical CPU in the quiet phases (s)", f -> f.run().historicalCpuSeconds(QUIET)),
          new Figure<>("Historical CPU per answered query (ms)", f -> f.run().historicalCpuMillisPerAnswer()),
          new Figure<>("Broker CPU (s)", f -> f.run().brokerCpuSeconds()),
          new Figure<>("samples", f -> f.samples().sampled()),
          new Figure<>("samples with a mature run", f -> f.samples().matureStarted()),
          new Figure<>("samples skipped", f -> f.samples().matureSkipped()),
          new Figure<>("skipped samples answered whole (no replay needed)", f -> f.samples().replaysUnneeded()),
          new Figure<>("replays queued", f -> f.samples().replaysQueued()),
          new Figure<>("replays started in busy phases", f -> f.run().counters(BUSY).replaysStarted()),
          new Figure<>("replays started in quiet phases", f -> f.run().counters(QUIET).replaysStarted()),
          new Figure<>("replays completed", f -> f.samples().replaysCompleted()),
          new Figure<>("replays failed", f -> f.samples().replaysFailed()),
          new Figure<>("replays dropped, expired", f -> f.samples().replaysDroppedExpired()),
          new Figure<>("replays dropped, queue full", f -> f.samples().replaysDroppedFull()),
          new Figure<>("replays queued or running at the end", f -> f.run().unfinishedAtEnd()),
          new Figure<>("runs measured for the estimate", f -> f.run().estimate().measuredRuns()),
          new Figure<>("estimated mean quality", f -> f.run().estimate().estimate()),
          new Figure<>("its 95% half-width", f -> f.run().estimate().confidence95()),
          new Figure<>("true mean quality (mean coverage of every answer)", f -> f.run().estimate().truth()),
          new Figure<>("estimate - truth", f -> f.run().estimate().error()),
          new Figure<>(TRUTH_WITHIN, f -> f.run().estimate().truthWithinInterval() ? 1 : 0)
      )
  );

  /** One setup's run, named by its setup for the comparison. */
  record Figures(ReplayRun run) implements AbbaComparison.Run
  {
    @Override
    public String setup()
    {
      return run.setup().name();
    }

    OnlineFigures busy()
    {
      return run.online(BUSY);
    }

    SampleCounters samples()
    {
      return run.counters();
    }
  }

  private final BenchRun bench;

  ReplayBench(BenchRun bench)
  {
    this.bench = bench;
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    return BudgetBench.run(bench, DATA_SOURCE, prepared -> {
      final ReplayExperiment experiment =
          new ReplayExperiment(prepared.experiment(), BusyQuietCycles.standard(bench.quick()));
      final List<Repetition<Figures>> done = COMPARISON.repeat(
          bench, setup -> new Figures(experiment.run(ReplaySetup.valueOf(setup), prepared.calibration()))
      );
      final String setup = prepared.setup() + "; " + experiment.describe(prepared.calibration());
      return bench.report(json(setup, done), html(setup, done), COMPARISON.text(done));
    });
  }

  /** {@code results.json}: {@link AbbaComparison#json}, and every run phase by phase. */
  static ObjectNode json(String setup, List<Repetition<Figures>> repetitions)
  {
    final ObjectNode root = COMPARISON.json(setup, repetitions);
    final ArrayNode runs = root.putArray("runs");
    for (int r = 0; r < repetitions.size(); r++) {
      for (Figures figures : repetitions.get(r).runs()) {
        final ObjectNode run = runs.addObject();
        run.put("repetition", r + 1);
        run.put("setup", figures.setup());
        final ArrayNode phases = run.putArray("phases");
        for (ReplayRun.Phase phase : figures.run().phases()) {
          final ObjectNode node = phases.addObject();
          final OnlineFigures online = OnlineFigures.of(phase.outcomes());
          node.put("kind", phase.kind().name());
          node.put("ms", phase.millis());
          node.put("historicalCpuSeconds", phase.historicalCpuSeconds());
          node.put("brokerCpuSeconds", phase.brokerCpuSeconds());
          node.put("queries", online.queries());
          node.put("answered", online.answered());
          node.put("meanMs", DemoReport.nullIfNaN(online.meanMillis()));
          node.put("meanCoverage", DemoReport.nullIfNaN(online.meanCoverage()));
          node.put("matureRunsStarted", phase.counters().matureStarted());
          node.put("samplesSkipped", phase.counters().matureSkipped());
          node.put("replaysQueued", phase.counters().replaysQueued());
          node.put("replaysStarted", phase.counters().replaysStarted());
          node.put("replaysCompleted", phase.counters().replaysCompleted());
          node.put("replaysDropped", phase.counters().replaysDropped());
        }
      }
    }
    return root;
  }

  static String html(String setup, List<Repetition<Figures>> repetitions)
  {
    return COMPARISON.html(
        "What the quality monitor's replays cost, with a straggler",
        setup,
        String.format(
            Locale.ROOT,
            "Each run restarts the Broker with every budgeted query sampled at %s and %d mature run at a time, so "
            + "that while it waits on the straggler the other samples are skipped; with replays off a skipped "
            + "sample stays unmeasured and the measured runs of its 10 s stand for it in the Broker's estimate, "
            + "with replays on one cut at its budget is queued (%d at most) and replayed whole while the Broker is "
            + "idle, or at once when the queue would outlast its oldest entry's expiration (%s). Then busy phases "
            + "of closed-loop clients alternate with quiet phases without a query. Around every phase the "
            + "Historicals' CPU time is read (their cgroups) with the quality endpoint's counters; at the end the "
            + "Broker's sampled-quality estimate is set against the true mean quality of the run's answers: for "
            + "these hourly timeseries an answer's quality is its answered share of the hours, known from its "
            + "coverage.",
            ReplaySetup.MATURE_SAMPLE_RATE, ReplaySetup.MAX_MATURE_RUNS, ReplaySetup.REPLAY_QUEUE_SIZE,
            ReplaySetup.REPLAY_EXPIRATION
        ),
        "Above 1 is more with replays on. The busy phases' ratios are what replays do to online queries: replays "
        + "that fall due start under load, and one started late in a quiet phase runs into the busy phase after it. "
        + "The whole run's CPU is what they cost the Historicals. CPU is counted by wall time: the work a busy phase "
        + "leaves on the straggler counts in the quiet phase after it, in both setups. The estimate's error is "
        + "estimate - truth: with replays off the estimate rests on the few samples whose mature run fitted; with "
        + "replays on the replayed ones measure themselves.",
        repetitions
    );
  }
}
