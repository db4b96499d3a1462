package org.getafix.demo;

import org.getafix.core.redundancy.SubQuerySplit;
import org.getafix.localcluster.experiment.LaningExperiment;
import org.getafix.localcluster.experiment.LaningWorkload;
import org.getafix.simulator.report.HtmlReporter;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code ./getafix bench live}: the live experiments, each on a fresh cluster, each repeated (three times unless asked),
 * the comparisons with the order of their setups reversed every other time (ABBA): {@code placement}, the demo's
 * comparison of stock Druid and druid-getafix; {@code routing}, Druid's {@code connectionCount} against
 * {@code getafixAdaptive} with a straggler ({@link RoutingBench}); {@code budgeted}, budgeted queries against stock
 * Druid's timeout with a hard straggler, and {@code hedged}, budgeted queries with and without hedged sub-queries
 * with every segment on two Historicals ({@link BudgetedBench}); {@code control}, the quality monitor's hybrid budget
 * control through a 2× load step with a straggler and closed-loop clients ({@link ControlBench});
 * {@code control-queueing}, the same step on a plant that queues, open-loop Poisson arrivals on equal Historicals,
 * judged on the clients' response times ({@link QueueingControlBench}); {@code admission}, its quality-guided
 * against its timeout-rate-guided admission controller ({@link AdmissionBench}); {@code replay}, what its replays of
 * skipped samples cost the Historicals and do to online queries and to its quality estimate ({@link ReplayBench});
 * {@code laning}, its budget control against Druid's own query laning at the same response-time target and answer
 * quality, the load stepped up until each misses them ({@link LaningBench}); {@code kill}, the strongest Historical
 * killed under load on stock Druid and on druid-getafix ({@link KillBench}); and {@code churn}, the data each loads
 * under a steady workload once settled ({@link ChurnBench}); and {@code overhead}, what the quality monitor costs a
 * query without a budget, paired against a Broker without it ({@link OverheadBench}). Each writes {@code report.html} and
 * {@code results.json} under {@code target/getafix-bench/<experiment>/}, and {@code target/getafix-bench/report.html}
 * links them. See docs/benchmarks.md.
 */
public final class LiveBench
{
  static final List<String> EXPERIMENTS =
      List.of(
          "placement", "routing", "budgeted", "hedged", "hedged-getafix", "control", "control-queueing", "admission",
          "replay", "laning", "kill", "churn", "overhead"
      );
  /**
   * The experiments that run on an existing cluster: the others make a straggler with cgroups, place replicas or
   * restart the Broker.
   */
  static final List<String> ON_EXISTING = List.of("budgeted", "hedged");
  static final String USAGE = DemoOptions.BENCH_USAGE + System.lineSeparator() + String.join(
      System.lineSeparator(),
      "  --experiments LIST which of " + String.join(",", EXPERIMENTS) + " to run, in that order (default all);",
      "                  the experiments but placement take --quick and --repetitions only, and from --strategies",
      "                  only its order: getafix,stock runs their druid-getafix setup first",
      "  --broker URL      run on an existing cluster, its Broker at URL with the quality monitor installed, instead",
      "                  of starting one: " + String.join(",", ON_EXISTING) + " only (the default then), over",
      "  --datasource NAME one of its datasources; no straggler is made there (no cgroups), so they measure the",
      "                  cluster as it is",
      "  --target-ms N     with --broker: the response-time target T (default 4x the cluster's own answer, at least 1 s)",
      "  --budget-split S  laning only: druid-getafix's druid.getafix.quality.budgetSplit, one of "
      + String.join(",", LaningExperiment.BUDGET_SPLITS) + " (default " + LaningExperiment.BUDGET_SPLIT_NONE + ")",
      "  --laning-workload W laning only: hourly (default: hourly timeseries, quality the answered share of the",
      "                  hours, a linear profile) or concave (one-bucket mean and distinct count, quality measured",
      "                  against each query's whole answer, a concave profile on the synthetic data)",
      "  --split-when T    laning only: druid-getafix's druid.getafix.quality.splitWhen, LATE (default: a budgeted",
      "                  sub-query goes as parts only where its Historical is expected to miss the deadline) or",
      "                  ALWAYS (every one, the Broker given more connections to each Historical for the parts)",
      "  (laning: budget control vs Druid's laning at the same response-time target and quality, the load stepped",
      "  up until each misses them; 3 repetitions should take about 20-30 minutes on 2 cores, --quick 8-10)",
      "  (control-queueing: hybrid control through a 2x step of Poisson arrivals, judged client-side; 3 runs should",
      "  take about 15 minutes on 2 cores, --quick about 10, estimated)",
      "  (replay: the Broker's replays of skipped samples off and on, busy phases of 4 clients between quiet ones,",
      "  with a straggler: Historical CPU, online response times, the quality estimate against the truth;",
      "  3 repetitions should take about 15 minutes on 2 cores, --quick about 11, estimated)"
  );

