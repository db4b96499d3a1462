package org.getafix.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.demo.RepetitionsReport.Measure;
import org.getafix.localcluster.experiment.BudgetExperiment;
import org.getafix.localcluster.experiment.ClientControlResult;
import org.getafix.localcluster.experiment.ControlResult;
import org.getafix.simulator.report.HtmlReporter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The budget-control experiment of {@code ./getafix bench live} (the budget paper's Figs 9-11): hybrid control, the
 * quality monitor's default, through a 2× step in load on a fresh cluster with a straggler
 * ({@link BudgetExperiment#controlRun}), the target calibrated once and the run repeated. The report gives each run's
 * tracking error and settling after the step with their median and range, and in how many runs the goal was met.
 */
final class ControlBench
{
  static final String DATA_SOURCE = "getafix_control";
  static final String MODE = BudgetExperiment.HYBRID;
  /** The goal: the late mean response time after the step within this share of the target... */
  static final double GOAL_ERROR = ControlResult.SETTLE_BAND;
  /** ...and the controlled statistic settled within the same band within this many control intervals of the step. */
  static final int GOAL_SETTLING_INTERVALS = 10;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * One run, as the report needs it.
   *
   * @param rtErrorAfter      late-window mean response time after the step over the target, minus 1
   * @param settlingIntervals control intervals after the step until the settling statistic stayed within
   *                          {@link ControlResult#SETTLE_BAND}: the controller's estimate on the straggler plant, the
   *                          clients' windowed mean on the queueing plant; NaN when it did not settle
   * @param budgetRatio       the controller's late budget after the step over before it
   * @param failed            queries not answered
   */
  record Run(double rtErrorAfter, double settlingIntervals, double budgetRatio, long failed)
  {
    static Run of(ControlResult result)
    {
      return new Run(
          result.rtErrorAfter(),
          result.settlingIntervals() == null ? Double.NaN : result.settlingIntervals(),
          result.budgetAfter() / result.budgetBefore(),
          result.failed()
      );
    }

    static Run of(ClientControlResult result)
    {
      return new Run(
          result.rtErrorAfter(),
          result.settlingIntervals() == null ? Double.NaN : result.settlingIntervals(),
          result.budgetRatio(),
          result.failed()
      );
    }

    boolean goalMet()
    {
      return Math.abs(rtErrorAfter) <= GOAL_ERROR && settlingIntervals <= GOAL_SETTLING_INTERVALS;
    }
  }

  private final BenchRun bench;

  ControlBench(BenchRun bench)
  {
    this.bench = bench;
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    return BudgetBench.run(bench, DATA_SOURCE, prepared -> {
      final List<Run> runs = new ArrayList<>();
      for (int r = 1; r <= bench.repetitions(); r++) {
        bench.progress("run " + r + " of " + bench.repetitions() + ": " + MODE + " control through the load step");
        final Run run = Run.of(prepared.experiment().controlRun(MODE, prepared.calibration()));
        bench.progress(String.format(
            Locale.ROOT,
            "  response time after the step %+.1f%% off the target, settled after %.0f intervals, budget x%.2f, "
            + "%d failed",
            100 * run.rtErrorAfter(), run.settlingIntervals(), run.budgetRatio(), run.failed()
        ));
        runs.add(run);
      }
      return bench.report(json(prepared.setup(), runs), html(prepared.setup(), runs), text(runs));
    });
  }

  /** Each run's figures. */
  static List<Measure> measures(List<Run> runs)
  {
    return List.of(
        measure(runs, "response time error after the step", Run::rtErrorAfter),
        measure(runs, "settling intervals after the step", Run::settlingIntervals),
        measure(runs, "budget after / before the step", Run::budgetRatio),
        measure(runs, "failed queries", r -> r.failed())
    );
  }

  /** The figures that are 1 when the controller does nothing wrong or nothing at all, for the chart. */
  static List<Measure> ratios(List<Run> runs)
  {
    return List.of(
        measure(runs, "response time after the step / target", r -> 1 + r.rtErrorAfter()),
        measure(runs, "budget after / before the step", Run::budgetRatio)
    );
  }

  static long goalsMet(List<Run> runs)
  {
    return runs.stream().filter(Run::goalMet).count();
  }

  private static Measure measure(List<Run> runs, String name, ToDoubleFunction<Run> figure)
  {
    return new Measure(name, runs.stream().map(figure::applyAsDouble).toList());
  }

  static String goal(List<Run> runs)
  {
    return String.format(
        Locale.ROOT,
        "goal (response time within %.0f%% of the target after the step, settled within %d control intervals) met "
        + "in %d of %d runs",
        100 * GOAL_ERROR, GOAL_SETTLING_INTERVALS, goalsMet(runs), runs.size()
    );
  }

  static ObjectNode json(String setup, List<Run> runs)
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("experiment", "live-bench-control");
    root.put("setup", setup);
    root.put("mode", MODE);
    root.put("repetitions", runs.size());
    final ObjectNode goal = root.putObject("goal");
    goal.put("maxError", GOAL_ERROR);
    goal.put("maxSettlingIntervals", GOAL_SETTLING_INTERVALS);
    goal.put("metInRuns", goalsMet(runs));
    final ObjectNode figures = root.putObject("figures");
    for (Measure m : measures(runs)) {
      RepetitionsReport.measureJson(figures.putObject(m.name()), m);
    }
    return root;
  }

  static String text(List<Run> runs)
  {
    return String.format(Locale.ROOT, "control: %s, %d runs; %s; median [range]:%n", MODE, runs.size(), goal(runs))
           + RepetitionsReport.lines(measures(runs));
  }

  static String html(String setup, List<Run> runs)
  {
    System.setProperty("java.awt.headless", "true");
    final List<String> labels = runs.stream().map(r -> r.goalMet() ? "goal met" : "goal missed").toList();
    return HtmlReporter.pageStart("getafix bench live: budget control")
           + "<h1>Hybrid budget control through a 2× load step, " + runs.size() + " runs</h1>"
           + "<p>" + HtmlReporter.escape(setup) + ".</p>"
           + "<p>Each run restarts the Broker with the datasource under " + MODE + " control at the calibrated "
           + "target; the closed-loop clients send queries without a budget of their own, and their number doubles "
           + String.format(
               Locale.ROOT,
               "once the first phase has had enough control intervals (%d answers each). The error is the mean "
               + "response time over the late half of the intervals after the step against the target; settling "
               + "counts the intervals after the step until the controller's response-time estimate stays within "
               + "%.0f%% of the target (none: it did not settle).</p>",
               BudgetExperiment.INTERVAL, 100 * ControlResult.SETTLE_BAND
           )
           + "<p><b>" + HtmlReporter.escape(goal(runs)) + ".</b></p>"
           + RepetitionsReport.table(labels, measures(runs), null, "", "")
           + DemoReport.chart(RepetitionsReport.ratiosChart(MODE + " control per run", ratios(runs)))
           + "</body></html>";
  }
}
