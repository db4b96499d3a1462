package org.getafix.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.experiment.ArrivalSchedule;
import org.getafix.localcluster.experiment.BudgetExperiment;
import org.getafix.localcluster.experiment.ClientControlResult;
import org.getafix.localcluster.experiment.ConcurrencyProbe;
import org.getafix.localcluster.experiment.ControlResult;
import org.getafix.localcluster.experiment.QueueingCalibration;
import org.getafix.localcluster.experiment.QueueingControlExperiment;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.simulator.report.HtmlReporter;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The {@code control-queueing} experiment of {@code ./getafix bench live}: hybrid budget control through a 2× load
 * step on a plant that queues ({@link QueueingControlExperiment}): equal Historicals, no straggler, open-loop Poisson
 * arrivals at λ then 2λ, λ calibrated so that 2λ is past the capacity for whole answers; the goal judged on the
 * clients' response times. The report has each run's error and settling with their median and range, in how many runs
 * the goal was met ({@link ControlBench}'s goal and figures), the calibration, and every run's intervals.
 */
final class QueueingControlBench
{
  static final String DATA_SOURCE = "getafix_control_queueing";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int WIDTH = 900;
  private static final int HEIGHT = 420;

  private final BenchRun bench;

  QueueingControlBench(BenchRun bench)
  {
    this.bench = bench;
  }

  /** Starts a cluster, calibrates, runs the repetitions, writes the report and stops the cluster. */
  Path run() throws Exception
  {
    try (
        LocalDruidCluster cluster = bench.startCluster(
            Collections.nCopies(LaningBench.HISTORICALS, LaningBench.EQUAL_CORES),
            "the Historicals share the machine's cores, and the queues are the machine's as much as the plant's"
        )
    ) {
      final SyntheticDataset dataset = bench.ingest(
          cluster, SyntheticDataset.hourly(DATA_SOURCE, bench.quick() ? 48 : 100, 5_000)
      );
      final QueueingControlExperiment.Settings settings = QueueingControlExperiment.Settings.standard(
          bench.quick(), "bench-"
      );
      final QueueingControlExperiment experiment = new QueueingControlExperiment(cluster, dataset, settings);
      bench.progress("placing one replica of each segment");
      final Map<String, Long> perHistorical = experiment.placeOneReplicaEach();
      bench.progress("segments per Historical: " + perHistorical
                     + "; warming the JIT compilers up, then whole answers at 1, 2, 3, ... clients");
      final ConcurrencyProbe probe = experiment.probe();
      QueueingControlExperiment.levels(probe).forEach(l -> bench.progress("  " + l));
      final QueueingCalibration calibration = QueueingCalibration.of(probe);
      // Every run's phases are as long: only the seed differs.
      final double afterSeconds = settings.schedule(calibration, 1).afterStepMillis() / 1000.0;
      bench.progress(calibrated(calibration, afterSeconds));
      if (!calibration.valid()) {
        bench.progress("WARNING: not the plant meant: " + calibration.figures(afterSeconds));
      }
      final List<ClientControlResult> results = new ArrayList<>();
      for (int r = 1; r <= bench.repetitions(); r++) {
        bench.progress("run " + r + " of " + bench.repetitions() + ": Poisson arrivals, seed " + r);
        final ClientControlResult result = experiment.controlRun(calibration, r);
        bench.progress("  " + runLine(result));
        results.add(result);
      }
      final String setup = experiment.describe() + "; segments per Historical " + perHistorical
                           + (calibration.valid() ? "" : "; WARNING: not the plant meant (see the calibration)");
      return bench.report(
          json(setup, probe, calibration, afterSeconds, results),
          html(setup, probe, calibration, afterSeconds, results),
          text(calibration, afterSeconds, results)
      );
    }
  }

  /** The calibration in a sentence: T, the capacity, λ and 2λ, and what 2λ would do to whole answers. */
  static String calibrated(QueueingCalibration calibration, double afterStepSeconds)
  {
    return String.format(
        Locale.ROOT,
        "calibrated: whole answers %.0f ms alone, so T = %d ms (%.0fx); capacity %.2f whole answers/s (the best probe "
        + "level); λ = %.2f × capacity = %.2f/s, 2λ = %.2f/s = %.2fx capacity: had nothing been cut, whole answers "
        + "would wait T more than their own time %.1f s after the step and %.1f s more by the end (%.0f s after it); "
        + "%.1f queries in flight at T after the step (Broker pools: %s)",
        calibration.aloneMillis(), calibration.targetMillis(), ConcurrencyProbe.TARGET_FACTOR,
        calibration.capacityPerSecond(), QueueingCalibration.LOAD_BEFORE_STEP, calibration.ratePerSecond(),
        calibration.rateAfterStep(), calibration.loadAfterStep(), calibration.secondsUntilWholeAnswersWaitTarget(),
        calibration.wholeAnswerQueueMillis(afterStepSeconds) / 1000, afterStepSeconds,
        calibration.inFlightAtTargetAfterStep(), calibration.valid() ? "room" : "too many, or 2λ within capacity"
    );
  }

  private static String runLine(ClientControlResult result)
  {
    return String.format(
        Locale.ROOT,
        "client-side response time after the step %+.1f%% off T (the controller's own estimate %+.1f%%), settled "
        + "after %s intervals (a settling window's noise ±%.1f%% of T), %d after the step, %d before, budget x%.2f, "
        + "%d failed",
        100 * result.rtErrorAfter(),
        100 * (result.estimateAfter() / result.targetMillis() - 1),
        result.settlingIntervals() == null ? "no" : String.valueOf(result.settlingIntervals()),
        100 * result.windowNoise(),
        result.intervalsAfter().size(), result.intervalsBefore().size(), result.budgetRatio(), result.failed()
    );
  }

  static List<ControlBench.Run> runs(List<ClientControlResult> results)
  {
    return results.stream().map(ControlBench.Run::of).toList();
  }

  static ObjectNode json(
      String setup,
      ConcurrencyProbe probe,
      QueueingCalibration calibration,
      double afterStepSeconds,
      List<ClientControlResult> results
  )
  {
    final List<ControlBench.Run> runs = runs(results);
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("experiment", "live-bench-control-queueing");
    root.put("setup", setup);
    root.put("mode", ControlBench.MODE);
    root.put("repetitions", runs.size());
    final ObjectNode goal = root.putObject("goal");
    goal.put("maxError", ControlBench.GOAL_ERROR);
    goal.put("maxSettlingIntervals", ControlBench.GOAL_SETTLING_INTERVALS);
    goal.put("settleWindowIntervals", ClientControlResult.SETTLE_WINDOW);
    goal.put("measured", "client-side");
    goal.put("metInRuns", ControlBench.goalsMet(runs));
    root.putPOJO("calibration", calibration.figures(afterStepSeconds));
    final ArrayNode levels = root.putArray("probe");
    for (ConcurrencyProbe.Level level : probe.levels()) {
      final ObjectNode node = levels.addObject();
      node.put("clients", level.clients());
      node.put("answered", level.answered());
      node.put("meanMs", DemoReport.nullIfNaN(level.meanMillis()));
      node.put("perSecond", DemoReport.nullIfNaN(level.perSecond()));
    }
    final ObjectNode figures = root.putObject("figures");
    for (RepetitionsReport.Measure m : ControlBench.measures(runs)) {
      RepetitionsReport.measureJson(figures.putObject(m.name()), m);
    }
    final ArrayNode perRun = root.putArray("runs");
    for (int r = 0; r < results.size(); r++) {
      final ObjectNode node = perRun.addObject();
      node.put("run", r + 1);
      node.put("arrivalSeed", r + 1);
      node.put("goalMet", runs.get(r).goalMet());
      node.putPOJO("figures", results.get(r).figures());
    }
    return root;
  }

  static String text(QueueingCalibration calibration, double afterStepSeconds, List<ClientControlResult> results)
  {
    final List<ControlBench.Run> runs = runs(results);
    final StringBuilder text = new StringBuilder(String.format(
        Locale.ROOT, "control-queueing: %s, %d runs; %s (client-side); median [range]:%n",
        ControlBench.MODE, runs.size(), ControlBench.goal(runs)
    )).append(RepetitionsReport.lines(ControlBench.measures(runs)));
    text.append(calibrated(calibration, afterStepSeconds)).append(System.lineSeparator());
    for (int r = 0; r < results.size(); r++) {
      text.append("run ").append(r + 1).append(": ").append(runLine(results.get(r))).append(System.lineSeparator());
    }
    return text.toString();
  }

  static String html(
      String setup,
      ConcurrencyProbe probe,
      QueueingCalibration calibration,
      double afterStepSeconds,
      List<ClientControlResult> results
  )
  {
    System.setProperty("java.awt.headless", "true");
    final List<ControlBench.Run> runs = runs(results);
    final List<String> labels = runs.stream().map(r -> r.goalMet() ? "goal met" : "goal missed").toList();
    final StringBuilder html = new StringBuilder(HtmlReporter.pageStart("getafix bench live: budget control, queueing"))
        .append("<h1>Hybrid budget control through a 2× load step on a plant that queues, ").append(runs.size())
        .append(" runs</h1><p>").append(HtmlReporter.escape(setup)).append(".</p>")
        .append(String.format(
            Locale.ROOT,
            "<p>Each run restarts the Broker with the datasource under %s control at T, then sends queries without a "
            + "budget of their own, open-loop, at Poisson arrivals of λ per second and, from the step, %.0fλ (each "
            + "run its own seed). Response times are the clients' own. The queries sent before the step and those "
            + "sent after it are each taken in completion order and cut into control intervals of %d answers (the "
            + "controller's period). The error is the mean response time over the late half of the intervals after "
            + "the step against T; settling counts the intervals after the step until the mean over the last %d "
            + "intervals stays within %.0f%% of T (none: it did not settle). A settling window's noise is the "
            + "standard error of its mean from the spread of the late answers, as if they were independent: how far "
            + "the windowed mean would wander even with the true mean exactly at T. A window is outside the band by "
            + "chance 5%% of the time at a noise of half the band and a third of the time at the band's width, and "
            + "settling ends after the last window outside, so this is a floor; under queueing consecutive answers "
            + "are alike, and the intervals below spread more. Failed queries count in no interval.</p>",
            ControlBench.MODE, ArrivalSchedule.STEP_FACTOR, BudgetExperiment.INTERVAL,
            ClientControlResult.SETTLE_WINDOW, 100 * ControlResult.SETTLE_BAND
        ))
        .append("<p><b>").append(HtmlReporter.escape(ControlBench.goal(runs))).append(", measured client-side.</b></p>")
        .append(RepetitionsReport.table(labels, ControlBench.measures(runs), null, "", ""))
        .append("<h2>Calibration</h2><p>").append(HtmlReporter.escape(calibrated(calibration, afterStepSeconds)))
        .append(String.format(
            Locale.ROOT,
            ". The workload's whole answers were measured at 1, 2, 3, ... closed-loop clients (up to %d, or until "
            + "one missed T). The capacity is the most whole answers per second any level got: a closed loop past "
            + "saturation answers about as many per second as the cluster can, so the capacity is if anything "
            + "underestimated, which is why 2λ is set well above it.</p>",
            ConcurrencyProbe.MAX_CLIENTS
        ))
        .append("<table><tr><th>clients</th><th>whole answers</th><th>mean ms</th><th>answers/s</th></tr>");
    for (ConcurrencyProbe.Level level : probe.levels()) {
      html.append(String.format(
          Locale.ROOT, "<tr><td>%d</td><td>%d</td><td>%.0f</td><td>%.2f</td></tr>",
          level.clients(), level.answered(), level.meanMillis(), level.perSecond()
      ));
    }
    return html.append("</table><h2>Every control interval</h2>")
               .append(DemoReport.chart(intervalsChart(results)))
               .append(DemoReport.chart(RepetitionsReport.ratiosChart(
                   ControlBench.MODE + " control per run", ControlBench.ratios(runs)
               )))
               .append("</body></html>")
               .toString();
  }

  /**
   * Each run's client-side interval means over T against the interval's place from the step (negative before it),
   * with the goal's band.
   */
  static XYChart intervalsChart(List<ClientControlResult> results)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .title("client-side mean response time per control interval / T")
                                              .xAxisTitle("control interval (from the step)")
                                              .yAxisTitle("response time / T").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(4);
    int first = 0;
    int last = 1;
    for (int r = 0; r < results.size(); r++) {
      final ClientControlResult result = results.get(r);
      final List<Double> all = new ArrayList<>(result.intervalsBefore());
      all.addAll(result.intervalsAfter());
      if (all.isEmpty()) {
        continue;
      }
      final int before = result.intervalsBefore().size();
      chart.addSeries(
          "run " + (r + 1),
          IntStream.range(0, all.size()).mapToDouble(k -> k < before ? k - before : k - before + 1).toArray(),
          all.stream().mapToDouble(m -> m / result.targetMillis()).toArray()
      ).setMarker(SeriesMarkers.CIRCLE);
      first = Math.min(first, -before);
      last = Math.max(last, result.intervalsAfter().size());
    }
    for (double edge : new double[]{1 - ControlResult.SETTLE_BAND, 1 + ControlResult.SETTLE_BAND}) {
      chart.addSeries(String.format(Locale.ROOT, "%.2f", edge), new double[]{first, last}, new double[]{edge, edge})
           .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line)
           .setMarker(SeriesMarkers.NONE);
    }
    return chart;
  }
}
