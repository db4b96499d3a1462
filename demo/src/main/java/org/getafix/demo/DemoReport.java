package org.getafix.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.simulator.report.HtmlReporter;
import org.getafix.simulator.report.ResultsJsonReporter;
import org.getafix.simulator.report.RunOutcome;
import org.getafix.simulator.report.RunResult;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Writes the demo's {@code report.html} (self-contained, with the simulator report's look and charts) and
 * {@code results.json} (the simulator's shape, plus a {@code live} section for what only a live run has).
 */
public final class DemoReport
{
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final int WIDTH = 900;
  private static final int HEIGHT = 420;

  private DemoReport()
  {
  }

  /** Writes both files into {@code dir} and returns the report's path. */
  public static Path write(Path dir, DemoResults results) throws IOException
  {
    Files.createDirectories(dir);
    MAPPER.writeValue(dir.resolve("results.json").toFile(), json(results));
    final Path report = dir.resolve("report.html");
    Files.writeString(report, html(results), StandardCharsets.UTF_8);
    return report;
  }

  /** One per phase, in the comparison's order (stock Druid first). */
  public static List<RunOutcome> outcomes(DemoResults results)
  {
    return results.compared().stream()
                  .map(p -> new RunOutcome(p.strategy().label(), PhaseAnalysis.runResult(p), PhaseAnalysis.runTrace(p)))
                  .toList();
  }

  public static ObjectNode json(DemoResults results)
  {
    final ObjectNode root = ResultsJsonReporter.toJson(
        "live-demo",
        results.seed(),
        results.measureSeconds(),
        results.warmUpSeconds(),
        null,
        outcomes(results)
    );
    final ObjectNode live = root.putObject("live");
    live.put("cluster", results.cluster());
    live.put("workload", results.workload());
    final ArrayNode order = live.putArray("order");
    results.phases().forEach(p -> order.add(p.strategy().label()));
    final ObjectNode jit = live.putObject("jitWarmUp");
    jit.put("settledShare", results.jitWarmUp().settledShare());
    jit.put("windowSeconds", results.jitWarmUp().window().toSeconds());
    jit.put("deadlineSeconds", results.jitWarmUp().deadline().toSeconds());
    final ObjectNode runs = live.putObject("runs");
    for (PhaseRecord p : results.compared()) {
      final ObjectNode run = runs.putObject(p.strategy().label());
      run.put("position", results.phases().indexOf(p) + 1);
      final PhaseWarmUp w = p.warmUp();
      final ObjectNode warmUp = run.putObject("warmUp");
      warmUp.put("seconds", w.seconds());
      warmUp.put("placementSeconds", w.placementSeconds());
      warmUp.put("jitSeconds", w.jitSeconds());
      warmUp.put("jitWindows", w.jitWindows());
      warmUp.put("jitShareAtEnd", nullIfNaN(w.jitShareAtEnd()));
      warmUp.put("jitShareWhileMeasured", nullIfNaN(w.jitShareMeasured()));
      final long[] churn = PhaseAnalysis.loadsAndDropsTotal(p.samples());
      run.put("failedQueries", p.failures());
      run.put("queriesPerSecond", p.queries() / Math.max(1e-9, p.wallSeconds()));
      run.put("loads", churn[0]);
      run.put("drops", churn[1]);
      run.put("loadedShareOfDataPerHour", nullIfNaN(PhaseAnalysis.loadedShareOfDataPerHour(p)));
      run.put("statsRejected", p.statsRejected());
      run.put("statsMissing", p.statsMissing());
      run.put("placementSettled", p.settled());
      run.put("straggler", p.straggler());
      run.put("stragglerAtSecond", nullIfNaN(p.stragglerAt()));
      run.put("stragglerAfterSeconds", nullIfNaN(p.stragglerAfter()));
      run.put("measuredSeconds", p.wallSeconds());
      run.putPOJO("failureExamples", p.failureExamples());
      final QualityAnalysis.Figures f = QualityAnalysis.figures(p.timeline(), qualities(p));
      run.put("partialAnswers", p.quality() == null ? null : f.partial());
      run.put("meanQuality", p.quality() == null ? null : nullIfNaN(f.meanQuality()));
      run.put("hedged", p.quality() != null && p.quality().hedged());
      run.put("hedgesSent", p.quality() == null ? null : p.quality().hedgesSent());
      run.put("hedgesWon", p.quality() == null ? null : p.quality().hedgesWon());
    }
    live.set("answerQuality", answerQualityJson(results));
    final List<Ratios.Ratio> ratios = ratios(results);
    if (!ratios.isEmpty()) {
      final ObjectNode node = live.putObject("ratios");
      node.put("of", Strategy.GETAFIX.label() + " / " + Strategy.STOCK.label());
      node.put("intervalCoverage", Ratios.COVERAGE);
      for (Ratios.Ratio r : ratios) {
        final ObjectNode ratio = node.putObject(r.name());
        ratio.put("value", nullIfNaN(r.value()));
        ratio.put("low", nullIfNaN(r.low()));
        ratio.put("high", nullIfNaN(r.high()));
      }
    }
    return root;
  }

  /** druid-getafix over stock Druid; empty unless both ran. */
  static List<Ratios.Ratio> ratios(DemoResults results)
  {
    final PhaseRecord stock = results.phase(Strategy.STOCK);
    final PhaseRecord getafix = results.phase(Strategy.GETAFIX);
    return stock == null || getafix == null ? List.of() : Ratios.of(stock, getafix);
  }

  private static List<Double> qualities(PhaseRecord p)
  {
    return p.quality() == null ? List.of() : p.quality().matureQualities();
  }

  static Double nullIfNaN(double d)
  {
    return Double.isNaN(d) ? null : d;
  }

  /**
   * {@code live.answerQuality}: per run, the budget and sampling in force (null for a run without budgets), the
   * coverage of the measured budgeted answers, the mature-run qualities, and latency and partial answers before and
   * after the straggler.
   */
  static ObjectNode answerQualityJson(DemoResults results)
  {
    final ObjectNode quality = MAPPER.createObjectNode();
    for (PhaseRecord p : results.compared()) {
      final ObjectNode run = quality.putObject(p.strategy().label());
      final QualityAnalysis.Figures f = QualityAnalysis.figures(p.timeline(), qualities(p));
      if (p.quality() == null) {
        run.putNull("budgetMs");
      } else {
        run.put("budgetMs", p.quality().budgetMs());
        run.put("budgetSource", p.quality().budgetSource());
        run.put("matureSampleRate", p.quality().matureSampleRate());
        run.put("budgetedQueries", f.budgeted());
        run.put("partialAnswers", f.partial());
        run.put("partialFraction", nullIfNaN(f.partialFraction()));
        run.put("meanCoverage", nullIfNaN(f.meanCoverage()));
        run.putPOJO("coverageDistribution", f.coverageClasses());
        run.put("matureRuns", f.matureRuns());
        run.put("meanQuality", nullIfNaN(f.meanQuality()));
        run.put("p10Quality", nullIfNaN(f.p10Quality()));
        run.put("matureRunsFailed", p.quality().matureRunsFailed());
        run.put("matureRunsSkipped", p.quality().matureRunsSkipped());
      }
      windowJson(run.putObject("beforeStraggler"), QualityAnalysis.beforeStraggler(p));
      windowJson(run.putObject("afterStraggler"), QualityAnalysis.afterStraggler(p));
    }
    return quality;
  }

  private static void windowJson(ObjectNode node, QualityAnalysis.Window w)
  {
    node.put("queries", w.queries());
    node.put("p99Ms", nullIfNaN(w.p99Ms()));
    node.put("partialAnswers", w.partial());
  }

  /** Answer quality and coverage as text, for the console. */
  public static String qualityText(DemoResults results)
  {
    final StringBuilder sb = new StringBuilder("answer quality and coverage:\n");
    for (PhaseRecord p : results.compared()) {
      final QualityAnalysis.Window before = QualityAnalysis.beforeStraggler(p);
      final QualityAnalysis.Window after = QualityAnalysis.afterStraggler(p);
      sb.append("  ").append(p.strategy().label()).append(": ");
      if (p.quality() == null) {
        sb.append("no budgets");
      } else {
        final QualityAnalysis.Figures f = QualityAnalysis.figures(p.timeline(), p.quality().matureQualities());
        sb.append(String.format(
            Locale.ROOT,
            "budget %d ms; %d of %d answers partial; mean coverage %.3f; mature-run quality mean %s, p10 %s (n=%d)",
            p.quality().budgetMs(), f.partial(), f.budgeted(), f.meanCoverage(), fixed(f.meanQuality()),
            fixed(f.p10Quality()), f.matureRuns()
        ));
      }
      sb.append(String.format(
          Locale.ROOT,
          "; p99 %.0f -> %.0f ms and %d -> %d partial answers before -> after the straggler%n",
          before.p99Ms(), after.p99Ms(), before.partial(), after.partial()
      ));
    }
    return sb.toString();
  }

  private static String fixed(double d)
  {
    return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.3f", d);
  }

  private static String percent(double d)
  {
    return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * d);
  }

  /** A JIT compiler share of a Historical's CPU; NaN where /proc could not tell. */
  static String share(double d)
  {
    return Double.isNaN(d) ? "not measured" : String.format(Locale.ROOT, "%.1f%%", 100 * d);
  }

  /** The order the phases ran in, how each was warmed, where its straggler came and the ratios, for the console. */
  public static String comparisonText(DemoResults results)
  {
    final StringBuilder sb = new StringBuilder("order and warm-up:\n");
    for (PhaseRecord p : results.phases()) {
      final PhaseWarmUp w = p.warmUp();
      sb.append(String.format(
          Locale.ROOT,
          "  %d. %s: warmed %.0f s (placement %.0f s, JIT %.0f s in %d windows); JIT share %s at the end of the "
          + "warm-up, %s while measured; straggler at %s s of %.0f s measured%n",
          results.phases().indexOf(p) + 1, p.strategy().label(), w.seconds(), w.placementSeconds(), w.jitSeconds(),
          w.jitWindows(), share(w.jitShareAtEnd()), share(w.jitShareMeasured()), seconds(p.stragglerAfter()),
          p.wallSeconds()
      ));
    }
    final List<Ratios.Ratio> ratios = ratios(results);
    if (!ratios.isEmpty()) {
      sb.append(Strategy.GETAFIX.label()).append(" / ").append(Strategy.STOCK.label()).append(":");
      for (Ratios.Ratio r : ratios) {
        sb.append(String.format(Locale.ROOT, " %s %.2f%s", r.name(), r.value(), interval(r)));
      }
      sb.append(String.format(Locale.ROOT, "%n"));
    }
    return sb.toString();
  }

  private static String seconds(double d)
  {
    return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.1f", d);
  }

  private static String interval(Ratios.Ratio r)
  {
    return Double.isNaN(r.low()) ? "" : String.format(Locale.ROOT, " [%.2f, %.2f]", r.low(), r.high());
  }

  /** The summary table as aligned text, for the console. */
  public static String summaryText(DemoResults results)
  {
    final StringBuilder sb = new StringBuilder(String.format(
        Locale.ROOT,
        "%-14s %7s %6s %7s %7s %8s %8s %8s %5s %7s %11s %5s %5s %7s%n",
        "run", "queries", "failed", "partial", "quality", "p50 ms", "p99 ms", "replicas", "RF", "mem MB", "max node MB",
        "loads", "drops", "tiering"
    ));
    for (PhaseRecord p : results.compared()) {
      final RunResult r = PhaseAnalysis.runResult(p);
      final long[] churn = PhaseAnalysis.loadsAndDropsTotal(p.samples());
      sb.append(String.format(
          Locale.ROOT,
          "%-14s %7d %6d %7s %7s %8.1f %8.1f %8d %5.2f %7.1f %11.1f %5d %5d %7s%n",
          p.strategy().label(), p.queries(), p.failures(), partialCell(p), qualityCell(p), r.latencyMs().p50(),
          r.latencyMs().p99(), r.totalReplicas(),
          r.effectiveReplicationFactor(), r.totalMemoryBytes() / 1e6, r.maxNodeMemoryBytes() / 1e6, churn[0], churn[1],
          r.tieringAccuracy() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.tieringAccuracy())
      ));
    }
    return sb.toString();
  }

  /** Partial answers as a share of the measured budgeted ones; a dash for a run without budgets. */
  private static String partialCell(PhaseRecord p)
  {
    return p.quality() == null
           ? "–"
           : percent(QualityAnalysis.figures(p.timeline(), List.of()).partialFraction());
  }

  private static String qualityCell(PhaseRecord p)
  {
    return p.quality() == null ? "–" : fixed(QualityAnalysis.figures(List.of(), qualities(p)).meanQuality());
  }

  public static String html(DemoResults results)
  {
    System.setProperty("java.awt.headless", "true");
    final List<RunOutcome> outcomes = outcomes(results);
    final StringBuilder html = new StringBuilder(HtmlReporter.pageStart("getafix demo: stock Druid vs druid-getafix"));
    html.append("<h1>Stock Druid vs druid-getafix on a live cluster</h1>");
    html.append("<p>").append(HtmlReporter.escape(results.cluster())).append("</p><p>")
        .append(HtmlReporter.escape(results.workload())).append("</p>");
    html.append(String.format(
        Locale.ROOT,
        "<p>Each strategy ran on the same cluster and data, one after the other: placement handed over, %.0f s of "
        + "workload, more until placement settled, more until the Historicals' JIT compilers settled, then %.0f s "
        + "measured with the same query sequence (seed %d). Halfway through the measurement the Historical with the "
        + "most cores is throttled (the straggler).</p>",
        results.warmUpSeconds(), results.measureSeconds(), results.seed()
    ));
    html.append(table(results, outcomes));
    html.append(ratiosSection(results));
    html.append(orderSection(results));
    html.append("<h2>Query latency CDF</h2>").append(chart(HtmlReporter.latencyCdf(outcomes)));
    html.append("<h2>Replicas vs popularity</h2><p>Each point is one segment: its rank by the measured queries that "
                + "read it (1 = most read) and the replicas it held at the end of the run.</p>")
        .append(chart(HtmlReporter.replicasVsPopularity(outcomes)));
    html.append("<h2>Node load over time</h2><p>Nodes on the x axis, most cores first; each row is one sample "
                + "(about one Getafix round), each cell the query CPU time the node used as a share of its cap "
                + "(dark = idle; the scale ends at the largest share seen in any run, so the runs compare; the Historicals' "
                + "CPU accounting can exceed the cap a little). Long runs average consecutive samples into at most "
                + PhaseAnalysis.MAX_ROWS + " rows. Rows from the straggler's throttling on are measured against its "
                + "new cap.</p>");
    final double maxLoad = results.phases().stream()
                                  .flatMap(p -> Arrays.stream(PhaseAnalysis.nodeUtilisation(p)))
                                  .flatMapToDouble(Arrays::stream)
                                  .max()
                                  .orElse(1);
    for (PhaseRecord p : results.compared()) {
      html.append("<h3>").append(HtmlReporter.escape(p.strategy().label())).append("</h3>")
          .append(stragglerNote(p))
          .append(chart(loadHeatMap(p, Math.max(0.1, Math.ceil(maxLoad * 10) / 10))));
    }
    html.append("<h2>Tiers over time</h2><p>The tier Getafix measured for each node per round (red = hot, orange = "
                + "warm, blue = cold). Stock Druid has no tiers.</p>");
    boolean anyTiers = false;
    for (RunOutcome o : outcomes) {
      if (!o.trace().tierByRound().isEmpty()) {
        anyTiers = true;
        html.append("<h3>").append(HtmlReporter.escape(o.label())).append("</h3>")
            .append(chart(HtmlReporter.heatMap(o, "seconds since the strategy took over")));
      }
    }
    if (!anyTiers) {
      html.append("<p>No run published tiers.</p>");
    }
    html.append("<h2>Loads and drops per round</h2><p>Replicas that appeared (loads) and disappeared (drops) "
                + "between consecutive samples, from the hand-over of placement to the end of the measurement.</p>")
        .append(chart(churnChart(results)));
    html.append(qualitySection(results));
    html.append("</body></html>");
    return html.toString();
  }

  private static String table(DemoResults results, List<RunOutcome> outcomes)
  {
    final StringBuilder t = new StringBuilder(
        "<table style=\"font-size:85%\"><tr><th>run</th><th>balancer</th><th>router</th><th>queries</th><th>failed</th><th>q/s</th>"
        + "<th>partial answers</th><th>mean quality</th><th>p50 ms</th><th>p99 ms</th><th>replicas</th><th>eff. RF</th><th>memory MB</th><th>max node MB</th>"
        + "<th>loads</th><th>drops</th><th>tiering acc.</th><th>settled</th></tr>"
    );
    for (int i = 0; i < outcomes.size(); i++) {
      final PhaseRecord p = results.compared().get(i);
      final RunResult r = outcomes.get(i).result();
      final long[] churn = PhaseAnalysis.loadsAndDropsTotal(p.samples());
      t.append(String.format(
          Locale.ROOT,
          "<tr><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%.1f</td><td>%s</td><td>%s</td><td>%.1f</td>"
          + "<td>%.1f</td><td>%d</td><td>%.2f</td><td>%.1f</td><td>%.1f</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>",
          HtmlReporter.escape(p.strategy().label()), r.strategy(), r.routing(), p.queries(), p.failures(),
          p.queries() / Math.max(1e-9, p.wallSeconds()), partialCell(p), qualityCell(p),
          r.latencyMs().p50(), r.latencyMs().p99(), r.totalReplicas(),
          r.effectiveReplicationFactor(), r.totalMemoryBytes() / 1e6, r.maxNodeMemoryBytes() / 1e6, churn[0], churn[1],
          r.tieringAccuracy() == null ? "–" : String.format(Locale.ROOT, "%.2f", r.tieringAccuracy()),
          p.settled() ? "yes" : "no (timed out)"
      ));
    }
    t.append("</table><p>Replicas and memory are averaged over the measured samples; loads and drops count the "
             + "whole phase; partial answers are the measured budgeted queries the budget cut off, mean quality the "
             + "mean measured quality of their sampled mature runs (see Answer quality and coverage); tiering accuracy is the share of node-samples whose Getafix tier matches the caps at "
             + "that moment (largest cap HOT, smallest COLD).</p>");
    for (PhaseRecord p : results.compared()) {
      if (!p.failureExamples().isEmpty()) {
        t.append("<p>").append(HtmlReporter.escape(p.strategy().label())).append(" failures, e.g.: ")
         .append(HtmlReporter.escape(String.join(" | ", p.failureExamples()))).append("</p>");
      }
    }
    return t.toString();
  }

  private static String ratiosSection(DemoResults results)
  {
    final List<Ratios.Ratio> ratios = ratios(results);
    if (ratios.isEmpty()) {
      return "";
    }
    final StringBuilder h = new StringBuilder(String.format(
        Locale.ROOT,
        "<h2>%s over %s</h2><table><tr><th>ratio</th><th>value</th><th>%.0f%% interval</th></tr>",
        HtmlReporter.escape(Strategy.GETAFIX.label()), HtmlReporter.escape(Strategy.STOCK.label()),
        100 * Ratios.COVERAGE
    ));
    for (Ratios.Ratio r : ratios) {
      h.append(String.format(
          Locale.ROOT,
          "<tr><td>%s</td><td>%.2f</td><td>%s</td></tr>",
          HtmlReporter.escape(r.name()), r.value(), Double.isNaN(r.low()) ? "–" : interval(r).trim()
      ));
    }
    h.append(String.format(
        Locale.ROOT,
        "</table><p>Replicas are averaged over the measured samples. The latency intervals hold the central %.0f%% "
        + "of the ratios of bootstrap resamples of each run's answered queries (those before and after the "
        + "straggler resampled apart): the noise of sampling queries alone, not of the machine's load from run to "
        + "run, so the ratios of two runs may differ by more.</p>",
        100 * Ratios.COVERAGE
    ));
    return h.toString();
  }

  /** The order the phases ran in, how each was warmed and where its straggler came. */
  private static String orderSection(DemoResults results)
  {
    final List<PhaseRecord> phases = results.phases();
    final JitCompilerCpu.WarmUp jit = results.jitWarmUp();
    final StringBuilder h = new StringBuilder("<h2>Order and warm-up</h2><p>The phases ran in this order: ");
    h.append(HtmlReporter.escape(phases.stream().map(p -> p.strategy().label()).collect(Collectors.joining(", then "))))
     .append(". ");
    final PhaseRecord getafix = results.phase(Strategy.GETAFIX);
    if (phases.size() > 1 && getafix != null && getafix.quality() != null) {
      h.append("The order is <code>--strategies</code>' (stock Druid first by default), reversed in every other "
               + "repetition of a benchmark. druid-getafix's budget, ")
       .append(getafix.quality().budgetMs()).append(" ms, is ")
       .append(HtmlReporter.escape(getafix.quality().budgetSource()))
       .append(". ");
    }
    h.append(String.format(
        Locale.ROOT,
        "Every phase was warmed the same way before it was measured: the workload for %.0f s and on until "
        + "placement settled, then in %d s windows until no Historical's JIT compilers took more than %.0f%% of "
        + "its CPU over a window (at most %d s). A fresh cluster's Historicals spend a large share of their capped "
        + "CPU compiling during whichever phase comes first; the JIT warm-up is there to keep that out of the "
        + "measurement, and the share while measured (the largest of any Historical) shows how far it did.</p>",
        results.warmUpSeconds(), jit.window().toSeconds(), 100 * jit.settledShare(), jit.deadline().toSeconds()
    ));
    h.append("<table><tr><th>ran</th><th>run</th><th>warm-up s</th><th>of which placement s</th>"
             + "<th>of which JIT s (windows)</th><th>JIT share, last warm-up window</th>"
             + "<th>JIT share while measured</th><th>straggler throttled at s</th><th>measured s</th></tr>");
    for (PhaseRecord p : phases) {
      final PhaseWarmUp w = p.warmUp();
      h.append(String.format(
          Locale.ROOT,
          "<tr><td>%d</td><td>%s</td><td>%.0f</td><td>%.0f</td><td>%.0f (%d)</td><td>%s</td><td>%s</td>"
          + "<td>%s</td><td>%.1f</td></tr>",
          phases.indexOf(p) + 1, HtmlReporter.escape(p.strategy().label()), w.seconds(), w.placementSeconds(),
          w.jitSeconds(), w.jitWindows(), share(w.jitShareAtEnd()), share(w.jitShareMeasured()),
          seconds(p.stragglerAfter()), p.wallSeconds()
      ));
    }
    h.append(phases.stream().allMatch(p -> p.straggler() == null)
             ? "</table><p>No straggler: the CPU caps could not be changed at run time."
             : "</table><p>The straggler is throttled by a timer started with each measurement, half its length in: "
               + "at the same point of every phase (the table gives the second into the measurement at which it "
               + "was).");
    for (PhaseRecord p : phases) {
      final PhaseWarmUp w = p.warmUp();
      if (w.jitShareAtEnd() > jit.settledShare()) {
        h.append(' ').append(HtmlReporter.escape(p.strategy().label()))
         .append(": the JIT warm-up reached its deadline before the compilers settled.");
      }
      if (w.jitShareMeasured() > jit.settledShare()) {
        h.append(' ').append(HtmlReporter.escape(p.strategy().label()))
         .append(": the compilers were still busy while measured, so its figures include some of their work.");
      }
    }
    h.append("</p>");
    return h.toString();
  }

  private static String qualitySection(DemoResults results)
  {
    final StringBuilder h = new StringBuilder("<h2>Answer quality and coverage</h2>");
    final List<PhaseRecord> budgeted = results.compared().stream().filter(p -> p.quality() != null).toList();
    if (budgeted.isEmpty()) {
      h.append("<p>No run carried budgets, so every answer was whole.</p>");
    }
    for (PhaseRecord p : budgeted) {
      final QualityRecord q = p.quality();
      h.append(String.format(
          Locale.ROOT,
          "<p>%s: every query (warm-up included) carried <code>getafixBudgetMs</code> = <b>%d ms</b>, %s; a "
          + "Historical that had not answered by then was cut off and the answer covers the segments that did. The "
          + "Broker gave a share of %.2f of them (<code>druid.getafix.quality.matureSampleRate</code>, raised from the "
          + "default 0.1 for a short run) a mature run: the late sub-queries kept running and the online answer was "
          + "compared with the complete one (quality 1 = identical). Mature runs failed: %d; skipped (too many in "
          + "flight): %d, over the whole phase. %s</p>",
          HtmlReporter.escape(p.strategy().label()), q.budgetMs(), HtmlReporter.escape(q.budgetSource()),
          q.matureSampleRate(), q.matureRunsFailed(), q.matureRunsSkipped(),
          q.hedged()
          ? String.format(
              Locale.ROOT,
              "Every query also carried <code>getafixHedge</code> = true: a sub-query late by its Historical's "
              + "recent latency had its segments re-sent to their other holders; %d hedges sent, %d of them used.",
              q.hedgesSent(), q.hedgesWon()
          )
          : "Queries were not hedged."
      ));
    }
    h.append("<table><tr><th>run</th><th>budgeted queries</th><th>partial (timed out)</th><th>mean coverage</th>");
    for (String label : QualityAnalysis.figures(List.of(), List.of()).coverageClasses().keySet()) {
      h.append("<th>coverage ").append(HtmlReporter.escape(label)).append("</th>");
    }
    h.append("<th>mature runs</th><th>quality mean</th><th>quality p10</th></tr>");
    for (PhaseRecord p : budgeted) {
      final QualityAnalysis.Figures f = QualityAnalysis.figures(p.timeline(), p.quality().matureQualities());
      h.append(String.format(
          Locale.ROOT,
          "<tr><td>%s</td><td>%d</td><td>%d (%s)</td><td>%s</td>",
          HtmlReporter.escape(p.strategy().label()), f.budgeted(), f.partial(), percent(f.partialFraction()),
          fixed(f.meanCoverage())
      ));
      f.coverageClasses().values().forEach(n -> h.append(String.format(
          Locale.ROOT, "<td>%d (%s)</td>", n, percent(f.budgeted() == 0 ? Double.NaN : n / (double) f.budgeted())
      )));
      h.append(String.format(
          Locale.ROOT,
          "<td>%d</td><td>%s</td><td>%s</td></tr>",
          f.matureRuns(), fixed(f.meanQuality()), fixed(f.p10Quality())
      ));
    }
    h.append("</table><p>Coverage is the answered share of the segments a query read, from the "
             + "<code>getafixCoverage</code> entry of its <code>X-Druid-Response-Context</code> header; the quality "
             + "of a mature run is the quality monitor's measure of the online answer against the complete one "
             + "(p10: nearest rank).</p>");
    h.append("<h3>The straggler: slow answers or partial ones</h3><p>Queries sent before and after the Historical "
             + "with the most cores was throttled.</p><table><tr><th>run</th><th>queries before</th>"
             + "<th>p99 ms before</th><th>partial before</th><th>queries after</th><th>p99 ms after</th>"
             + "<th>partial after</th></tr>");
    for (PhaseRecord p : results.compared()) {
      final QualityAnalysis.Window before = QualityAnalysis.beforeStraggler(p);
      final QualityAnalysis.Window after = QualityAnalysis.afterStraggler(p);
      h.append(String.format(
          Locale.ROOT,
          "<tr><td>%s</td><td>%d</td><td>%.1f</td><td>%s</td><td>%d</td><td>%.1f</td><td>%s</td></tr>",
          HtmlReporter.escape(p.strategy().label()), before.queries(), before.p99Ms(),
          p.quality() == null ? "–" : before.partial() + " (" + percent(before.partialFraction()) + ")",
          after.queries(), after.p99Ms(),
          p.quality() == null ? "–" : after.partial() + " (" + percent(after.partialFraction()) + ")"
      ));
    }
    h.append("</table>");
    h.append("<p>Each point is one measured query: when it was sent and how long its answer took; partial answers "
             + "(cut off by the budget) are drawn apart, and a vertical line marks when each run's straggler was throttled.</p>").append(chart(latencyOverTime(results)));
    return h.toString();
  }

  private static XYChart latencyOverTime(DemoResults results)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .xAxisTitle("seconds since the measurement started")
                                              .yAxisTitle("latency ms").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setMarkerSize(4);
    for (PhaseRecord p : results.compared()) {
      final List<TimedQuery> whole = p.timeline().stream().filter(q -> !q.partial()).toList();
      final List<TimedQuery> partial = p.timeline().stream().filter(TimedQuery::partial).toList();
      final Color color = p.quality() == null ? new Color(0x2c7bb6) : new Color(0xfdae61);
      addScatter(chart, p.strategy().label() + (p.quality() == null ? "" : " whole answers"), whole, p.measureFrom(),
                 color, SeriesMarkers.CIRCLE);
      // Few and important: a darker, different marker so that they stand out of the whole answers.
      addScatter(chart, p.strategy().label() + " partial answers", partial, p.measureFrom(), new Color(0xd7191c),
                 SeriesMarkers.DIAMOND);
      if (!Double.isNaN(p.stragglerAt()) && !p.timeline().isEmpty()) {
        final double at = p.stragglerAt() - p.measureFrom();
        final double top = p.timeline().stream().mapToDouble(TimedQuery::latencyMs).max().orElse(0);
        final XYSeries line = chart.addSeries(p.strategy().label() + " straggler throttled", new double[]{at, at},
                                              new double[]{0, top});
        line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        line.setMarker(SeriesMarkers.NONE);
        line.setLineColor(color.darker());
        line.setLineStyle(SeriesLines.DASH_DASH);
      }
    }
    if (chart.getSeriesMap().isEmpty()) {
      chart.addSeries("no queries", new double[]{0}, new double[]{0});
    }
    return chart;
  }

  private static void addScatter(
      XYChart chart,
      String name,
      List<TimedQuery> queries,
      double from,
      Color color,
      Marker marker
  )
  {
    if (!queries.isEmpty()) {
      final XYSeries series = chart.addSeries(
          name,
          queries.stream().mapToDouble(q -> q.seconds() - from).toArray(),
          queries.stream().mapToDouble(TimedQuery::latencyMs).toArray()
      );
      series.setMarker(marker);
      series.setMarkerColor(color);
    }
  }

  private static String stragglerNote(PhaseRecord p)
  {
    return p.straggler() == null
           ? "<p>No straggler (CPU caps could not be changed at run time).</p>"
           : String.format(
               Locale.ROOT,
               "<p>Measured from second %.0f to %.0f; %s throttled at second %.0f.</p>",
               p.measureFrom(), p.measureTo(), HtmlReporter.escape(nodeName(p, p.straggler())), p.stragglerAt()
           );
  }

  private static String nodeName(PhaseRecord p, String host)
  {
    return p.nodes().stream().filter(n -> n.host().equals(host)).map(n -> n.name() + " (" + host + ")")
            .findFirst().orElse(host);
  }

  private static HeatMapChart loadHeatMap(PhaseRecord p, double maxLoad)
  {
    final List<Node> nodes = PhaseAnalysis.byQuota(p.nodes());
    final double[][] load = PhaseAnalysis.nodeUtilisation(p);
    final HeatMapChart chart = new HeatMapChartBuilder().width(WIDTH).height(HEIGHT)
                                                        .xAxisTitle("node (most cores first)")
                                                        .yAxisTitle("seconds since the strategy took over").build();
    chart.getStyler().setRangeColors(new Color[]{new Color(0x1a1a40), new Color(0x2c7bb6), new Color(0xfdae61),
                                                 new Color(0xd7191c)});
    chart.getStyler().setMin(0);
    chart.getStyler().setMax(maxLoad);
    chart.getStyler().setShowValue(false);
    chart.getStyler().setLegendVisible(true);
    final List<String> x = nodes.stream().map(n -> n.name() + " (" + n.quota() + ")").toList();
    final List<String> y = new ArrayList<>();
    final List<Number[]> cells = new ArrayList<>();
    // Consecutive intervals are averaged into at most MAX_ROWS rows, so that the time labels stay readable.
    final int every = Math.max(1, (load.length + PhaseAnalysis.MAX_ROWS - 1) / PhaseAnalysis.MAX_ROWS);
    for (int from = 0, row = 0; from < load.length; from += every, row++) {
      final int to = Math.min(load.length, from + every);
      y.add(String.format(Locale.ROOT, "%.0f", p.samples().get(to).seconds()));
      for (int n = 0; n < nodes.size(); n++) {
        double sum = 0;
        for (int r = from; r < to; r++) {
          sum += load[r][n];
        }
        cells.add(new Number[]{n, row, sum / (to - from)});
      }
    }
    if (y.isEmpty()) {
      y.add("0");
      for (int n = 0; n < nodes.size(); n++) {
        cells.add(new Number[]{n, 0, 0});
      }
    }
    chart.addSeries("share of cap", x, y, cells);
    return chart;
  }

  private static XYChart churnChart(DemoResults results)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .xAxisTitle("seconds since the strategy took over")
                                              .yAxisTitle("replicas per round").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setMarkerSize(5);
    for (PhaseRecord p : results.compared()) {
      final int[][] churn = PhaseAnalysis.loadsAndDrops(p.samples());
      if (churn.length == 0) {
        continue;
      }
      final double[] x = new double[churn.length];
      final double[] loads = new double[churn.length];
      final double[] drops = new double[churn.length];
      for (int i = 0; i < churn.length; i++) {
        x[i] = p.samples().get(i + 1).seconds();
        loads[i] = churn[i][0];
        drops[i] = -churn[i][1];
      }
      chart.addSeries(p.strategy().label() + " loads", x, loads).setMarker(SeriesMarkers.CIRCLE);
      chart.addSeries(p.strategy().label() + " drops (negative)", x, drops).setMarker(SeriesMarkers.DIAMOND);
    }
    if (chart.getSeriesMap().isEmpty()) {
      chart.addSeries("no samples", new double[]{0}, new double[]{0});
    }
    return chart;
  }

  static String chart(Chart<?, ?> chart)
  {
    try {
      return HtmlReporter.image(chart);
    }
    catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
