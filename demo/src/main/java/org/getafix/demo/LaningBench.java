package org.getafix.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.demo.AbbaComparison.Figure;
import org.getafix.demo.AbbaComparison.Repetition;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.experiment.ConcurrencyProbe;
import org.getafix.localcluster.experiment.LaningExperiment;
import org.getafix.localcluster.experiment.LaningExperiment.Calibration;
import org.getafix.localcluster.experiment.LaningWorkload;
import org.getafix.localcluster.experiment.LoadStep;
import org.getafix.localcluster.experiment.LoadTarget;
import org.getafix.localcluster.experiment.SustainedLoad;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.simulator.report.HtmlReporter;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The laning experiment of {@code ./getafix bench live}: the budget paper's headline (§5.4, budget control sustains
 * about twice the throughput of a tuned queue limit at the same response-time target and answer quality) on a live
 * cluster of equal Historicals ({@link LaningExperiment}). Stock Druid's queries run in a lane that Druid's
 * {@code manual} laning limits to the tuned number at once, turning the rest away; druid-getafix's in a lane whose
 * budget controller holds the mean response time at T. Each repetition sweeps the offered load up through both, the
 * order reversed every other repetition (ABBA); the headline is the ratio of their sustained loads.
 */
final class LaningBench
{
  static final String DATA_SOURCE = "getafix_laning";
  /**
   * The setups are named by their lanes, which are also their {@code --strategies} names: stock Druid's queries run
   * in lane {@code stock}, druid-getafix's in lane {@code getafix}.
   */
  static final String STOCK = LaningExperiment.STOCK_LANE;
  static final String GETAFIX = LaningExperiment.GETAFIX_LANE;
  /** Stock Druid first, as the other comparisons; druid-getafix's sustained load over its. */
  static final AbbaComparison<Sweep> COMPARISON = new AbbaComparison<>(
      "laning",
      List.of(STOCK, GETAFIX),
      GETAFIX,
      STOCK,
      List.of(new Figure<>("sustained load", Sweep::queriesPerSecond)),
      List.of(
          new Figure<>("sustained load (queries/s)", Sweep::queriesPerSecond),
          new Figure<>("sustained load (x the tuned limit's whole answers per second)", Sweep::loadFactor),
          new Figure<>("load steps measured", Sweep::stepsMeasured)
      )
  );
  static final int HISTORICALS = 3;
  /**
   * Equal Historicals, as the paper's servers are: with unequal ones and one replica each, the weakest would hold a
   * third of every query, and a cut answer would lose that third whatever the load.
   */
  static final double EQUAL_CORES = 0.5;
  private static final int WIDTH = 900;
  private static final int HEIGHT = 420;

  /**
   * One setup's sweep in one repetition.
   *
   * @param setup     {@link #STOCK} or {@link #GETAFIX}
   * @param steps     the loads measured, ascending, up to the first that missed the target
   * @param sustained the highest load that kept the target ({@link SustainedLoad})
   */
  record Sweep(String setup, List<LoadStep> steps, SustainedLoad sustained) implements AbbaComparison.Run
  {
    Sweep
    {
      steps = List.copyOf(steps);
    }

    static Sweep of(String setup, List<LoadStep> steps, LoadTarget target)
    {
      return new Sweep(setup, steps, SustainedLoad.of(steps, target));
    }

    double queriesPerSecond()
    {
      return sustained.queriesPerSecond();
    }

    double loadFactor()
    {
      return sustained.loadFactor();
    }

    int stepsMeasured()
    {
      return steps.size();
    }
  }

  private final BenchRun bench;
  private final String budgetSplit;
  private final SubQuerySplit.Trigger splitWhen;
  private final LaningWorkload workload;

