package org.getafix.demo;

import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.experiment.AdmissionResult;
import org.getafix.localcluster.experiment.AdmissionWindows;
import org.getafix.localcluster.experiment.BudgetExperiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.getafix.localcluster.experiment.BudgetExperiment.ANSWER_QUALITY;
import static org.getafix.localcluster.experiment.BudgetExperiment.GRADIENT2;
import static org.getafix.localcluster.experiment.BudgetExperiment.PREDICTED_QUALITY;
import static org.getafix.localcluster.experiment.BudgetExperiment.TIMEOUT_RATE;

/**
 * The admission experiment of {@code ./getafix bench live} (Ubora §8): the quality monitor's admission controller
 * guided by the measured quality of high-priority answers, and guided by the quality their coverage predicts as they
 * answer, against one guided by their timeout rate, and against Netflix concurrency-limits' Gradient2 on the Broker,
 * on a fresh cluster with a straggler ({@link BudgetExperiment#admissionRun}), calibrated once. Each repetition runs
 * the four policies, the order reversed every other repetition. The headline is the low-priority throughput the
 * quality-guided controller admits over the timeout-rate-guided one's at equal high-priority quality: counted only in
 * the time windows where both runs' high-priority queries met the target ({@link AdmissionWindows#equalQualityRatio});
 * beside it the whole-run ratio, each policy's high-priority quality, and a flag for each repetition where a
 * quality-guided controller's high-priority quality fell more than {@link #QUALITY_MARGIN} below the
 * timeout-rate-guided one's, where no throughput ratio is at equal quality.
 */
final class AdmissionBench
{
  static final String DATA_SOURCE = "getafix_admission";
  /** How far below the baseline's high-priority mean quality the quality-guided one's may be and still count equal. */
  static final double QUALITY_MARGIN = 0.02;
  /** Quality-guided first, as the integration test runs them; its figures over the timeout-rate-guided one's. */
  static final AbbaComparison<Figures> COMPARISON = new AbbaComparison<>(
      "admission",
      List.of(ANSWER_QUALITY, PREDICTED_QUALITY, TIMEOUT_RATE, GRADIENT2),
      ANSWER_QUALITY,
      TIMEOUT_RATE,
      List.of(
          new Figure<>("low-priority throughput, whole run", Figures::lowPriorityPerSecond),
          new Figure<>("low-priority throughput, late half", Figures::lowPriorityPerSecondLate),
          new Figure<>("high-priority mean quality", Figures::highPriorityMeanQuality),
          new Figure<>("high-priority mean response time", Figures::highPriorityMeanMillis)
      ),
      List.of(
          new Figure<>("high-priority mean quality", Figures::highPriorityMeanQuality),
          new Figure<>("high-priority windows at target", Figures::highPriorityTargetMetShare),
          new Figure<>("low-priority admitted per second", Figures::lowPriorityPerSecond),
          new Figure<>("low-priority admitted per second, late half", Figures::lowPriorityPerSecondLate),
          new Figure<>("high-priority failed", Figures::highPriorityFailed),
          new Figure<>("high-priority shed", Figures::highPriorityShed)
      ),
      List.of(
          equalQuality(ANSWER_QUALITY, TIMEOUT_RATE),
          equalQuality(ANSWER_QUALITY, GRADIENT2),
          qualityBelowBaseline(ANSWER_QUALITY),
          equalQuality(PREDICTED_QUALITY, TIMEOUT_RATE),
          qualityBelowBaseline(PREDICTED_QUALITY)
      )
  );

  /** 1 where {@code guided}'s high-priority quality fell more than {@link #QUALITY_MARGIN} below the timeout rate's. */
  private static AbbaComparison.PairRatio<Figures> qualityBelowBaseline(String guided)
  {
    return new AbbaComparison.PairRatio<>(
        qualityBelowBaselineName(guided), guided, TIMEOUT_RATE,
        (quality, timeout) -> belowBaseline(quality, timeout) ? 1 : 0
    );
  }

  /** Whether {@code guided}'s high-priority quality fell more than {@link #QUALITY_MARGIN} below {@code timeout}'s. */
  private static boolean belowBaseline(Figures guided, Figures timeout)
  {
    return guided.highPriorityMeanQuality() < timeout.highPriorityMeanQuality() - QUALITY_MARGIN;
  }

  static String qualityBelowBaselineName(String guided)
  {
    return guided + ": high-priority quality more than " + QUALITY_MARGIN + " below " + TIMEOUT_RATE + "'s (1 = yes)";
  }

  private static AbbaComparison.PairRatio<Figures> equalQuality(String numerator, String denominator)
  {
    return new AbbaComparison.PairRatio<>(
        equalQualityName(numerator, denominator), numerator, denominator,
        (a, b) -> a.windows().equalQualityRatio(b.windows(), BudgetExperiment.ADMISSION_TARGET).ratio()
    );
  }

  static String equalQualityName(String numerator, String denominator)
  {
    return numerator + " / " + denominator + ": low-priority throughput at equal high-priority quality (windows "
           + "where both met the target)";
  }

