package org.getafix.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.demo.RepetitionsReport.Measure;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.MetricsReceiver;
import org.getafix.localcluster.experiment.RoutingComparison;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.simulator.report.HtmlReporter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.getafix.localcluster.experiment.RoutingComparison.ADAPTIVE;
import static org.getafix.localcluster.experiment.RoutingComparison.CONNECTION_COUNT;

/**
 * The routing experiment of {@code ./getafix bench live}: Druid's {@code connectionCount} against
 * {@code getafixAdaptive} on a fresh cluster of equal Historicals, every segment on all of them, one Historical
 * throttled to a straggler while measured ({@link RoutingComparison}). Each repetition runs both strategies, the order
 * reversed every other repetition (ABBA); the report gives each ratio per repetition with its median and range, and
 * the medians apart by order.
 */
final class RoutingBench
{
  static final String DATA_SOURCE = "getafix_routing";
  /** The baseline first, as the order of the odd repetitions. */
  static final List<String> STRATEGIES = List.of(CONNECTION_COUNT, ADAPTIVE);
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final int HISTORICALS = 3;
  private static final double EQUAL_CORES = 0.5;

  /** One strategy's measured phase, as the report needs it. */
  record Figures(
      String strategy,
      long queries,
      long failures,
      double queriesPerSecond,
      double p50Millis,
      double p99Millis,
      double stragglerShare
  )
  {
    static Figures of(RoutingComparison.Phase phase, String straggler)
    {
      return new Figures(
          phase.type(),
          phase.run().outcomes().size(),
          phase.run().failures().size(),
          phase.run().queriesPerSecond(),
          phase.p50Millis(),
          phase.p99Millis(),
          phase.shareOf(straggler)
      );
    }
  }

  /** The phases of one repetition, in the order they ran. */
  record Repetition(List<Figures> phases)
  {
    Repetition
    {
      phases = List.copyOf(phases);
    }

    Figures of(String strategy)
    {
      return phases.stream().filter(p -> p.strategy().equals(strategy)).findFirst().orElseThrow(
          () -> new IllegalArgumentException("no phase of " + strategy + " in " + phases)
      );
    }

    boolean baselineFirst()
    {
      return phases.get(0).strategy().equals(CONNECTION_COUNT);
    }

    String order()
    {
      return phases.stream().map(Figures::strategy).collect(Collectors.joining(","));
    }
  }

  private final boolean quick;
  private final int repetitions;
  private final Path root;
  private final Path outDir;
  private final PrintStream out;

  RoutingBench(boolean quick, int repetitions, Path root, Path outDir, PrintStream out)
  {
    this.quick = quick;
    this.repetitions = repetitions;
    this.root = root;
    this.outDir = outDir;
    this.out = out;
  }

  /** The strategies of each repetition: as in {@link #STRATEGIES}, then reversed, and so on (ABBA). */
  static List<List<String>> schedule(int repetitions)
  {
    final List<String> reversed = new ArrayList<>(STRATEGIES);
    Collections.reverse(reversed);
    return IntStream.range(0, repetitions).mapToObj(r -> r % 2 == 0 ? STRATEGIES : List.copyOf(reversed)).toList();
  }

  static RoutingComparison.Settings settings(boolean quick)
  {
    return new RoutingComparison.Settings(
        0,
        EQUAL_CORES,
        Demo.STRAGGLER_CORES,
        Demo.CLIENTS,
        7L,
        quick ? JitCompilerCpu.WarmUp.QUERIES : JitCompilerCpu.WarmUp.WORKLOAD,
        Duration.ofSeconds(quick ? 10 : 15),
        Duration.ofSeconds(quick ? 20 : 40)
    );
  }

