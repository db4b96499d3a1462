package org.getafix.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.simulator.report.HtmlReporter;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;

/**
 * The report of a comparison run several times on one cluster ({@code ./getafix bench live}): each figure per
 * repetition, with its median and range, and the ratios' medians apart for the repetitions in which stock Druid ran
 * first and those in which druid-getafix did, which shows how much the order moves them. Each repetition's own report
 * ({@link DemoReport}) is written beside it.
 */
public final class RepetitionsReport
{
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final int WIDTH = 900;
  private static final int HEIGHT = 420;

  private RepetitionsReport()
  {
  }

  /**
   * One figure over the repetitions.
   *
   * @param name    what it is
   * @param values  its value in each repetition, in the order they ran; NaN where a repetition had none
   */
  public record Measure(String name, List<Double> values)
  {
    public Measure
    {
      values = List.copyOf(values);
    }

    public double median()
    {
      return RepetitionsReport.median(values);
    }

    public double min()
    {
      return finite(values).min().orElse(Double.NaN);
    }

    public double max()
    {
      return finite(values).max().orElse(Double.NaN);
    }

    /** The median over the repetitions {@code chosen} says to take. */
    public double median(List<Boolean> chosen)
    {
      return RepetitionsReport.median(
          IntStream.range(0, values.size()).filter(chosen::get).mapToObj(values::get).toList()
      );
    }
  }

  /** Where repetition {@code index} (from 0) writes its own report, under the benchmark's directory. */
  static String directory(int index)
  {
    return "repetition-" + (index + 1);
  }

  /** Per repetition, whether stock Druid ran before druid-getafix. */
  static List<Boolean> stockFirst(List<DemoResults> repetitions)
  {
    return repetitions.stream().map(r -> r.phases().get(0).strategy() == Strategy.STOCK).toList();
  }

  /** druid-getafix's figures over stock Druid's ({@link Ratios}), one measure per ratio; empty unless both ran. */
  static List<Measure> ratios(List<DemoResults> repetitions)
  {
    final List<List<Ratios.Ratio>> each = repetitions.stream().map(DemoReport::ratios).toList();
    if (each.stream().anyMatch(List::isEmpty)) {
      return List.of();
    }
    return IntStream.range(0, each.get(0).size())
                    .mapToObj(i -> new Measure(
                        each.get(0).get(i).name(),
                        each.stream().map(r -> r.get(i).value()).toList()
                    ))
                    .toList();
  }

  /** Failures of each strategy, druid-getafix's budgeted answers, and how busy the JIT compilers still were. */
  static List<Measure> figures(List<DemoResults> repetitions)
  {
    final List<Measure> figures = new ArrayList<>();
    for (Strategy strategy : Strategy.values()) {
      figures.add(measure(repetitions, strategy.label() + ": failed queries", strategy, p -> p.failures()));
      figures.add(measure(
          repetitions,
          strategy.label() + ": bytes loaded per hour before the straggler, share of the data",
          strategy,
          PhaseAnalysis::loadedShareOfDataPerHour
      ));
      figures.add(measure(
          repetitions,
          strategy.label() + ": largest JIT share of a Historical's CPU while measured",
          strategy,
          p -> p.warmUp().jitShareMeasured()
      ));
    }
    figures.add(measure(repetitions, "Historical statistics the Coordinator rejected (Historical-rounds)",
                        Strategy.GETAFIX, PhaseRecord::statsRejected));
    figures.add(measure(repetitions, "Historical statistics that came late (Historical-rounds)",
                        Strategy.GETAFIX, PhaseRecord::statsMissing));
    figures.add(measure(repetitions, Strategy.GETAFIX.label() + ": partial answers (share)", Strategy.GETAFIX,
                        p -> p.quality() == null ? Double.NaN : quality(p).partialFraction()));
    figures.add(measure(repetitions, Strategy.GETAFIX.label() + ": mean coverage", Strategy.GETAFIX,
                        p -> p.quality() == null ? Double.NaN : quality(p).meanCoverage()));
    figures.add(measure(repetitions, Strategy.GETAFIX.label() + ": mean measured answer quality", Strategy.GETAFIX,
                        p -> p.quality() == null ? Double.NaN : quality(p).meanQuality()));
    if (repetitions.stream().map(r -> r.phase(Strategy.GETAFIX)).anyMatch(p -> p != null && p.quality() != null
                                                                                 && p.quality().hedged())) {
      figures.add(measure(repetitions, Strategy.GETAFIX.label() + ": hedges sent", Strategy.GETAFIX,
                          p -> p.quality() == null ? Double.NaN : p.quality().hedgesSent()));
      figures.add(measure(repetitions, Strategy.GETAFIX.label() + ": hedges used", Strategy.GETAFIX,
                          p -> p.quality() == null ? Double.NaN : p.quality().hedgesWon()));
    }
    return figures;
  }

