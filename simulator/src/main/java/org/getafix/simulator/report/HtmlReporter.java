package org.getafix.simulator.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.getafix.simulator.settings.ScenarioSettings;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * Writes {@code report.html}, self-contained: the figures table and XChart plots embedded as base64 PNGs —
 * latency CDFs, replicas vs popularity, node tiers over time (thesis Fig 4.3), improvement over Getafix-B
 * (Figs 4.1/4.2) and, for several γ, maximum memory vs latency (Fig 4.4).
 */
public final class HtmlReporter implements Reporter
{
  private static final int WIDTH = 900;
  private static final int HEIGHT = 480;

  @Override
  public Path write(Path dir, SimulationResults results) throws IOException
  {
    final ScenarioSettings scenario = results.scenario();
    final List<RunOutcome> outcomes = results.runs();
    System.setProperty("java.awt.headless", "true");
    final StringBuilder html = new StringBuilder();
    html.append(pageStart("getafix simulation: " + scenario.name()));
    html.append("<h1>Scenario ").append(escape(scenario.name())).append("</h1><p>")
        .append(escape(scenario.description())).append("</p>");
    html.append(String.format(
        Locale.ROOT,
        "<p>Seed %d; %.0f simulated seconds (first %.0f s warm-up, not measured); rounds of %.1f s; %d nodes, "
        + "%d clients; offered load %.0f%% of nominal core capacity.</p>",
        scenario.seed(), scenario.durationSeconds(), scenario.warmupSeconds(), scenario.roundSeconds(),
        scenario.totalNodes(), scenario.clients().count(), 100 * scenario.offeredUtilisation()
    ));
    html.append(table(outcomes));
    if (scenario.execution() != null) {
      html.append(execution(scenario, outcomes));
    }
    if (scenario.redundancy() != null) {
      html.append(redundancy(scenario, outcomes));
    }
    html.append("<h2>Query latency CDF</h2>").append(image(latencyCdf(outcomes)));
    final Optional<RunOutcome> baseline =
        outcomes.stream().filter(o -> o.result().strategy().equals("getafix-b")).findFirst();
    if (baseline.isPresent() && outcomes.size() > 1) {
      html.append("<h2>Improvement over ").append(escape(baseline.get().label()))
          .append(" (thesis Figs 4.1, 4.2; higher is better)</h2>")
          .append(image(improvements(outcomes, baseline.get())));
    }
    if (outcomes.stream().map(o -> o.result().gamma()).distinct().count() > 1) {
      html.append("<h2>Maximum memory vs latency per γ (thesis Fig 4.4; lower is better on both axes)</h2>")
          .append(image(memoryVsLatency(outcomes)));
    }
    html.append("<h2>Replicas vs popularity</h2><p>Each point is one segment: its rank by accesses "
                + "in the last minute of injection (1 = most accessed) and the replicas it held when injection stopped.</p>")
        .append(image(replicasVsPopularity(outcomes)));
    html.append("<h2>Node tiers over time (thesis Fig 4.3)</h2><p>Nodes on the x axis, most cores first; each row "
                + "is one round, each cell the tier of the node's CPU time that round (red = hot, orange = warm, "
                + "blue = cold).</p>");
    for (RunOutcome o : outcomes) {
      if (!o.trace().tierByRound().isEmpty()) {
        html.append("<h3>").append(escape(o.label())).append("</h3>").append(image(heatMap(o, "simulated time (s)")));
      }
    }
    html.append("</body></html>");
    final Path file = dir.resolve("report.html");
    Files.writeString(file, html, StandardCharsets.UTF_8);
    return file;
  }

  /**
   * The opening of a report page, up to and including {@code <body>}: the title and the style every getafix report
   * shares (also {@code ./getafix demo}'s).
   */
  public static String pageStart(String title)
  {
    return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + escape(title)
           + "</title><style>body{font-family:sans-serif;max-width:1000px;margin:auto}"
           + "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}"
           + "th{background:#eee}td:first-child{text-align:left}</style></head><body>";
  }