  /**
   * What to run.
   *
   * @param experiments which experiments, in the order of {@link #EXPERIMENTS}
   * @param options     the placement experiment's options; the others take {@code quick} and {@code repetitions}
   * @param existing    the cluster to run on; null: a fresh one per experiment
   * @param budgetSplit the laning experiment's budget split for druid-getafix, one of
   *                    {@link LaningExperiment#BUDGET_SPLITS}
   * @param laningWorkload the laning experiment's queries
   * @param splitWhen   the laning experiment's {@code druid.getafix.quality.splitWhen} for druid-getafix
   */
  record Options(
      List<String> experiments,
      DemoOptions options,
      ExistingCluster existing,
      String budgetSplit,
      LaningWorkload laningWorkload,
      SubQuerySplit.Trigger splitWhen
  )
  {
    Options
    {
      experiments = List.copyOf(experiments);
    }

    /** @throws IllegalArgumentException with a message for the user on bad arguments */
    static Options parse(String... args)
    {
      final List<String> rest = new ArrayList<>();
      List<String> experiments = null;
      String broker = null;
      String dataSource = null;
      Long targetMs = null;
      String budgetSplit = LaningExperiment.BUDGET_SPLIT_NONE;
      LaningWorkload laningWorkload = LaningWorkload.HOURLY;
      SubQuerySplit.Trigger splitWhen = SubQuerySplit.Trigger.LATE;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--experiments" -> experiments = experiments(value(args, ++i, "--experiments"));
          case "--budget-split" -> budgetSplit = budgetSplit(value(args, ++i, "--budget-split"));
          case "--laning-workload" -> laningWorkload = laningWorkload(value(args, ++i, "--laning-workload"));
          case "--split-when" -> splitWhen = splitWhen(value(args, ++i, "--split-when"));
          case "--broker" -> broker = value(args, ++i, "--broker");
          case "--datasource" -> dataSource = value(args, ++i, "--datasource");
          case "--target-ms" -> targetMs = targetMs(value(args, ++i, "--target-ms"));
          default -> rest.add(args[i]);
        }
      }
      final DemoOptions options = DemoOptions.parseBench(rest.toArray(String[]::new));
      if (broker == null) {
        if (dataSource != null || targetMs != null) {
          throw new IllegalArgumentException("--datasource and --target-ms need --broker: the bench's own clusters have their own data");
        }
        return new Options(
            experiments == null ? EXPERIMENTS : experiments, options, null, budgetSplit, laningWorkload, splitWhen
        );
      }
      if (dataSource == null) {
        throw new IllegalArgumentException("--broker needs --datasource: which of the cluster's datasources to query");
      }
      final List<String> onExisting = experiments == null ? ON_EXISTING : experiments;
      final List<String> unable = onExisting.stream().filter(e -> !ON_EXISTING.contains(e)).toList();
      if (!unable.isEmpty()) {
        throw new IllegalArgumentException(
            String.join(",", unable) + " cannot run on an existing cluster (it makes a straggler with cgroups, places "
            + "replicas or restarts the Broker); with --broker choose from " + String.join(",", ON_EXISTING)
        );
      }
      final URI uri;
      try {
        uri = URI.create(broker);
      }
      catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--broker is not a URL: " + broker);
      }
      return new Options(
          onExisting, options, new ExistingCluster(uri, dataSource, targetMs), budgetSplit, laningWorkload,
          splitWhen
      );
    }

    private static String value(String[] args, int i, String option)
    {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }

    private static long targetMs(String value)
    {
      try {
        return Long.parseLong(value);
      }
      catch (NumberFormatException e) {
        throw new IllegalArgumentException("--target-ms must be a whole number of milliseconds, got " + value);
      }
    }

    private static String budgetSplit(String value)
    {
      final String split = value.trim().toUpperCase(Locale.ROOT);
      if (!LaningExperiment.BUDGET_SPLITS.contains(split)) {
        throw new IllegalArgumentException(
            "unknown budget split " + value + "; choose from " + String.join(",", LaningExperiment.BUDGET_SPLITS)
        );
      }
      return split;
    }

    private static LaningWorkload laningWorkload(String value)
    {
      try {
        return LaningWorkload.valueOf(value.trim().toUpperCase(Locale.ROOT));
      }
      catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown laning workload " + value + "; choose from hourly,concave");
      }
    }

    private static SubQuerySplit.Trigger splitWhen(String value)
    {
      try {
        return SubQuerySplit.Trigger.valueOf(value.trim().toUpperCase(Locale.ROOT));
      }
      catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "unknown --split-when value " + value + "; choose from "
            + Arrays.stream(SubQuerySplit.Trigger.values()).map(Enum::name).collect(Collectors.joining(","))
        );
      }
    }

    private static List<String> experiments(String list)
    {
      final LinkedHashSet<String> chosen = new LinkedHashSet<>();
      for (String part : list.split(",")) {
        final String name = part.trim().toLowerCase(Locale.ROOT);
        if (!EXPERIMENTS.contains(name)) {
          throw new IllegalArgumentException(
              "unknown experiment " + part.trim() + "; choose from " + String.join(",", EXPERIMENTS)
          );
        }
        chosen.add(name);
      }
      return EXPERIMENTS.stream().filter(chosen::contains).toList();
    }
  }

  private LiveBench()
  {
  }

  public static void main(String[] args)
  {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.println(USAGE);
      return;
    }
    final Options options;
    try {
      options = Options.parse(args);
    }
    catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    final Path root = Paths.get(System.getProperty("getafix.projectRoot", ".")).toAbsolutePath().normalize();
    final Path outDir = root.resolve("target/getafix-bench");
    // Each experiment on a cluster of its own: one that fails (a Historical that would not start, a calibration the
    // machine could not meet) leaves the others' figures standing, and the index says which failed.
    final Map<String, String> failed = new LinkedHashMap<>();
    for (String experiment : options.experiments()) {
      final Path dir = outDir.resolve(experiment);
      final BenchRun bench = new BenchRun(
          experiment,
          options.options().quick(),
          options.options().repetitions(),
          options.options().strategies().get(0) == Strategy.GETAFIX,
          options.options().stragglerCores(),
          root,
          dir,
          System.out
      );
      try {
        switch (experiment) {
          case "placement" -> new Demo(options.options(), root, dir, System.out).run();
          case "routing" -> new RoutingBench(bench).run();
          case "budgeted" -> budgeted(bench, BudgetedBench.Variant.TIMEOUT, options.existing());
          case "hedged" -> budgeted(bench, BudgetedBench.Variant.HEDGING, options.existing());
          case "hedged-getafix" -> budgeted(bench, BudgetedBench.Variant.HEDGING_PLANNED, null);
          case "control" -> new ControlBench(bench).run();
          case "control-queueing" -> new QueueingControlBench(bench).run();
          case "admission" -> new AdmissionBench(bench).run();
          case "replay" -> new ReplayBench(bench).run();
          case "laning" ->
              new LaningBench(bench, options.budgetSplit(), options.splitWhen(), options.laningWorkload()).run();
          case "kill" -> new KillBench(bench).run();
          case "churn" -> new ChurnBench(bench).run();
          case "overhead" -> new OverheadBench(bench).run();
          default -> throw new IllegalStateException("no runner for experiment " + experiment);
        }
      }
      catch (Exception e) {
        System.err.println("[bench " + experiment + "] failed: " + e);
        e.printStackTrace();
        failed.put(experiment, e.toString());
      }
    }
    try {
      System.out.println("index:   " + writeIndex(outDir, options, failed));
    }
    catch (IOException e) {
      System.err.println("[bench] could not write the index: " + e);
      System.exit(1);
    }
    if (!failed.isEmpty()) {
      System.err.println("[bench] failed: " + String.join(", ", failed.keySet()));
    }
    System.exit(failed.isEmpty() ? 0 : 1);
  }

  /** A budgeted-queries experiment on a fresh cluster, or on {@code existing}. */
  private static Path budgeted(BenchRun bench, BudgetedBench.Variant variant, ExistingCluster existing)
      throws Exception
  {
    final BudgetedBench budgeted = new BudgetedBench(bench, variant);
    return existing == null ? budgeted.run() : budgeted.runOn(existing);
  }

  /** {@code report.html} under {@code outDir}: a link to each experiment's report, or why it failed. */
  static Path writeIndex(Path outDir, Options options, Map<String, String> failed) throws IOException
  {
    final StringBuilder html = new StringBuilder(HtmlReporter.pageStart("getafix bench live"));
    html.append("<h1>getafix bench live</h1><p>")
        .append(options.options().repetitions()).append(" repetitions per experiment")
        .append(options.options().quick() ? ", quick mode" : "")
        .append(options.existing() == null
                ? ". Each experiment ran on a fresh cluster."
                : ". The experiments ran on the existing cluster whose Broker is at "
                  + HtmlReporter.escape(options.existing().broker().toString()) + ", over datasource "
                  + HtmlReporter.escape(options.existing().dataSource()) + ".")
        .append("</p><ul>");
    for (String experiment : options.experiments()) {
      if (failed.containsKey(experiment)) {
        html.append("<li>").append(HtmlReporter.escape(experiment)).append(": <b>failed</b>, ")
            .append(HtmlReporter.escape(failed.get(experiment))).append("</li>");
      } else {
        html.append("<li><a href=\"").append(experiment).append("/report.html\">")
            .append(HtmlReporter.escape(experiment)).append("</a></li>");
      }
    }
    html.append("</ul></body></html>");
    final Path index = outDir.resolve("report.html");
    Files.createDirectories(outDir);
    Files.writeString(index, html.toString(), StandardCharsets.UTF_8);
    return index;
  }
}