  /** Starts a cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    final Path workDir = outDir.resolve("cluster");
    final ClusterConfig config = GetafixSetup.clusterConfig(root)
                                             .workDir(workDir)
                                             .druidLibDir(root.resolve(ClusterConfig.DEFAULT_DRUID_LIB_DIR))
                                             .historicals(HISTORICALS)
                                             .cpuQuotas(Collections.nCopies(HISTORICALS, EQUAL_CORES))
                                             .build();
    progress("starting a cluster of " + HISTORICALS + " Historicals at " + EQUAL_CORES + " cores each");
    try (LocalDruidCluster cluster = LocalDruidCluster.start(config); MetricsReceiver metrics = MetricsReceiver.start()) {
      if (!cluster.cgroupsEnabled()) {
        progress("WARNING: cgroups not writable: no CPU caps and no straggler, so the strategies will not differ");
      }
      final SyntheticDataset dataset = SyntheticDataset.hourly(DATA_SOURCE, quick ? 24 : 100, quick ? 2_000 : 5_000);
      progress("ingesting " + dataset.hours() + " hourly segments x " + dataset.rowsPerHour() + " rows");
      dataset.ingest(cluster.coordinatorClient(), cluster.runDir().resolve("input"), Duration.ofMinutes(15));
      cluster.coordinatorClient().awaitFullyLoaded(DATA_SOURCE, Duration.ofMinutes(10));
      final RoutingComparison comparison = new RoutingComparison(cluster, dataset, metrics, settings(quick));
      progress("placing every segment on every Historical, then warming the cluster up");
      final JitCompilerCpu.Settling settling = comparison.prepare();
      progress(String.format(
          Locale.ROOT, "warmed up in %d s; the JIT compilers' largest share of a Historical's CPU at the end: %.2f",
          settling.took().toSeconds(), settling.lastShare()
      ));
      final List<Repetition> done = new ArrayList<>();
      for (List<String> order : schedule(repetitions)) {
        progress("repetition " + (done.size() + 1) + " of " + repetitions + ": " + String.join(", then ", order));
        final List<Figures> phases = new ArrayList<>();
        for (String type : order) {
          final Figures figures = Figures.of(comparison.runPhase(type), comparison.straggler());
          progress(String.format(
              Locale.ROOT, "  %s: %d queries, %d failed, p99 %.0f ms, straggler's share of sub-queries %.3f",
              type, figures.queries(), figures.failures(), figures.p99Millis(), figures.stragglerShare()
          ));
          phases.add(figures);
        }
        done.add(new Repetition(phases));
      }
      final Path report = write(outDir, comparison.describe(), done);
      out.println();
      out.print(text(done));
      out.println("report:  " + report);
      return report;
    }
  }

  /** {@code getafixAdaptive}'s figures over {@code connectionCount}'s in the same repetition. */
  static List<Measure> ratios(List<Repetition> repetitions)
  {
    return List.of(
        ratio(repetitions, "p99", Figures::p99Millis),
        ratio(repetitions, "p50", Figures::p50Millis),
        ratio(repetitions, "throughput", Figures::queriesPerSecond),
        ratio(repetitions, "straggler's share of sub-queries", Figures::stragglerShare)
    );
  }

  /** Each strategy's own figures. */
  static List<Measure> figures(List<Repetition> repetitions)
  {
    final List<Measure> figures = new ArrayList<>();
    for (String strategy : STRATEGIES) {
      figures.add(figure(repetitions, strategy, "p99 (ms)", Figures::p99Millis));
      figures.add(figure(repetitions, strategy, "straggler's share of sub-queries", Figures::stragglerShare));
      figures.add(figure(repetitions, strategy, "failed queries", f -> f.failures()));
      figures.add(figure(repetitions, strategy, "queries", f -> f.queries()));
    }
    return figures;
  }

  private static Measure ratio(List<Repetition> repetitions, String name, ToDoubleFunction<Figures> figure)
  {
    return new Measure(name, repetitions.stream().map(r -> {
      final double baseline = figure.applyAsDouble(r.of(CONNECTION_COUNT));
      return baseline > 0 ? figure.applyAsDouble(r.of(ADAPTIVE)) / baseline : Double.NaN;
    }).toList());
  }

  private static Measure figure(
      List<Repetition> repetitions,
      String strategy,
      String name,
      ToDoubleFunction<Figures> figure
  )
  {
    return new Measure(
        strategy + ": " + name,
        repetitions.stream().map(r -> figure.applyAsDouble(r.of(strategy))).toList()
    );
  }