  private static String table(List<RunOutcome> outcomes)
  {
    final StringBuilder t = new StringBuilder(
        "<table><tr><th>run</th><th>strategy</th><th>routing</th><th>γ</th><th>p50 ms</th><th>mean ms</th>"
        + "<th>p99 ms</th><th>makespan s</th><th>total memory GB</th><th>max node GB</th><th>replicas</th>"
        + "<th>extra replicas</th><th>eff. RF</th><th>tiering acc.</th><th>utilisation</th><th>loads</th>"
        + "<th>moved loads</th><th>data moved / h</th></tr>"
    );
    for (RunOutcome o : outcomes) {
      final RunResult r = o.result();
      t.append(String.format(
          Locale.ROOT,
          "<tr><td>%s</td><td>%s</td><td>%s</td><td>%.2f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td>"
          + "<td>%.1f</td><td>%.1f</td><td>%d</td><td>%d</td><td>%.3f</td><td>%s</td><td>%.0f%%</td><td>%d</td>"
          + "<td>%d</td><td>%.1f%%</td></tr>",
          escape(o.label()), r.strategy(), r.routing(), r.gamma(), r.latencyMs().p50(), r.latencyMs().mean(),
          r.latencyMs().p99(), r.makespanMs() / 1000, r.totalMemoryBytes() / 1e9, r.maxNodeMemoryBytes() / 1e9,
          r.totalReplicas(), r.extraReplicas(), r.effectiveReplicationFactor(),
          r.tieringAccuracy() == null ? "–" : String.format(Locale.ROOT, "%.2f", r.tieringAccuracy()),
          100 * r.meanUtilisation(), r.replicaLoads(), r.movedLoads(), 100 * r.movedDataPerHour()
      ));
    }
    return t.append("</table>").toString();
  }

