package org.getafix.demo;

import org.getafix.simulator.report.HtmlReporter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./getafix bench live}: the live experiments, each on a fresh cluster, each repeated (three times unless asked),
 * the comparisons with the order of their setups reversed every other time (ABBA): {@code placement}, the demo's
 * comparison of stock Druid and druid-getafix; {@code routing}, Druid's {@code connectionCount} against
 * {@code getafixAdaptive} with a straggler ({@link RoutingBench}); {@code budgeted}, budgeted queries against stock
 * Druid's timeout with a hard straggler, and {@code hedged}, budgeted queries with and without hedged sub-queries
 * with every segment on two Historicals ({@link BudgetedBench}); {@code control}, the quality monitor's hybrid budget
 * control through a 2× load step ({@link ControlBench}); and {@code admission}, its quality-guided against its
 * timeout-rate-guided admission controller ({@link AdmissionBench}). Each writes {@code report.html} and
 * {@code results.json} under {@code target/getafix-bench/<experiment>/}, and {@code target/getafix-bench/report.html}
 * links them. See docs/benchmarks.md.
 */
public final class LiveBench
{
  static final List<String> EXPERIMENTS = List.of("placement", "routing", "budgeted", "hedged", "control", "admission");
  static final String USAGE = DemoOptions.BENCH_USAGE + System.lineSeparator() + String.join(
      System.lineSeparator(),
      "  --experiments LIST which of " + String.join(",", EXPERIMENTS) + " to run, in that order (default all);",
      "                  the experiments but placement take --quick and --repetitions only"
  );

  /**
   * What to run.
   *
   * @param experiments which experiments, in the order of {@link #EXPERIMENTS}
   * @param options     the placement experiment's options; the others take {@code quick} and {@code repetitions}
   */
  record Options(List<String> experiments, DemoOptions options)
  {
    Options
    {
      experiments = List.copyOf(experiments);
    }

    /** @throws IllegalArgumentException with a message for the user on bad arguments */
    static Options parse(String... args)
    {
      final List<String> rest = new ArrayList<>();
      List<String> experiments = EXPERIMENTS;
      for (int i = 0; i < args.length; i++) {
        if (args[i].equals("--experiments")) {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("--experiments needs a value");
          }
          experiments = experiments(args[++i]);
        } else {
          rest.add(args[i]);
        }
      }
      return new Options(experiments, DemoOptions.parseBench(rest.toArray(String[]::new)));
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
          experiment, options.options().quick(), options.options().repetitions(), root, dir, System.out
      );
      try {
        switch (experiment) {
          case "placement" -> new Demo(options.options(), root, dir, System.out).run();
          case "routing" -> new RoutingBench(bench).run();
          case "budgeted" -> new BudgetedBench(bench, BudgetedBench.Variant.TIMEOUT).run();
          case "hedged" -> new BudgetedBench(bench, BudgetedBench.Variant.HEDGING).run();
          case "control" -> new ControlBench(bench).run();
          case "admission" -> new AdmissionBench(bench).run();
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

  /** {@code report.html} under {@code outDir}: a link to each experiment's report, or why it failed. */
  static Path writeIndex(Path outDir, Options options, Map<String, String> failed) throws IOException
  {
    final StringBuilder html = new StringBuilder(HtmlReporter.pageStart("getafix bench live"));
    html.append("<h1>getafix bench live</h1><p>")
        .append(options.options().repetitions()).append(" repetitions per experiment")
        .append(options.options().quick() ? ", quick mode" : "")
        .append(". Each experiment ran on a fresh cluster.</p><ul>");
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
