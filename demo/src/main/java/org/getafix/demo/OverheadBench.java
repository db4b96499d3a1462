package org.getafix.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.demo.PairedDifference.Pair;
import org.getafix.demo.RepetitionsReport.Measure;
import org.getafix.localcluster.client.BrokerClient;
import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.cluster.ClusterConfig;
import org.getafix.localcluster.cluster.DruidRole;
import org.getafix.localcluster.cluster.GetafixSetup;
import org.getafix.localcluster.cluster.JitCompilerCpu;
import org.getafix.localcluster.cluster.LocalDruidCluster;
import org.getafix.localcluster.cluster.Waits;
import org.getafix.localcluster.workload.QueryMix;
import org.getafix.localcluster.workload.SyntheticDataset;
import org.getafix.simulator.report.HtmlReporter;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * The overhead experiment of {@code ./getafix bench live}: what the quality monitor costs a query without a budget.
 * One cluster, two Brokers over the same Historicals, alike but for the quality monitor, which only the first loads
 * (the second is the cluster's {@link ClusterConfig.StockBroker}); every segment on one Historical, so that both send
 * each sub-query to the same one. After a warm-up, each query of the demo's workload, without a budget, goes to both
 * Brokers back to back from one client, so that they never compete, the order alternating from pair to pair. Each
 * repetition's figure is the median of the per-pair differences, quality-monitor Broker minus stock Broker, with its
 * interval ({@link PairedDifference}); the report gives it per repetition with its median and range.
 */
final class OverheadBench
{
  static final String DATA_SOURCE = "getafix_overhead";
  static final String QUALITY_MONITOR = "quality-monitor Broker";
  static final String STOCK = "stock Broker";
  /** Relative difference under which two floating-point values of an answer count as equal. */
  private static final double FLOAT_TOLERANCE = 1e-9;
  /** The most the quality monitor may cost a query without a budget: its paired median difference, in ms. */
  static final double GOAL_MILLIS = 0.5;
  static final List<Figure> FIGURES = List.of(
      new Figure("paired median difference (ms)", r -> r.difference().median()),
      new Figure("its interval, lower end (ms)", r -> r.difference().low()),
      new Figure("its interval, upper end (ms)", r -> r.difference().high()),
      new Figure("median difference, quality-monitor Broker first (ms)", r -> r.difference().medianAFirst()),
      new Figure("median difference, stock Broker first (ms)", r -> r.difference().medianBFirst()),
      new Figure(QUALITY_MONITOR + ": median (ms)", r -> r.difference().medianA()),
      new Figure(STOCK + ": median (ms)", r -> r.difference().medianB()),
      new Figure(QUALITY_MONITOR + ": p99 (ms)", r -> r.difference().p99A()),
      new Figure(STOCK + ": p99 (ms)", r -> r.difference().p99B()),
      new Figure("pairs", r -> r.difference().pairs()),
      new Figure("pairs not answered by both", Repetition::unanswered),
      new Figure("pairs answered differently", Repetition::different),
      new Figure("largest JIT share of a Broker's CPU while measured", Repetition::brokerJitShare)
  );
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int HISTORICALS = 3;
  /** The measured query sequence's seed, the same in every repetition; the warm-up's is the next. */
  private static final long SEED = 7L;
  private static final Duration VIEW = Duration.ofMinutes(2);
  private static final int WIDTH = 900;
  private static final int HEIGHT = 420;

  /** A figure of a repetition, by name. */
  record Figure(String name, ToDoubleFunction<Repetition> of)
  {
  }

  /**
   * One repetition's pairs.
   *
   * @param difference          the answered pairs compared, the quality-monitor Broker as a, the stock Broker as b
   * @param unanswered          pairs left out because either Broker failed its query
   * @param different           pairs whose two answers differed beyond floating-point rounding ({@link #sameAnswer}):
   *                            they did not do the same work (0 once both Brokers
   *                            see every segment)
   * @param qualityMonitorFirst whether the quality-monitor Broker went first in the first pair
   * @param brokerJitShare      the largest share of either Broker's CPU its JIT compilers took while measured; NaN
   *                            where /proc cannot tell
   */
  record Repetition(
      PairedDifference difference,
      int unanswered,
      int different,
      boolean qualityMonitorFirst,
      double brokerJitShare
  )
  {
    String order()
    {
      return qualityMonitorFirst ? "quality monitor first" : "stock first";
    }
  }

  /** One Broker's answer to one query: its body, or why it failed, and how long it took. */
  private record Answer(JsonNode body, String failure, double millis)
  {
  }

  private final BenchRun bench;

  OverheadBench(BenchRun bench)
  {
    this.bench = bench;
  }

  /** Starts the cluster, runs the repetitions, writes the report and stops the cluster; returns the report's path. */
  Path run() throws Exception
  {
    try (LocalDruidCluster cluster = start()) {
      final SyntheticDataset dataset =
          SyntheticDataset.hourly(DATA_SOURCE, bench.quick() ? 24 : 100, bench.quick() ? 2_000 : 5_000);
      // One replica of each segment, ruled before the data comes: both Brokers send each sub-query to its one holder.
      GetafixSetup.handPlacementToStock(cluster, DATA_SOURCE, 1);
      bench.ingest(cluster, dataset);
      awaitEveryRow(cluster, dataset);
      final QueryMix mix = QueryMix.defaultMix(dataset);
      final JitCompilerCpu jit = JitCompilerCpu.ofThisMachine();
      final List<Long> brokers = List.of(cluster.broker().pid(), cluster.stockBroker().orElseThrow().pid());
      final List<Long> warmed = new ArrayList<>(brokers);
      warmed.addAll(cluster.historicalPids());
      bench.progress("warming both Brokers and the Historicals up with pairs until their JIT compilers settle");
      final SplittableRandom warmUpQueries = new SplittableRandom(SEED + 1);
      // One window whatever /proc can tell, then more until the compilers settle.
      pairs(cluster, mix, warmUpQueries, warmUp().window(), false);
      final JitCompilerCpu.Settling settling = jit.warmUntilSettled(
          warmed, warmUp().remainingAfter(warmUp().window()), window -> pairs(cluster, mix, warmUpQueries, window, false)
      );
      bench.progress(String.format(
          Locale.ROOT, "warmed up in %d s; the JIT compilers' largest share of a process's CPU at the end: %.2f",
          warmUp().window().plus(settling.took()).toSeconds(), settling.lastShare()
      ));
      final List<Repetition> done = new ArrayList<>();
      for (int r = 0; r < bench.repetitions(); r++) {
        final boolean qualityMonitorFirst = (r % 2 == 1) != bench.secondFirst();
        bench.progress("repetition " + (r + 1) + " of " + bench.repetitions() + ": " + measure().toSeconds()
                       + " s of pairs, " + (qualityMonitorFirst ? QUALITY_MONITOR : STOCK) + " first in the first");
        final Map<Long, JitCompilerCpu.CpuTimes> before = jit.read(brokers);
        final Repetition measured = pairs(cluster, mix, new SplittableRandom(SEED), measure(), qualityMonitorFirst);
        final Repetition repetition =
            withJitShare(measured, JitCompilerCpu.largestCompilerShare(before, jit.read(brokers)));
        bench.progress("  " + summary(repetition));
        done.add(repetition);
      }
      final String setup = setup(dataset, settling);
      return bench.report(json(setup, done), html(setup, done), text(done));
    }
  }

  private LocalDruidCluster start() throws Exception
  {
    final ClusterConfig config = bench.clusterConfig()
                                      .historicals(HISTORICALS)
                                             // Druid's own replica choice, on both Brokers alike.
                                             .property(DruidRole.BROKER, "druid.broker.balancer.type", "connectionCount")
                                             .stockBroker(GetafixSetup.withoutQualityMonitor())
                                             .build();
    bench.progress("starting a cluster of " + HISTORICALS + " uncapped Historicals and two Brokers, the second "
                   + "without the quality monitor");
    return LocalDruidCluster.start(config);
  }

  /**
   * Waits until both Brokers count every row of {@code dataset}: each has every segment in its view, so that a pair's
   * two queries read the same data.
   */
  private static void awaitEveryRow(LocalDruidCluster cluster, SyntheticDataset dataset) throws Exception
  {
    final Map<String, Object> count = NativeQuery.timeseries(dataset.dataSource(), List.of(dataset.interval()))
                                                 .granularity("all")
                                                 .longSum("rows", "count")
                                                 .toMap();
    Waits.await("both Brokers to see every row", VIEW, Duration.ofSeconds(1), () -> {
      for (BrokerClient broker : List.of(cluster.brokerClient(), cluster.stockBrokerClient())) {
        if (broker.nativeQuery(count).path(0).path("result").path("rows").asLong(-1) != dataset.totalRows()) {
          return false;
        }
      }
      return true;
    }, () -> "");
  }

  private Duration measure()
  {
    return Duration.ofSeconds(bench.quick() ? 20 : 60);
  }

  /** 10 s windows, at most 1 minute (quick) or 2, so that a run stays within about 5 minutes (quick) or 8 on 2 cores. */
  private JitCompilerCpu.WarmUp warmUp()
  {
    return bench.quick()
           ? new JitCompilerCpu.WarmUp(0.10, Duration.ofSeconds(10), Duration.ofMinutes(1))
           : JitCompilerCpu.WarmUp.QUERIES;
  }

  /**
   * Sends pairs for {@code length}: each query of {@code mix} to both Brokers, one right after the other, the first
   * pair to the quality-monitor Broker first if {@code qualityMonitorFirst}, the order alternating after it.
   */
  private Repetition pairs(
      LocalDruidCluster cluster,
      QueryMix mix,
      SplittableRandom random,
      Duration length,
      boolean qualityMonitorFirst
  )
  {
    final BrokerClient qualityMonitor = cluster.brokerClient();
    final BrokerClient stock = cluster.stockBrokerClient();
    final List<Pair> pairs = new ArrayList<>();
    int unanswered = 0;
    int different = 0;
    final long end = System.nanoTime() + length.toNanos();
    for (int i = 0; System.nanoTime() < end; i++) {
      final Map<String, Object> query = mix.next(random).query();
      final boolean monitorFirst = (i % 2 == 0) == qualityMonitorFirst;
      // Serialised before the clock starts, each under an id of its own: a Historical cancels by query id.
      final String toMonitor = serialised(withQueryId(query, "-qm"));
      final String toStock = serialised(withQueryId(query, "-stock"));
      final Answer first = monitorFirst ? send(qualityMonitor, toMonitor) : send(stock, toStock);
      final Answer second = monitorFirst ? send(stock, toStock) : send(qualityMonitor, toMonitor);
      final Answer monitored = monitorFirst ? first : second;
      final Answer stocked = monitorFirst ? second : first;
      if (monitored.failure() != null || stocked.failure() != null) {
        if (unanswered++ == 0) {
          bench.progress("  a pair not answered by both: " + QUALITY_MONITOR + " " + monitored.failure() + ", "
                         + STOCK + " " + stocked.failure());
        }
        continue;
      }
      if (!sameAnswer(monitored.body(), stocked.body())) {
        if (different++ == 0) {
          bench.progress("  a pair answered differently: " + QUALITY_MONITOR + " " + abbreviated(monitored.body())
                         + ", " + STOCK + " " + abbreviated(stocked.body()));
        }
      }
      pairs.add(new Pair(monitored.millis(), stocked.millis(), monitorFirst));
    }
    if (pairs.isEmpty()) {
      throw new IllegalStateException("no query was answered by both Brokers in " + length.toSeconds() + " s");
    }
    return new Repetition(PairedDifference.of(pairs), unanswered, different, qualityMonitorFirst, Double.NaN);
  }

  /**
   * Whether two answers are the same: equal but for the last bits of floating-point values. A Broker merges the
   * Historicals' partial sums in the order they arrive, so two Brokers' sums of doubles can differ in their last digits
   * though both did the same work.
   */
  static boolean sameAnswer(JsonNode a, JsonNode b)
  {
    if (a.isFloatingPointNumber() || b.isFloatingPointNumber()) {
      if (!a.isNumber() || !b.isNumber()) {
        return false;
      }
      final double x = a.doubleValue();
      final double y = b.doubleValue();
      return x == y || Math.abs(x - y) <= FLOAT_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
    }
    if (a.isContainerNode() && b.isContainerNode()) {
      if (a.isArray() != b.isArray() || a.size() != b.size()) {
        return false;
      }
      if (a.isArray()) {
        return IntStream.range(0, a.size()).allMatch(i -> sameAnswer(a.get(i), b.get(i)));
      }
      final List<String> names = new ArrayList<>();
      a.fieldNames().forEachRemaining(names::add);
      return names.stream().allMatch(name -> b.has(name) && sameAnswer(a.get(name), b.get(name)));
    }
    return a.equals(b);
  }

  private static String abbreviated(JsonNode body)
  {
    final String text = body.toString();
    return text.length() <= 300 ? text : text.substring(0, 300) + "...";
  }

  private static Repetition withJitShare(Repetition r, double brokerJitShare)
  {
    return new Repetition(r.difference(), r.unanswered(), r.different(), r.qualityMonitorFirst(), brokerJitShare);
  }

  /** {@code query} with its {@code queryId} followed by {@code suffix}. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> withQueryId(Map<String, Object> query, String suffix)
  {
    final Map<String, Object> context = new LinkedHashMap<>((Map<String, Object>) query.get("context"));
    context.put("queryId", context.get("queryId") + suffix);
    return NativeQuery.withContext(query, context);
  }

  private static String serialised(Object value)
  {
    try {
      return MAPPER.writeValueAsString(value);
    }
    catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The query's answer and the time from sending it to its parsed body. */
  private static Answer send(BrokerClient broker, String query)
  {
    final long start = System.nanoTime();
    try {
      final JsonNode body = broker.nativeQuery(query);
      return new Answer(body, null, (System.nanoTime() - start) / 1e6);
    }
    catch (RuntimeException e) {
      return new Answer(null, e.toString(), (System.nanoTime() - start) / 1e6);
    }
  }

  private String setup(SyntheticDataset dataset, JitCompilerCpu.Settling settling)
  {
    return String.format(
        Locale.ROOT,
        "%d uncapped Historicals, %d hourly segments of %d rows, one replica each; two Brokers alike "
        + "(connectionCount) but for the quality monitor, which only the first loads; the demo's workload "
        + "(QueryMix.defaultMix) without a budget from one client, each query to both Brokers back to back, the "
        + "order alternating; warmed with pairs for %d s, until the JIT compilers of both Brokers and the Historicals "
        + "took at most %.0f%% of a process's CPU (%.2f at the end), then %d s of pairs per repetition",
        HISTORICALS, dataset.hours(), dataset.rowsPerHour(), warmUp().window().plus(settling.took()).toSeconds(),
        100 * warmUp().settledShare(), settling.lastShare(), measure().toSeconds()
    );
  }

  static List<Measure> measures(List<Repetition> repetitions)
  {
    return FIGURES.stream()
                  .map(f -> new Measure(f.name(), repetitions.stream().map(r -> f.of().applyAsDouble(r)).toList()))
                  .toList();
  }

  /** Whether the median over the repetitions of their paired median differences is within {@link #GOAL_MILLIS}. */
  static boolean goalMet(List<Repetition> repetitions)
  {
    return RepetitionsReport.median(repetitions.stream().map(r -> r.difference().median()).toList()) <= GOAL_MILLIS;
  }

  /** How many repetitions' intervals lie wholly within {@link #GOAL_MILLIS}. */
  static long intervalsWithinGoal(List<Repetition> repetitions)
  {
    return repetitions.stream().filter(r -> r.difference().high() <= GOAL_MILLIS).count();
  }

  private static String summary(Repetition r)
  {
    final PairedDifference d = r.difference();
    return String.format(
        Locale.ROOT,
        "%d pairs: %s minus %s median %.3f ms [%.3f, %.3f]; medians %.2f / %.2f ms, p99 %.2f / %.2f ms; "
        + "%d not answered by both, %d answered differently",
        d.pairs(), QUALITY_MONITOR, STOCK, d.median(), d.low(), d.high(), d.medianA(), d.medianB(), d.p99A(),
        d.p99B(), r.unanswered(), r.different()
    );
  }

  static ObjectNode json(String setup, List<Repetition> repetitions)
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("experiment", "live-bench-overhead");
    root.put("setup", setup);
    root.put("of", QUALITY_MONITOR + " minus " + STOCK + ", per pair");
    root.put("repetitions", repetitions.size());
    root.put("intervalCoverage", PairedDifference.CONFIDENCE);
    root.put("goalMillis", GOAL_MILLIS);
    root.put("goalMet", goalMet(repetitions));
    root.put("intervalsWithinGoal", intervalsWithinGoal(repetitions));
    final ArrayNode orders = root.putArray("order");
    repetitions.forEach(r -> orders.add(r.order()));
    final ObjectNode figures = root.putObject("figures");
    for (Measure m : measures(repetitions)) {
      RepetitionsReport.measureJson(figures.putObject(m.name()), m);
    }
    return root;
  }

  static String text(List<Repetition> repetitions)
  {
    return String.format(
        Locale.ROOT,
        "overhead: %d repetitions; %s minus %s per pair, median [range] over the repetitions:%n",
        repetitions.size(), QUALITY_MONITOR, STOCK
    ) + RepetitionsReport.lines(measures(repetitions)) + String.format(
        Locale.ROOT,
        "  goal: paired median difference <= %.1f ms: %s by the median; %d of %d intervals within it%n",
        GOAL_MILLIS, goalMet(repetitions) ? "met" : "missed", intervalsWithinGoal(repetitions), repetitions.size()
    );
  }

  static String html(String setup, List<Repetition> repetitions)
  {
    System.setProperty("java.awt.headless", "true");
    return HtmlReporter.pageStart("getafix bench live: overhead")
           + "<h1>What the quality monitor costs a query without a budget, " + repetitions.size()
           + " repetitions</h1>"
           + "<p>" + HtmlReporter.escape(setup) + ".</p>"
           + "<p>Each pair is one query sent to both Brokers, one right after the other, so that both meet the "
           + "same load on the machine and the same Historical; the figure is the median of the per-pair "
           + "differences, " + HtmlReporter.escape(QUALITY_MONITOR + " minus " + STOCK) + ", with the interval that "
           + "holds the differences' median with probability at least " + Math.round(100 * PairedDifference.CONFIDENCE)
           + "% (between two order statistics; it assumes only that the pairs are independent, which pairs that "
           + "follow each other on one machine are not quite). The goal is a median difference of at most "
           + GOAL_MILLIS + " ms: " + (goalMet(repetitions) ? "met" : "missed") + " by the median over the "
           + "repetitions, and " + intervalsWithinGoal(repetitions) + " of " + repetitions.size()
           + " repetitions' intervals lie wholly within it.</p>"
           + RepetitionsReport.table(
               repetitions.stream().map(Repetition::order).toList(), measures(repetitions), null, "", ""
           )
           + "<p>The medians apart by which Broker went first show what going second is worth (caches the first "
           + "query warmed): the alternation cancels it from the paired median where the two are alike. Pairs "
           + "answered differently did not read the same data; there should be none.</p>"
           + DemoReport.chart(chart(repetitions))
           + "</body></html>";
  }

  /** Each repetition's paired median difference and its interval, against no difference and the goal. */
  private static XYChart chart(List<Repetition> repetitions)
  {
    final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                                              .title(QUALITY_MONITOR + " − " + STOCK + " per pair, by repetition")
                                              .xAxisTitle("repetition").yAxisTitle("ms").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(9);
    final int n = repetitions.size();
    final double[] x = IntStream.rangeClosed(1, n).asDoubleStream().toArray();
    chart.addSeries("median difference", x, values(repetitions, r -> r.difference().median()));
    chart.addSeries("interval, lower end", x, values(repetitions, r -> r.difference().low()));
    chart.addSeries("interval, upper end", x, values(repetitions, r -> r.difference().high()));
    for (double level : new double[]{0, GOAL_MILLIS}) {
      chart.addSeries(level == 0 ? "0 (no difference)" : "goal, " + GOAL_MILLIS + " ms", new double[]{1, n},
                      new double[]{level, level})
           .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line)
           .setMarker(SeriesMarkers.NONE);
    }
    return chart;
  }

  private static double[] values(List<Repetition> repetitions, ToDoubleFunction<Repetition> of)
  {
    return repetitions.stream().mapToDouble(of).toArray();
  }
}