  /**
   * @param budgetSplit druid-getafix's {@code druid.getafix.quality.budgetSplit}, one of
   *                    {@link LaningExperiment#BUDGET_SPLITS}
   * @param splitWhen   druid-getafix's {@code druid.getafix.quality.splitWhen}
   * @param workload    the queries, and how their answers' quality is known
   */
  LaningBench(BenchRun bench, String budgetSplit, SubQuerySplit.Trigger splitWhen, LaningWorkload workload)
  {
    this.bench = bench;
    this.budgetSplit = budgetSplit;
    this.splitWhen = splitWhen;
    this.workload = workload;
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    try (
        LocalDruidCluster cluster = bench.startCluster(
            Collections.nCopies(HISTORICALS, EQUAL_CORES),
            LaningExperiment.HISTORICAL_PROPERTIES,
            "the Historicals share the machine's cores, and the load steps measure the machine as much as the setups"
        )
    ) {
      final SyntheticDataset dataset = bench.ingest(
          cluster, SyntheticDataset.hourly(DATA_SOURCE, bench.quick() ? 48 : 100, 5_000)
      );
      final LaningExperiment experiment = new LaningExperiment(
          cluster,
          dataset,
          LaningExperiment.Settings.standard(bench.quick(), budgetSplit, splitWhen, workload, "bench-")
      );
      bench.progress("placing one replica of each segment");
      final Map<String, Long> perHistorical = experiment.placeOneReplicaEach();
      bench.progress("segments per Historical: " + perHistorical
                     + "; warming the JIT compilers up, then whole answers at 1, 2, 3, ... clients");
      final Calibration calibration = experiment.calibrate();
      calibration.probe().levels().forEach(level -> bench.progress(level(level)));
      bench.progress(calibrated(calibration));
      if (workload.measuresAnswers()) {
        bench.progress("fetched the whole answers of the workload's " + calibration.wholeAnswers().size()
                       + " distinct queries, against which every answer is scored");
      }
      bench.progress("restarting the Broker with lane " + STOCK + " limited to " + calibration.limit()
                     + " queries at once and lane " + GETAFIX + " under hybrid budget control at T, its sub-queries "
                     + "split " + splitWhen);
      experiment.configureBroker(calibration);
      final List<Repetition<Sweep>> done = COMPARISON.repeat(bench, setup -> Sweep.of(
          setup,
          experiment.sweep(setup, calibration, step -> bench.progress("  " + setup + ": " + step(step))),
          calibration.target()
      ));
      final String setup = experiment.describe() + "; segments per Historical " + perHistorical + "; "
                           + calibrated(calibration);
      return bench.report(
          json(setup, calibration, done), html(setup, calibration, workload, done), text(calibration, done)
      );
    }
  }

  static String calibrated(Calibration calibration)
  {
    return String.format(
        Locale.ROOT,
        "target T = %d ms (%.0fx the mean whole answer alone), mean quality >= %.2f; stock Druid's lane limit %d "
        + "(the most queries at once whose whole answers met T), %.2f whole answers per second at it (the load unit)",
        calibration.target().targetMillis(), ConcurrencyProbe.TARGET_FACTOR, calibration.target().qualityTarget(),
        calibration.limit(), calibration.referencePerSecond()
    );
  }

  private static String level(ConcurrencyProbe.Level level)
  {
    return String.format(
        Locale.ROOT, "  %d clients: %d whole answers, mean %.0f ms, p99 %.0f ms, %.2f per second",
        level.clients(), level.answered(), level.meanMillis(), level.p99Millis(), level.perSecond()
    );
  }

  /** A load step on one line. */
  static String step(LoadStep step)
  {
    return String.format(
        Locale.ROOT,
        "%.2fx (%.2f/s offered): mean %.0f ms, p99 %.0f ms, mean quality %.3f, %.2f answered/s, %d of %d turned "
        + "away, %d partial, %d failed%s%s",
        step.loadFactor(), step.offeredPerSecond(), step.meanMillis(), step.p99Millis(), step.meanQuality(),
        step.answeredPerSecond(), step.rejected(), step.offered(), step.partial(), step.failed(),
        Double.isNaN(step.budgetMillis()) ? "" : String.format(Locale.ROOT, ", budget %.0f ms", step.budgetMillis()),
        Double.isNaN(step.splitPerQuery())
        ? ""
        : String.format(Locale.ROOT, ", %.2f sub-queries split per query", step.splitPerQuery())
    );
  }

