package org.getafix.benchmarks.planning;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the planning benchmarks ({@link GetafixPlanningBenchmark}, {@link CostPlanningBenchmark}) in one go and
 * prints the table of docs/benchmarks.md: Getafix's time per round, the per-segment times of both sides and their
 * ratio, all taken in the same run. Takes the usual JMH options, e.g. {@code -p scale=SEGMENTS_10K_NODES_50}.
 */
public final class PlanningReport
{
  private static final String INCLUDE = "org\\.getafix\\.benchmarks\\.planning\\..*PlanningBenchmark";

  private PlanningReport()
  {
  }

  public static void main(String[] args) throws RunnerException, CommandLineOptionException
  {
    final CommandLineOptions commandLine = new CommandLineOptions(args);
    final OptionsBuilder builder = new OptionsBuilder();
    if (commandLine.getIncludes().isEmpty()) {
      builder.include(INCLUDE);
    }
    final Options options = builder.parent(commandLine).build();
    System.out.println(table(new Runner(options).run()));
  }

  /** Markdown table of the results; times in the benchmarks' unit (µs) converted to readable ones. */
  static String table(Collection<RunResult> results)
  {
    final Map<ClusterScale, Map<String, Result<?>>> rounds = new EnumMap<>(ClusterScale.class);
    final Map<ClusterScale, Map<String, Result<?>>> perSegment = new EnumMap<>(ClusterScale.class);
    for (RunResult run : results) {
      final String benchmark = run.getParams().getBenchmark();
      final String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
      final ClusterScale scale = ClusterScale.valueOf(run.getParams().getParam("scale"));
      rounds.computeIfAbsent(scale, k -> new HashMap<>()).put(method, run.getPrimaryResult());
      perSegment.computeIfAbsent(scale, k -> new HashMap<>())
                .put(method, run.getSecondaryResults().get("segment"));
    }
    final StringBuilder out = new StringBuilder();
    out.append("| segments × nodes | Getafix-H round | of which balancer | auto-tiering only round | Getafix-B round ")
       .append("| Getafix-H per segment | cost per placed segment (sample) | cost ÷ Getafix-H per segment |\n")
       .append("|---|---|---|---|---|---|---|---|\n");
    for (ClusterScale scale : ClusterScale.values()) {
      final Map<String, Result<?>> round = rounds.getOrDefault(scale, Map.of());
      final Map<String, Result<?>> segment = perSegment.getOrDefault(scale, Map.of());
      if (round.isEmpty()) {
        continue;
      }
      final Result<?> h = round.get("getafixH");
      final Result<?> autoTiering = round.get("autoTieringOnly");
      final Result<?> hPerSegment = segment.get("getafixH");
      final Result<?> costPerSegment = segment.get("placeNewSegments");
      out.append(String.format(
          Locale.ROOT,
          "| %,d × %,d | %s | %s | %s | %s | %s | %s (%,d) | %s |%n",
          scale.segments(),
          scale.nodes(),
          time(h),
          h != null && autoTiering != null ? micros(h.getScore() - autoTiering.getScore()) : "–",
          time(autoTiering),
          time(round.get("getafixB")),
          time(hPerSegment),
          time(costPerSegment),
          scale.newSegments(),
          hPerSegment != null && costPerSegment != null
          ? String.format(Locale.ROOT, "%,.0f×", costPerSegment.getScore() / hPerSegment.getScore())
          : "–"
      ));
    }
    return out.toString();
  }

  private static String time(Result<?> result)
  {
    if (result == null) {
      return "–";
    }
    final double error = result.getScoreError();
    return Double.isNaN(error) ? micros(result.getScore()) : micros(result.getScore()) + " ± " + micros(error);
  }

  private static String micros(double us)
  {
    if (us >= 1_000_000) {
      return String.format(Locale.ROOT, "%.2f s", us / 1_000_000);
    }
    if (us >= 1_000) {
      return String.format(Locale.ROOT, "%.1f ms", us / 1_000);
    }
    return String.format(Locale.ROOT, "%.2f µs", us);
  }
}