  static Path write(Path dir, String setup, List<Repetition> repetitions) throws IOException
  {
    Files.createDirectories(dir);
    MAPPER.writeValue(dir.resolve("results.json").toFile(), json(setup, repetitions));
    final Path report = dir.resolve("report.html");
    Files.writeString(report, html(setup, repetitions), StandardCharsets.UTF_8);
    return report;
  }

  static ObjectNode json(String setup, List<Repetition> repetitions)
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("experiment", "live-bench-routing");
    root.put("setup", setup);
    root.put("repetitions", repetitions.size());
    final ArrayNode orders = root.putArray("order");
    repetitions.forEach(r -> orders.add(r.order()));
    final List<Boolean> baselineFirst = baselineFirst(repetitions);
    final ObjectNode ratios = root.putObject("ratios");
    ratios.put("of", ADAPTIVE + " / " + CONNECTION_COUNT);
    for (Measure m : ratios(repetitions)) {
      final ObjectNode node = RepetitionsReport.measureJson(ratios.putObject(m.name()), m);
      node.put("medianConnectionCountFirst", DemoReport.nullIfNaN(m.median(baselineFirst)));
      node.put("medianAdaptiveFirst", DemoReport.nullIfNaN(m.median(baselineFirst.stream().map(b -> !b).toList())));
    }
    final ObjectNode figures = root.putObject("figures");
    for (Measure m : figures(repetitions)) {
      RepetitionsReport.measureJson(figures.putObject(m.name()), m);
    }
    return root;
  }

  static String text(List<Repetition> repetitions)
  {
    final StringBuilder sb = new StringBuilder(String.format(
        Locale.ROOT,
        "routing: %d repetitions, in the orders: %s%n%s / %s, median [range] over the repetitions:%n",
        repetitions.size(),
        repetitions.stream().map(Repetition::order).collect(Collectors.joining("; ")),
        ADAPTIVE,
        CONNECTION_COUNT
    ));
    for (Measure m : ratios(repetitions)) {
      sb.append(String.format(Locale.ROOT, "  %-34s %s%n", m.name(), RepetitionsReport.medianAndRange(m)));
    }
    for (Measure m : figures(repetitions)) {
      sb.append(String.format(Locale.ROOT, "  %s: %s%n", m.name(), RepetitionsReport.medianAndRange(m)));
    }
    return sb.toString();
  }

  static String html(String setup, List<Repetition> repetitions)
  {
    System.setProperty("java.awt.headless", "true");
    final List<String> orders = repetitions.stream().map(Repetition::order).toList();
    final List<Measure> ratios = ratios(repetitions);
    final StringBuilder html = new StringBuilder(HtmlReporter.pageStart("getafix bench live: Broker routing"));
    html.append("<h1>Broker routing with a straggler, ").append(repetitions.size()).append(" repetitions</h1>");
    html.append("<p>").append(HtmlReporter.escape(setup)).append(".</p>");
    html.append("<p>Each repetition runs both strategies, in the order given and reversed every other repetition "
                + "(ABBA), so that each runs as often first as second; every phase restarts the Broker and is "
                + "warmed the same way before it is measured with the same query sequence.</p>");
    html.append("<h2>").append(ADAPTIVE).append(" over ").append(CONNECTION_COUNT).append("</h2>");
    html.append(RepetitionsReport.table(
        orders, ratios, baselineFirst(repetitions), CONNECTION_COUNT + " first", ADAPTIVE + " first"
    ));
    html.append("<p>Below 1 is better for ").append(ADAPTIVE).append(" in latency and in the straggler's share, "
                                                                      + "above 1 in throughput.</p>");
    html.append(DemoReport.chart(RepetitionsReport.ratiosChart(ADAPTIVE + " / " + CONNECTION_COUNT, ratios)));
    html.append("<h2>Each strategy</h2>").append(RepetitionsReport.table(orders, figures(repetitions), null, "", ""));
    html.append("</body></html>");
    return html.toString();
  }

  private static List<Boolean> baselineFirst(List<Repetition> repetitions)
  {
    return repetitions.stream().map(Repetition::baselineFirst).toList();
  }

  private void progress(String message)
  {
    out.println("[bench routing] " + message);
  }
}