  private static String sustained(SustainedLoad sustained)
  {
    return String.format(
        Locale.ROOT, "%.2f queries/s (%.2fx), limited by %s", sustained.queriesPerSecond(), sustained.loadFactor(),
        SustainedLoad.NONE.equals(sustained.limitedBy())
        ? "nothing: the sweep's top, a lower bound"
        : sustained.limitedBy()
    );
  }

  /** The ratio's and figures' medians and ranges, then each repetition's sweeps step by step. */
  static String text(Calibration calibration, List<Repetition<Sweep>> repetitions)
  {
    final StringBuilder text = new StringBuilder(COMPARISON.text(repetitions));
    text.append(calibrated(calibration)).append(System.lineSeparator());
    final List<Double> ratios = COMPARISON.ratios(repetitions).get(0).values();
    for (int r = 0; r < repetitions.size(); r++) {
      text.append(String.format(
          Locale.ROOT, "repetition %d (%s): %s / %s = %s%n",
          r + 1, repetitions.get(r).order(), GETAFIX, STOCK, number(ratios.get(r), 2)
      ));
      for (Sweep sweep : repetitions.get(r).runs()) {
        text.append("  ").append(sweep.setup()).append(": sustained ").append(sustained(sweep.sustained()))
            .append(System.lineSeparator());
        sweep.steps().forEach(s -> text.append("    ").append(step(s)).append(System.lineSeparator()));
      }
    }
    return text.toString();
  }

  /**
   * {@code results.json}: {@link AbbaComparison#json}, the calibration, and every sweep with its sustained load and
   * its steps.
   */
  static ObjectNode json(String setup, Calibration calibration, List<Repetition<Sweep>> repetitions)
  {
    final ObjectNode root = COMPARISON.json(setup, repetitions);
    final ObjectNode target = root.putObject("target");
    target.put("responseTimeMs", calibration.target().targetMillis());
    target.put("responseTimeTolerance", LoadTarget.RESPONSE_TOLERANCE);
    target.put("meanQuality", calibration.target().qualityTarget());
    target.put("factorOfTheWholeAnswerAlone", ConcurrencyProbe.TARGET_FACTOR);
    final ObjectNode stock = root.putObject("stockLaneLimit");
    stock.put("limit", calibration.limit());
    stock.put("wholeAnswersPerSecond", calibration.referencePerSecond());
    final ArrayNode probe = stock.putArray("probe");
    for (ConcurrencyProbe.Level level : calibration.probe().levels()) {
      final ObjectNode node = probe.addObject();
      node.put("clients", level.clients());
      node.put("answered", level.answered());
      node.put("meanMs", DemoReport.nullIfNaN(level.meanMillis()));
      node.put("p99Ms", DemoReport.nullIfNaN(level.p99Millis()));
      node.put("perSecond", DemoReport.nullIfNaN(level.perSecond()));
    }
    root.putPOJO("jitWarmUp", calibration.jitWarmUp());
    final ArrayNode sweeps = root.putArray("sweeps");
    for (int r = 0; r < repetitions.size(); r++) {
      final List<Sweep> runs = repetitions.get(r).runs();
      for (int position = 0; position < runs.size(); position++) {
        final Sweep sweep = runs.get(position);
        final ObjectNode node = sweeps.addObject();
        node.put("repetition", r + 1);
        node.put("position", position + 1);
        node.put("setup", sweep.setup());
        final ObjectNode sustained = node.putObject("sustained");
        sustained.put("queriesPerSecond", sweep.sustained().queriesPerSecond());
        sustained.put("loadFactor", sweep.sustained().loadFactor());
        sustained.put("limitedBy", sweep.sustained().limitedBy());
        final ArrayNode steps = node.putArray("steps");
        for (LoadStep step : sweep.steps()) {
          final ObjectNode s = steps.addObject();
          s.put("loadFactor", step.loadFactor());
          s.put("offeredPerSecond", step.offeredPerSecond());
          s.put("offered", step.offered());
          s.put("answered", step.answered());
          s.put("rejected", step.rejected());
          s.put("failed", step.failed());
          s.put("partial", step.partial());
          s.put("meanMs", DemoReport.nullIfNaN(step.meanMillis()));
          s.put("p99Ms", DemoReport.nullIfNaN(step.p99Millis()));
          s.put("meanQuality", DemoReport.nullIfNaN(step.meanQuality()));
          s.put("answeredPerSecond", step.answeredPerSecond());
          s.put("budgetMs", DemoReport.nullIfNaN(step.budgetMillis()));
          s.put("splitSubQueriesPerQuery", DemoReport.nullIfNaN(step.splitPerQuery()));
          s.put("metTarget", calibration.target().meets(step));
        }
      }
    }
    return root;
  }

