package org.getafix.demo;

import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.experiment.BudgetExperiment;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the budget experiments of {@code ./getafix bench live} ({@link ControlBench}, {@link AdmissionBench}) each start
 * from, as the budget-control integration test does: a fresh cluster of Historicals at 1.0, 0.5 and 0.25 cores, one
 * replica per segment, the strongest Historical the straggler, and one calibration ({@link BudgetExperiment}).
 */
final class BudgetBench
{
  static final List<Double> CPU_QUOTAS = List.of(1.0, 0.5, 0.25);
  /** The strongest Historical, so that its throttling moves the most segments' answers. */
  static final int STRAGGLER = 0;
  /**
   * The admission runs' low-priority queries in flight at the budget: 1.5 times the integration test's. At its 8, with
   * the admission budget probed so that the high-priority queries alone keep their quality, every policy admitted
   * nearly all of them and the high-priority queries kept 0.97-0.99 (their scans run first on the Historicals, at
   * Druid priority 0 against -1), so admission had nothing to shed; at 16 both controllers were overwhelmed (the
   * high-priority quality 0.54-0.77 with the low-priority queries shut out).
   */
  static final int LOW_PRIORITY_IN_FLIGHT = 12;
  /**
   * The admission runs' mature runs at once: one per high-priority client. With the quality monitor's 8, at 16 and 12
   * low-priority queries in flight neither controller got the high-priority quality back to its target, even with the
   * low-priority load shut out; the mature runs' late sub-queries, which run on at high priority on the straggler after
   * their answers, can keep it busy so, and one per client bounds that backlog.
   */
  static final int MAX_MATURE_RUNS = BudgetExperiment.CLIENTS;
  /**
   * A calibrated experiment.
   *
   * @param setup the cluster, the data, the placement and the calibration in words, for the report
   */
  record Prepared(BudgetExperiment experiment, BudgetExperiment.Calibration calibration, String setup)
  {
  }

  private BudgetBench()
  {
  }

  /** What an experiment measures on the prepared cluster; returns its report. */
  @FunctionalInterface
  interface Measurement
  {
    Path measure(Prepared prepared) throws Exception;
  }

  /** Starts the cluster, prepares it ({@link #prepare}), runs {@code measurement} and stops the cluster. */
  static Path run(BenchRun bench, String dataSource, Measurement measurement) throws Exception
  {
    try (LocalDruidCluster cluster = bench.startCluster(CPU_QUOTAS, "the whole answers will be too fast to control")) {
      return measurement.measure(prepare(bench, cluster, dataSource));
    }
  }

  /**
   * Ingests 100 hourly segments x 5,000 rows (quick: 48, the straggler at the standard cores: at half of them it
   * answers nothing within the calibration's 45 s) as
   * {@code dataSource}, places one replica of each, warms the JIT compilers up and calibrates. A calibration the integration test would refuse (too few answers, or
   * whole answers too fast to control) is measured on anyway, with a warning in the progress and in the setup.
   */
  static Prepared prepare(BenchRun bench, LocalDruidCluster cluster, String dataSource) throws Exception
  {
    final SyntheticDataset dataset = bench.ingest(
        cluster, SyntheticDataset.hourly(dataSource, bench.quick() ? 48 : 100, 5_000)
    );
    final BudgetExperiment experiment =
        new BudgetExperiment(cluster, dataset, STRAGGLER, new BudgetExperiment.Settings(
            bench.stragglerCores(), BudgetExperiment.CLIENTS, LOW_PRIORITY_IN_FLIGHT, MAX_MATURE_RUNS, "bench-"
        ));
    bench.progress("placing one replica of each segment, some on the straggler only");
    final long onStraggler = experiment.placeOneReplicaEach();
    bench.progress(onStraggler + " segments on the straggler; warming the JIT compilers up, then calibrating");
    final BudgetExperiment.Calibration calibration = experiment.calibrate();
    if (calibration.targetMs() <= 0) {
      // No whole answer at all: there is no target to set, and a Broker given 0 would refuse to start.
      throw new IllegalStateException("the calibration got no whole answer: " + calibration.figures());
    }
    final List<String> warnings = new ArrayList<>();
    if (!calibration.enoughAnswers()) {
      warnings.add("too few calibration answers");
    }
    if (!calibration.slowEnough()) {
      warnings.add("whole answers too fast for the Broker's overheads to be a small part of the target");
    }
    final String calibrated = String.format(
        Locale.ROOT,
        "calibrated: whole answers %.0f ms on average (p90 %.0f ms), so a response-time target of %d ms and an "
        + "admission budget of %d ms",
        calibration.figures().get("wholeMeanMs"), calibration.figures().get("wholeP90Ms"), calibration.targetMs(),
        calibration.admissionBudgetMs()
    );
    bench.progress(calibrated);
    warnings.forEach(w -> bench.progress("WARNING: " + w + ": " + calibration.figures()));
    return new Prepared(
        experiment,
        calibration,
        experiment.describe() + "; " + onStraggler + " segments on the straggler; " + calibrated
        + (warnings.isEmpty() ? "" : "; WARNING: " + String.join(", ", warnings))
    );
  }
}
