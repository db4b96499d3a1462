package org.getafix.demo;

import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.experiment.AdmissionResult;
import org.getafix.localcluster.experiment.BudgetExperiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.getafix.localcluster.experiment.BudgetExperiment.ANSWER_QUALITY;
import static org.getafix.localcluster.experiment.BudgetExperiment.TIMEOUT_RATE;

/**
 * The admission experiment of {@code ./getafix bench live} (Ubora §8): the quality monitor's admission controller
 * guided by the measured quality of high-priority answers against one guided by their timeout rate, on a fresh cluster
 * with a straggler ({@link BudgetExperiment#admissionRun}), calibrated once. Each repetition runs both signals, the
 * order reversed every other repetition (ABBA); the headline is the low-priority throughput each admits while
 * high-priority quality stays at the target.
 */
final class AdmissionBench
{
  static final String DATA_SOURCE = "getafix_admission";
  /** Quality-guided first, as the integration test runs them; its figures over the timeout-rate-guided one's. */
  static final AbbaComparison<Figures> COMPARISON = new AbbaComparison<>(
      "admission",
      List.of(ANSWER_QUALITY, TIMEOUT_RATE),
      ANSWER_QUALITY,
      TIMEOUT_RATE,
      List.of(
          new Figure<>("low-priority throughput, late half", Figures::lowPriorityPerSecondLate),
          new Figure<>("low-priority throughput, whole run", Figures::lowPriorityPerSecond),
          new Figure<>("high-priority mean quality", Figures::highPriorityMeanQuality),
          new Figure<>("high-priority mean response time", Figures::highPriorityMeanMillis)
      ),
      List.of(
          new Figure<>("high-priority mean quality", Figures::highPriorityMeanQuality),
          new Figure<>("low-priority admitted per second", Figures::lowPriorityPerSecond),
          new Figure<>("low-priority admitted per second, late half", Figures::lowPriorityPerSecondLate),
          new Figure<>("high-priority failed", Figures::highPriorityFailed),
          new Figure<>("high-priority shed", Figures::highPriorityShed)
      )
  );

  /** One signal's run, as the report needs it. */
  record Figures(
      String setup,
      double highPriorityMeanQuality,
      double highPriorityMeanMillis,
      double lowPriorityPerSecond,
      double lowPriorityPerSecondLate,
      long highPriorityFailed,
      long highPriorityShed
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
          result.highPriorityShed()
      );
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
      final List<Repetition<Figures>> done = COMPARISON.repeat(
          bench, signal -> Figures.of(signal, prepared.experiment().admissionRun(signal, prepared.calibration()))
      );
      return bench.report(COMPARISON.json(prepared.setup(), done), html(prepared.setup(), done),
                          COMPARISON.text(done));
    });
  }

  static String html(String setup, List<Repetition<Figures>> repetitions)
  {
    return COMPARISON.html(
        "Quality-guided vs timeout-rate-guided admission with a straggler",
        setup,
        String.format(
            Locale.ROOT,
            "Each run restarts the Broker with one admission signal, target %s; then %d closed-loop high-priority "
            + "clients (every other query with a mature run) and open-loop low-priority arrivals send the same "
            + "straggler queries, all with the calibrated budget, until %d high-priority queries have been answered "
            + "or %d s have passed. Ubora's claim: more low-priority throughput at equal high-priority quality "
            + "(+55%%).",
            BudgetExperiment.ADMISSION_TARGET, BudgetExperiment.CLIENTS,
            BudgetExperiment.ADMISSION_HIGH_PRIORITY_QUERIES, BudgetExperiment.ADMISSION_MAX.toSeconds()
        ),
        "Above 1 in throughput is better for the quality-guided controller, as long as its high-priority quality "
        + "stays about equal (1) and at the target; the late half is after the controllers have had time to act.",
        repetitions
    );
  }
}