  static String html(
      String setup,
      Calibration calibration,
      LaningWorkload workload,
      List<Repetition<Sweep>> repetitions
  )
  {
    return COMPARISON.html(
        "Budget control vs Druid's query laning at the same response-time target and quality",
        setup,
        String.format(
            Locale.ROOT,
            "Each run sends the workload to the Broker at rising offered loads, open-loop, through its setup's lane: "
            + "stock Druid's lane holds at most %d queries at once and Druid turns the rest away (HTTP 429); "
            + "druid-getafix's carries no budget of its own, and the lane's hybrid budget controller holds the mean "
            + "response time at T = %d ms by cutting answers at their deadlines. A load is sustained while the mean "
            + "response time of the answered queries stays within T (+%.0f%%) and the mean quality over every query "
            + "offered stays at or above %.2f (a whole answer 1, %s, a query turned away or failed 0), at it and "
            + "every lower load; the crossing of the quality target is "
            + "interpolated between two loads, as in the simulator. A run ends at the first load that misses. The "
            + "budget paper reports about 2x.",
            calibration.limit(), calibration.target().targetMillis(), 100 * LoadTarget.RESPONSE_TOLERANCE,
            calibration.target().qualityTarget(), workload.qualityInWords()
        ),
        "Above 1 is better for druid-getafix: it sustained more offered load at the same targets.",
        repetitions,
        details(calibration, repetitions)
    );
  }

  /** How T and the limit were chosen, each repetition's sweeps step by step, and the steps as charts. */
  private static String details(Calibration calibration, List<Repetition<Sweep>> repetitions)
  {
    final StringBuilder html = new StringBuilder("<h2>Target and stock Druid's limit</h2><p>")
        .append(HtmlReporter.escape(calibrated(calibration)))
        .append(String.format(
            Locale.ROOT,
            ". Before the lanes were set up, the workload's whole answers were measured at 1, 2, 3, ... closed-loop "
            + "clients (up to %d, or until one missed T). A closed loop of c clients keeps c queries in flight, as "
            + "a full lane of limit c does once the load exceeds what the cluster answers; a larger limit turns "
            + "fewer queries away at any load, so the tuned limit is the largest whose mean response time, at it "
            + "and every smaller one, met T.</p>",
            ConcurrencyProbe.MAX_CLIENTS
        ))
        .append("<table><tr><th>clients</th><th>whole answers</th><th>mean ms</th><th>p99 ms</th>"
                + "<th>answers/s</th></tr>");
    for (ConcurrencyProbe.Level level : calibration.probe().levels()) {
      html.append(String.format(
          Locale.ROOT, "<tr><td>%d</td><td>%d</td><td>%.0f</td><td>%.0f</td><td>%.2f</td></tr>",
          level.clients(), level.answered(), level.meanMillis(), level.p99Millis(), level.perSecond()
      ));
    }
    html.append("</table>");
    final List<Double> ratios = COMPARISON.ratios(repetitions).get(0).values();
    for (int r = 0; r < repetitions.size(); r++) {
      html.append(String.format(
          Locale.ROOT, "<h2>Repetition %d (%s): %s / %s = %s</h2>",
          r + 1, HtmlReporter.escape(repetitions.get(r).order()), HtmlReporter.escape(GETAFIX),
          HtmlReporter.escape(STOCK), number(ratios.get(r), 2)
      ));
      for (Sweep sweep : repetitions.get(r).runs()) {
        html.append("<h3>").append(HtmlReporter.escape(sweep.setup())).append(": sustained ")
            .append(HtmlReporter.escape(sustained(sweep.sustained()))).append("</h3>")
            .append(stepsTable(sweep, calibration.target()));
      }
    }
    return html.append("<h2>Every load step</h2>")
               .append(DemoReport.chart(chart(
                   "mean response time of the answered / T", "response time / T", repetitions,
                   s -> s.meanMillis() / calibration.target().targetMillis(), 1 + LoadTarget.RESPONSE_TOLERANCE
               )))
               .append(DemoReport.chart(chart(
                   "mean answer quality over the offered", "quality", repetitions, LoadStep::meanQuality,
                   calibration.target().qualityTarget()
               )))
               .toString();
  }