  private static QualityAnalysis.Figures quality(PhaseRecord p)
  {
    return QualityAnalysis.figures(p.timeline(), p.quality().matureQualities());
  }

  private static Measure measure(
      List<DemoResults> repetitions,
      String name,
      Strategy strategy,
      ToDoubleFunction<PhaseRecord> figure
  )
  {
    return new Measure(
        name,
        repetitions.stream()
                   .map(r -> r.phase(strategy))
                   .map(p -> p == null ? Double.NaN : figure.applyAsDouble(p))
                   .toList()
    );
  }

  /** Writes {@code results.json} and {@code report.html} into {@code dir} and returns the report's path. */
  public static Path write(Path dir, List<DemoResults> repetitions) throws IOException
  {
    return write(dir, json(repetitions), html(repetitions));
  }

  /** Writes {@code json} as {@code results.json} and {@code html} as {@code report.html} into {@code dir}. */
  static Path write(Path dir, ObjectNode json, String html) throws IOException
  {
    Files.createDirectories(dir);
    MAPPER.writeValue(dir.resolve("results.json").toFile(), json);
    final Path report = dir.resolve("report.html");
    Files.writeString(report, html, StandardCharsets.UTF_8);
    return report;
  }

  public static ObjectNode json(List<DemoResults> repetitions)
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("experiment", "live-bench");
    final DemoResults first = repetitions.get(0);
    root.put("cluster", first.cluster());
    root.put("workload", first.workload());
    root.put("seed", first.seed());
    root.put("warmUpSeconds", first.warmUpSeconds());
    root.put("measureSeconds", first.measureSeconds());
    root.put("repetitions", repetitions.size());
    final ArrayNode orders = root.putArray("order");
    for (int i = 0; i < repetitions.size(); i++) {
      final ArrayNode order = orders.addArray();
      repetitions.get(i).phases().forEach(p -> order.add(p.strategy().label()));
    }
    final List<Boolean> stockFirst = stockFirst(repetitions);
    final ObjectNode ratios = root.putObject("ratios");
    ratios.put("of", Strategy.GETAFIX.label() + " / " + Strategy.STOCK.label());
    for (Measure m : ratios(repetitions)) {
      final ObjectNode node = measureJson(ratios.putObject(m.name()), m);
      node.put("medianStockFirst", DemoReport.nullIfNaN(m.median(stockFirst)));
      node.put("medianGetafixFirst", DemoReport.nullIfNaN(m.median(stockFirst.stream().map(b -> !b).toList())));
    }
    final ObjectNode figures = root.putObject("figures");
    for (Measure m : figures(repetitions)) {
      measureJson(figures.putObject(m.name()), m);
    }
    final ArrayNode reports = root.putArray("repetitionReports");
    IntStream.range(0, repetitions.size()).forEach(i -> reports.add(directory(i) + "/report.html"));
    return root;
  }

  static ObjectNode measureJson(ObjectNode node, Measure m)
  {
    node.put("median", DemoReport.nullIfNaN(m.median()));
    node.put("min", DemoReport.nullIfNaN(m.min()));
    node.put("max", DemoReport.nullIfNaN(m.max()));
    final ArrayNode values = node.putArray("values");
    m.values().forEach(v -> values.add(DemoReport.nullIfNaN(v)));
    return node;
  }

  /** The ratios' and figures' medians and ranges, for the console. */
  public static String text(List<DemoResults> repetitions)
  {
    final StringBuilder sb = new StringBuilder(String.format(
        Locale.ROOT,
        "%d repetitions, in the orders: %s%n%s / %s, median [range] over the repetitions:%n",
        repetitions.size(),
        repetitions.stream().map(RepetitionsReport::order).collect(Collectors.joining("; ")),
        Strategy.GETAFIX.label(),
        Strategy.STOCK.label()
    ));
    final List<Boolean> stockFirst = stockFirst(repetitions);
    for (Measure m : ratios(repetitions)) {
      sb.append(String.format(
          Locale.ROOT,
          "  %-12s %s   (stock first %s, getafix first %s)%n",
          m.name(), medianAndRange(m), fixed(m.median(stockFirst)),
          fixed(m.median(stockFirst.stream().map(b -> !b).toList()))
      ));
    }
    return sb.append(lines(figures(repetitions))).toString();
  }

  /** A line per measure with its median and range, for the console. */
  static String lines(List<Measure> measures)
  {
    return measures.stream()
                   .map(m -> String.format(Locale.ROOT, "  %s: %s%n", m.name(), medianAndRange(m)))
                   .collect(Collectors.joining());
  }

  private static String order(DemoResults repetition)
  {
    return repetition.phases().stream().map(p -> p.strategy().option()).collect(Collectors.joining(","));
  }

  public static String html(List<DemoResults> repetitions)
  {
    System.setProperty("java.awt.headless", "true");
    final DemoResults first = repetitions.get(0);
    final List<Measure> ratios = ratios(repetitions);
    final StringBuilder html = new StringBuilder(HtmlReporter.pageStart("getafix bench live: stock Druid vs druid-getafix"));
    html.append("<h1>Stock Druid vs druid-getafix on a live cluster, ").append(repetitions.size())
        .append(" repetitions</h1>");
    html.append("<p>").append(HtmlReporter.escape(first.cluster())).append("</p><p>")
        .append(HtmlReporter.escape(first.workload())).append("</p>");
    html.append(String.format(
        Locale.ROOT,
        "<p>One cluster and one dataset for every phase. Each repetition runs both strategies, in the order given "
        + "and reversed every other repetition (ABBA), so that each runs as often first as second. Every phase is "
        + "warmed the same way: placement handed over, %.0f s of workload, more until placement settled, more until "
        + "the Historicals' JIT compilers settled; then %.0f s measured with the same query sequence (seed %d), the "
        + "Historical with the most cores throttled halfway through. Orders: %s.</p>",
        first.warmUpSeconds(), first.measureSeconds(), first.seed(),
        HtmlReporter.escape(repetitions.stream().map(RepetitionsReport::order).collect(Collectors.joining("; ")))
    ));
    if (!ratios.isEmpty()) {
      html.append("<h2>").append(HtmlReporter.escape(Strategy.GETAFIX.label())).append(" over ")
          .append(HtmlReporter.escape(Strategy.STOCK.label())).append("</h2>");
      html.append(table(repetitions, ratios, true));
      html.append("<p>Below 1 is better for druid-getafix in latency and replicas, above 1 in throughput. The "
                  + "medians apart by order show how much running second helps (or hurts): where they differ by "
                  + "more than the range of either, the order moved the figure more than the machine's noise.</p>");
      html.append(DemoReport.chart(ratiosChart(ratios)));
    }
    html.append("<h2>Failures, budgeted answers and JIT compilers</h2>")
        .append(table(repetitions, figures(repetitions), false))
        .append("<p>Partial answers are druid-getafix's measured budgeted queries the budget cut off; coverage the "
                + "answered share of the segments they read; quality the mean measured quality of the sampled mature "
                + "runs (1 = the complete answer). The JIT share is the largest of any Historical while measured: "
                + "above a few percent, the compilers' work is part of that phase's figures.</p>");
    html.append("<h2>Each repetition</h2><ul>");
    for (int i = 0; i < repetitions.size(); i++) {
      html.append(String.format(
          Locale.ROOT, "<li><a href=\"%s/report.html\">repetition %d</a> (%s)</li>",
          directory(i), i + 1, HtmlReporter.escape(order(repetitions.get(i)))
      ));
    }
    html.append("</ul></body></html>");
    return html.toString();
  }

  private static String table(List<DemoResults> repetitions, List<Measure> measures, boolean byOrder)
  {
    return table(
        repetitions.stream().map(RepetitionsReport::order).toList(),
        measures,
        byOrder ? stockFirst(repetitions) : null,
        "stock first",
        "getafix first"
    );
  }

  /**
   * A table of {@code measures}, a column per repetition (headed by its number and {@code labels}), then the median and
   * range; unless {@code firstOrder} is null, also the medians apart for the repetitions in which it is true and false.
   */
  static String table(
      List<String> labels,
      List<Measure> measures,
      List<Boolean> firstOrder,
      String whenTrue,
      String whenFalse
  )
  {
    final StringBuilder t = new StringBuilder("<table><tr><th>figure</th>");
    for (int i = 0; i < labels.size(); i++) {
      t.append("<th>").append(i + 1).append(" (").append(HtmlReporter.escape(labels.get(i))).append(")</th>");
    }
    t.append("<th>median</th><th>range</th>");
    if (firstOrder != null) {
      t.append("<th>median, ").append(HtmlReporter.escape(whenTrue)).append("</th><th>median, ")
       .append(HtmlReporter.escape(whenFalse)).append("</th>");
    }
    t.append("</tr>");
    for (Measure m : measures) {
      t.append("<tr><td>").append(HtmlReporter.escape(m.name())).append("</td>");
      m.values().forEach(v -> t.append("<td>").append(fixed(v)).append("</td>"));
      t.append("<td><b>").append(fixed(m.median())).append("</b></td><td>")
       .append(fixed(m.min())).append("–").append(fixed(m.max())).append("</td>");
      if (firstOrder != null) {
        t.append("<td>").append(fixed(m.median(firstOrder))).append("</td><td>")
         .append(fixed(m.median(firstOrder.stream().map(b -> !b).toList()))).append("</td>");
      }
      t.append("</tr>");
    }
    return t.append("</table>").toString();
  }

  private static XYChart ratiosChart(List<Measure> ratios)
  {
    return ratiosChart("druid-getafix / stock Druid per repetition", ratios);
  }

  /** Each ratio per repetition, as points, against the line of no difference. */
  static XYChart ratiosChart(String title, List<Measure> ratios)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .title(title)
                                              .xAxisTitle("repetition").yAxisTitle("ratio").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(9);
    final int n = ratios.get(0).values().size();
    final double[] x = IntStream.rangeClosed(1, n).asDoubleStream().toArray();
    for (Measure m : ratios) {
      chart.addSeries(m.name(), x, m.values().stream().mapToDouble(Double::doubleValue).toArray());
    }
    chart.addSeries("1 (no difference)", new double[]{1, n}, new double[]{1, 1})
         .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line)
         .setMarker(SeriesMarkers.NONE);
    return chart;
  }

  static String medianAndRange(Measure m)
  {
    return fixed(m.median()) + " [" + fixed(m.min()) + ", " + fixed(m.max()) + "]";
  }

  /** The median of the finite values; NaN if there are none. */
  static double median(List<Double> values)
  {
    final double[] sorted = finite(values).sorted().toArray();
    if (sorted.length == 0) {
      return Double.NaN;
    }
    final int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  private static DoubleStream finite(List<Double> values)
  {
    return values.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite);
  }

  private static String fixed(double d)
  {
    return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.2f", d);
  }
}