  /** Budgeted execution: sustained load, the sweep's figures, quality and response time vs load, the controller. */
  private static String execution(ScenarioSettings scenario, List<RunOutcome> outcomes) throws IOException
  {
    final ScenarioSettings.Execution settings = scenario.execution();
    final StringBuilder h = new StringBuilder(String.format(
        Locale.ROOT,
        "<h2>Budgeted execution</h2><p>Response-time target %.0f ms (mean), quality target %.2f.</p>"
        + "<table><tr><th>scheme</th><th>sustained load ×</th><th>queries/s</th><th>limited by</th></tr>",
        settings.rtTargetMillis(), settings.qualityTarget()
    ));
    SustainedLoad.of(outcomes, settings.qualityTarget()).forEach((scheme, l) -> h.append(String.format(
        Locale.ROOT, "<tr><td>%s</td><td>%.2f</td><td>%.0f</td><td>%s</td></tr>",
        escape(scheme), l.loadFactor(), l.queriesPerSecond(), l.limitedBy()
    )));
    h.append("</table><table><tr><th>run</th><th>offered q/s</th><th>mean RT ms</th><th>mean quality</th>"
             + "<th>completed fraction</th><th>rejected</th><th>partial</th><th>control</th><th>settling</th><th>reach</th>"
             + "<th>steady-state error</th></tr>");
    final Map<String, List<ExecutionResult>> sweeps = new LinkedHashMap<>();
    final List<RunOutcome> steps = new ArrayList<>();
    for (RunOutcome o : outcomes) {
      final ExecutionResult e = o.result().execution();
      if (e == null) {
        continue;
      }
      h.append(String.format(
          Locale.ROOT,
          "<tr><td>%s</td><td>%.0f</td><td>%.1f</td><td>%.3f</td><td>%.3f</td><td>%.1f%%</td><td>%.1f%%</td>"
          + "<td>%.1f</td><td>%s</td><td>%s</td><td>%s</td></tr>",
          escape(o.label()), e.offeredQueriesPerSecond(), e.meanResponseMillis(), e.meanQuality(),
          e.meanCompletedFraction(), 100 * e.rejectedFraction(), 100 * e.partialFraction(), e.meanControl(),
          e.settlingIntervals() == null ? "–" : e.settlingIntervals().toString(),
          e.reachIntervals() == null ? "–" : e.reachIntervals().toString(),
          e.steadyStateError() == null ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * e.steadyStateError())
      ));
      if (e.settlingIntervals() != null) {
        steps.add(o);
      } else {
        sweeps.computeIfAbsent(e.scheme(), k -> new ArrayList<>()).add(e);
      }
    }
    h.append("</table>");
    if (!sweeps.isEmpty()) {
      h.append("<h3>Mean quality vs offered load</h3>")
       .append(image(sweepChart(sweeps, "mean answer quality", ExecutionResult::meanQuality)))
       .append("<h3>Mean response time vs offered load</h3>")
       .append(image(sweepChart(sweeps, "mean response time (ms)", ExecutionResult::meanResponseMillis)));
    }
    if (!steps.isEmpty()) {
      h.append("<h3>Response time under a load step (budget paper Fig 11)</h3>").append(image(stepChart(steps)));
    }
    return h.toString();
  }

  /** Redundant sub-queries: the figures per run, and what each policy chose and reached over time. */
  private static String redundancy(ScenarioSettings scenario, List<RunOutcome> outcomes) throws IOException
  {
    final StringBuilder h = new StringBuilder(String.format(
        Locale.ROOT,
        "<h2>Redundant sub-queries</h2><p>SLO: a sub-query (a segment's share of a query) within %.0f ms.</p>"
        + "<table><tr><th>run</th><th>mode</th><th>extra sub-queries</th><th>sub-queries within SLO</th>"
        + "<th>predicted within SLO</th><th>queries over SLO</th><th>mean r</th><th>p99 ms</th></tr>",
        scenario.redundancy().sloMillis()
    ));
    for (RunOutcome o : outcomes) {
      final RedundancyResult r = o.result().redundancy();
      h.append(String.format(
          Locale.ROOT,
          "<tr><td>%s</td><td>%s</td><td>%.1f%%</td><td>%.2f%%</td><td>%s</td><td>%.2f%%</td><td>%s</td>"
          + "<td>%.1f</td></tr>",
          escape(o.label()), r.mode(), 100 * r.extraShare(), 100 * r.subQueriesWithinSlo(),
          r.predictedWithinSlo() == null ? "–" : String.format(Locale.ROOT, "%.2f%%", 100 * r.predictedWithinSlo()),
          100 * r.queriesOverSlo(),
          r.meanReplicationFactor() == null ? "–" : String.format(Locale.ROOT, "%.2f", r.meanReplicationFactor()),
          o.result().latencyMs().p99()
      ));
    }
    h.append("</table>")
     .append("<h3>Copies beyond one per sub-query, per period</h3>")
     .append(image(periodChart(outcomes, "extra copies per sub-query", RedundancyResult.Period::extraShare)))
     .append("<h3>Sub-queries within the SLO, per period</h3>")
     .append(image(periodChart(outcomes, "share within SLO", RedundancyResult.Period::withinSlo)));
    return h.toString();
  }

  private static XYChart periodChart(
      List<RunOutcome> outcomes,
      String yTitle,
      ToDoubleFunction<RedundancyResult.Period> y
  )
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .xAxisTitle("simulated seconds").yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setMarkerSize(0);
    for (RunOutcome o : outcomes) {
      final List<RedundancyResult.Period> periods = o.result().redundancy().periods();
      if (!periods.isEmpty()) {
        chart.addSeries(
            o.label(),
            periods.stream().mapToDouble(RedundancyResult.Period::startSeconds).toArray(),
            periods.stream().mapToDouble(y).toArray()
        );
      }
    }
    return chart;
  }

  private static XYChart sweepChart(
      Map<String, List<ExecutionResult>> sweeps,
      String yTitle,
      ToDoubleFunction<ExecutionResult> y
  )
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .xAxisTitle("offered queries per second").yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    sweeps.forEach((scheme, points) -> chart.addSeries(
        scheme,
        points.stream().mapToDouble(ExecutionResult::offeredQueriesPerSecond).toArray(),
        points.stream().mapToDouble(y).toArray()
    ));
    return chart;
  }

  private static XYChart stepChart(List<RunOutcome> steps)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).xAxisTitle("simulated time (s)")
                                              .yAxisTitle("controlled mean response time (ms)").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setMarkerSize(0);
    for (RunOutcome o : steps) {
      final ControlTrace t = o.trace().control();
      // Every 20th reading keeps the chart small; a reading is 10 answers.
      final int n = (t.seconds().length + 19) / 20;
      final double[] x = new double[n];
      final double[] y = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = t.seconds()[i * 20];
        y[i] = t.responseMillis()[i * 20];
      }
      if (n > 0) {
        chart.addSeries(o.label(), x, y).setMarker(SeriesMarkers.NONE);
      }
    }
    return chart;
  }

  public static XYChart latencyCdf(List<RunOutcome> outcomes)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .xAxisTitle("latency (ms, log)").yAxisTitle("fraction of queries")
                                              .build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
    chart.getStyler().setMarkerSize(0);
    for (RunOutcome o : outcomes) {
      final Histogram h = o.trace().latencyMicros();
      if (h.getTotalCount() == 0) {
        continue;
      }
      final List<Double> x = new ArrayList<>();
      final List<Double> y = new ArrayList<>();
      for (HistogramIterationValue v : h.percentiles(5)) {
        x.add(Math.max(0.001, v.getValueIteratedTo() / 1000.0));
        y.add(v.getPercentileLevelIteratedTo() / 100.0);
      }
      chart.addSeries(o.label(), x, y).setMarker(SeriesMarkers.NONE);
    }
    return chart;
  }

  private static CategoryChart improvements(List<RunOutcome> outcomes, RunOutcome base)
  {
    final CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                                                          .yAxisTitle("improvement over " + base.label() + " (%)")
                                                          .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    final List<String> metrics = List.of("99th pct latency", "mean latency", "makespan", "total memory");
    final RunResult b = base.result();
    for (RunOutcome o : outcomes) {
      if (o == base) {
        continue;
      }
      final RunResult r = o.result();
      chart.addSeries(o.label(), metrics, List.of(
          gain(b.latencyMs().p99(), r.latencyMs().p99()),
          gain(b.latencyMs().mean(), r.latencyMs().mean()),
          gain(b.makespanMs(), r.makespanMs()),
          gain(b.totalMemoryBytes(), r.totalMemoryBytes())
      ));
    }
    return chart;
  }

  /** Percent by which {@code value} improves on (is below) {@code baseline}. */
  public static double gain(double baseline, double value)
  {
    return baseline == 0 ? 0 : 100 * (baseline - value) / baseline;
  }

  private static XYChart memoryVsLatency(List<RunOutcome> outcomes)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .xAxisTitle("maximum memory of a node (GB)")
                                              .yAxisTitle("mean latency (ms)").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(10);
    for (RunOutcome o : outcomes) {
      chart.addSeries(
          o.label(),
          new double[]{o.result().maxNodeMemoryBytes() / 1e9},
          new double[]{o.result().latencyMs().mean()}
      );
    }
    return chart;
  }

  public static XYChart replicasVsPopularity(List<RunOutcome> outcomes)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .xAxisTitle("segment popularity rank (log)").yAxisTitle("replicas")
                                              .build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setMarkerSize(4);
    for (RunOutcome o : outcomes) {
      final long[] accesses = o.trace().segmentAccesses();
      final int[] replicas = o.trace().segmentReplicas();
      final Integer[] order = IntStream.range(0, Math.min(accesses.length, replicas.length)).boxed()
                                       .sorted(Comparator.comparingLong(i -> -accesses[i]))
                                       .toArray(Integer[]::new);
      final double[] x = new double[order.length];
      final double[] y = new double[order.length];
      for (int rank = 0; rank < order.length; rank++) {
        x[rank] = rank + 1;
        y[rank] = replicas[order[rank]];
      }
      if (order.length > 0) {
        chart.addSeries(o.label(), x, y);
      }
    }
    return chart;
  }

  /** Tier of each node per round (red = hot, orange = warm, blue = cold), rows labelled by {@code roundTimes}. */
  public static HeatMapChart heatMap(RunOutcome o, String timeAxisTitle)
  {
    final RunTrace trace = o.trace();
    final HeatMapChart chart = new HeatMapChartBuilder().width(WIDTH).height(HEIGHT)
                                                        .xAxisTitle("node (most cores first)")
                                                        .yAxisTitle(timeAxisTitle).build();
    chart.getStyler().setRangeColors(new Color[]{new Color(0xd7191c), new Color(0xfdae61), new Color(0x2c7bb6)});
    chart.getStyler().setMin(0);
    chart.getStyler().setMax(2);
    chart.getStyler().setShowValue(false);
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setXAxisLabelRotation(60);
    final List<String> x = trace.nodeIds();
    final List<String> y = trace.roundTimes().stream().map(t -> String.format(Locale.ROOT, "%.0f", t)).toList();
    final List<Number[]> cells = new ArrayList<>();
    for (int r = 0; r < trace.tierByRound().size(); r++) {
      final int[] row = trace.tierByRound().get(r);
      for (int n = 0; n < row.length; n++) {
        cells.add(new Number[]{n, r, row[n]});
      }
    }
    chart.addSeries(o.label(), x, y, cells);
    return chart;
  }

  public static String image(Chart<?, ?> chart) throws IOException
  {
    final byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    return "<p><img alt=\"chart\" src=\"data:image/png;base64," + Base64.getEncoder().encodeToString(png) + "\"></p>";
  }

  public static String escape(String s)
  {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