  private static String stepsTable(Sweep sweep, LoadTarget target)
  {
    final StringBuilder t = new StringBuilder(
        "<table><tr><th>load (x)</th><th>offered/s</th><th>mean ms</th><th>p99 ms</th><th>mean quality</th>"
        + "<th>answered/s</th><th>turned away</th><th>partial</th><th>failed</th><th>budget ms</th>"
        + "<th>targets met</th></tr>"
    );
    for (LoadStep s : sweep.steps()) {
      t.append(String.format(
          Locale.ROOT,
          "<tr><td>%.2f</td><td>%.2f</td><td>%s</td><td>%s</td><td>%s</td><td>%.2f</td><td>%d of %d</td><td>%d</td>"
          + "<td>%d</td><td>%s</td><td>%s</td></tr>",
          s.loadFactor(), s.offeredPerSecond(), number(s.meanMillis(), 0), number(s.p99Millis(), 0),
          number(s.meanQuality(), 3), s.answeredPerSecond(), s.rejected(), s.offered(), s.partial(), s.failed(),
          number(s.budgetMillis(), 0), target.meets(s) ? "yes" : "<b>no</b>"
      ));
    }
    return t.append("</table>").toString();
  }

  /**
   * A step figure against the offered load, a line per setup and repetition, and the target's line: the loads past
   * which each setup missed it.
   */
  private static XYChart chart(
      String title,
      String yTitle,
      List<Repetition<Sweep>> repetitions,
      ToDoubleFunction<LoadStep> figure,
      double targetLine
  )
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                                              .xAxisTitle("offered load (x the tuned limit's whole answers per second)")
                                              .yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(7);
    double maxLoad = 0;
    for (int r = 0; r < repetitions.size(); r++) {
      for (Sweep sweep : repetitions.get(r).runs()) {
        final List<LoadStep> shown = sweep.steps()
                                          .stream()
                                          .filter(s -> Double.isFinite(figure.applyAsDouble(s)))
                                          .toList();
        if (shown.isEmpty()) {
          continue;
        }
        chart.addSeries(
            sweep.setup() + ", repetition " + (r + 1),
            shown.stream().mapToDouble(LoadStep::loadFactor).toArray(),
            shown.stream().mapToDouble(figure).toArray()
        ).setMarker(STOCK.equals(sweep.setup()) ? SeriesMarkers.SQUARE : SeriesMarkers.CIRCLE);
        maxLoad = Math.max(maxLoad, shown.get(shown.size() - 1).loadFactor());
      }
    }
    chart.addSeries("target", new double[]{0, Math.max(1, maxLoad)}, new double[]{targetLine, targetLine})
         .setMarker(SeriesMarkers.NONE);
    return chart;
  }

  private static String number(double value, int decimals)
  {
    return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