  /** One policy's run, as the report needs it. */
  record Figures(
      String setup,
      double highPriorityMeanQuality,
      double highPriorityMeanMillis,
      double lowPriorityPerSecond,
      double lowPriorityPerSecondLate,
      long highPriorityFailed,
      long highPriorityShed,
      AdmissionWindows windows
  ) implements AbbaComparison.Run
  {
    static Figures of(String signal, AdmissionResult result)
    {
      return new Figures(
          signal,
          result.highPriorityMeanQuality(),
          result.highPriorityMeanMillis(),
          result.lowPriorityPerSecond(),
          result.lowPriorityPerSecondLate(),
          result.highPriorityFailed(),
          result.highPriorityShed(),
          result.windows()
      );
    }

    double highPriorityTargetMetShare()
    {
      return windows.targetMetShare(BudgetExperiment.ADMISSION_TARGET);
    }
  }

  private final BenchRun bench;

  AdmissionBench(BenchRun bench)
  {
    this.bench = bench;
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    return BudgetBench.run(bench, DATA_SOURCE, prepared -> {
      bench.progress(String.format(
          Locale.ROOT,
          "probing the admission budget: the high-priority clients alone must keep quality %.2f",
          BudgetExperiment.ADMISSION_TARGET + BudgetExperiment.ADMISSION_BUDGET_HEADROOM
      ));
      final BudgetExperiment.ProbedAdmissionBudget probed =
          prepared.experiment().withProbedAdmissionBudget(prepared.calibration());
      bench.progress(probed.describe());
      final String setup = prepared.setup() + "; " + probed.describe();
      final List<Repetition<Figures>> done = COMPARISON.repeat(
          bench, signal -> Figures.of(signal, prepared.experiment().admissionRun(signal, probed.calibration()))
      );
      return bench.report(COMPARISON.json(setup, done), html(setup, done), COMPARISON.text(done));
    });
  }

  static String html(String setup, List<Repetition<Figures>> repetitions)
  {
    return COMPARISON.html(
        "Quality-guided (measured and predicted) vs timeout-rate-guided vs Gradient2 admission with a straggler",
        setup,
        String.format(
            Locale.ROOT,
            "Each run restarts the Broker with one admission policy: the PID controller guided by high-priority answer "
            + "quality (" + ANSWER_QUALITY + ": as the mature runs measure it; " + PREDICTED_QUALITY + ": as each "
            + "answer's coverage predicts it through the profile the mature runs teach, counted as it answers) or by "
            + "the high-priority timeout rate, all target %s and acting every %d s on that window's "
            + "samples, or Netflix concurrency-limits' Gradient2 limit on the queries in flight from their round-trip "
            + "times; then %d closed-loop high-priority clients (every query with a mature run) and open-loop "
            + "low-priority arrivals send the same straggler queries, all with the calibrated budget, until %d "
            + "high-priority queries have been answered or %d s have passed. Ubora's claim: more low-priority "
            + "throughput at equal high-priority quality (+55%%).",
            BudgetExperiment.ADMISSION_TARGET, BudgetExperiment.ADMISSION_CONTROL_WINDOW.toSeconds(),
            BudgetExperiment.CLIENTS, BudgetExperiment.ADMISSION_HIGH_PRIORITY_QUERIES,
            BudgetExperiment.ADMISSION_MAX.toSeconds()
        ),
        String.format(
            Locale.ROOT,
            "Above 1 in throughput is better for the quality-guided controller. Only the ratios at equal "
            + "high-priority quality compare like with like: they count the %d s windows (from each run's start) "
            + "where both runs' high-priority queries met the target %s, and are empty when no such window had "
            + "low-priority answers in the denominator; read them with each policy's share of windows at target. "
            + "The whole-run and late-half ratios hold only where the quality-guided controller's high-priority "
            + "quality is not flagged as more than %s below the timeout-rate-guided one's.",
            BudgetExperiment.ADMISSION_COMPARISON_WINDOW.toSeconds(), BudgetExperiment.ADMISSION_TARGET,
            QUALITY_MARGIN
        ),
        repetitions,
        flagged(repetitions)
    );
  }

  /** Warnings naming the repetitions where a quality-guided controller's high-priority quality fell behind. */
  static String flagged(List<Repetition<Figures>> repetitions)
  {
    return flagged(repetitions, ANSWER_QUALITY, "the quality-guided controller's")
           + flagged(repetitions, PREDICTED_QUALITY, "the predicted-quality-guided controller's");
  }

  private static String flagged(List<Repetition<Figures>> repetitions, String guided, String whose)
  {
    final StringBuilder which = new StringBuilder();
    for (int r = 0; r < repetitions.size(); r++) {
      final Figures quality = repetitions.get(r).of(guided);
      final Figures timeout = repetitions.get(r).of(TIMEOUT_RATE);
      if (belowBaseline(quality, timeout)) {
        which.append(which.length() == 0 ? "" : ", ").append(String.format(
            Locale.ROOT, "%d (%.3f against %.3f)", r + 1, quality.highPriorityMeanQuality(),
            timeout.highPriorityMeanQuality()
        ));
      }
    }
    return which.length() == 0
           ? ""
           : "<p><b>Not at equal quality:</b> in repetition " + which + " " + whose + " "
             + "high-priority mean quality was more than " + QUALITY_MARGIN + " below the timeout-rate-guided "
             + "one's, so its whole-run throughput ratio there is not a like-for-like comparison.</p>";
  }
}
