package org.getafix.benchmarks.planning;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the planning benchmarks ({@link GetafixPlanningBenchmark}, {@link CostPlanningBenchmark}) in one go and
 * prints the table of docs/benchmarks.md: Getafix's time per round, the per-segment times of both sides and their
 * ratio, all from the same run, in wall time (JMH's score) and in CPU time of the benchmark thread
 * ({@link CpuTime}). Takes the usual JMH options, e.g. {@code -p scale=SEGMENTS_10K_NODES_50}.
 */
public final class PlanningReport
{
  private static final String INCLUDE = "org\\.getafix\\.benchmarks\\.planning\\..*PlanningBenchmark";
  private static final String COST = "placeNewSegments";

  private PlanningReport()
  {
  }

  public static void main(String[] args) throws RunnerException, CommandLineOptionException, IOException
  {
    final CommandLineOptions commandLine = new CommandLineOptions(args);
    final Path cpuLog = Files.createTempFile("planning-cpu", ".tsv");
    final OptionsBuilder builder = new OptionsBuilder();
    if (commandLine.getIncludes().isEmpty()) {
      builder.include(INCLUDE);
    }
    // Setting jvmArgsAppend replaces the command line's, so keep those (e.g. a flight recording) in front.
    final List<String> append = new ArrayList<>(commandLine.getJvmArgsAppend().orElse(List.of()));
    append.add("-D" + CpuTime.LOG_PROPERTY + "=" + cpuLog);
    final Options options = builder.parent(commandLine)
                                   .jvmArgsAppend(append.toArray(new String[0]))
                                   .build();
    final Collection<RunResult> results = new Runner(options).run();
    final List<String> cpuLines = Files.readAllLines(cpuLog, StandardCharsets.UTF_8);
    Files.delete(cpuLog);
    System.out.println(table(results, cpuLines));
  }

  /** Markdown table of the results; the benchmarks measure in µs and ns, the table shows readable units. */
  static String table(Collection<RunResult> results, List<String> cpuLines)
  {
    final Map<ClusterScale, Map<String, Result<?>>> rounds = new EnumMap<>(ClusterScale.class);
    final Map<ClusterScale, Map<String, Result<?>>> perSegment = new EnumMap<>(ClusterScale.class);
    for (RunResult run : results) {
      final ClusterScale scale = ClusterScale.valueOf(run.getParams().getParam("scale"));
      final String method = method(run.getParams().getBenchmark());
      rounds.computeIfAbsent(scale, k -> new HashMap<>()).put(method, run.getPrimaryResult());
      perSegment.computeIfAbsent(scale, k -> new HashMap<>()).put(method, run.getSecondaryResults().get("segment"));
    }
    // benchmark → scale → {CPU ns per op, CPU ns per segment}
    final Map<ClusterScale, Map<String, double[]>> cpu = new EnumMap<>(ClusterScale.class);
    for (String line : cpuLines) {
      final String[] f = line.split("\t");
      cpu.computeIfAbsent(ClusterScale.valueOf(f[1]), k -> new HashMap<>())
         .put(method(f[0]), new double[]{Double.parseDouble(f[2]), Double.parseDouble(f[3])});
    }

    final StringBuilder out = new StringBuilder();
    out.append("Wall time (JMH score ± 99.9% CI)\n\n")
       .append("| segments × nodes | Getafix-H round | auto-tiering only round | Getafix-B round ")
       .append("| Getafix-H per segment | cost per placed segment (of N new) | cost ÷ Getafix-H per segment |\n")
       .append("|---|---|---|---|---|---|---|\n");
    for (ClusterScale scale : ClusterScale.values()) {
      final Map<String, Result<?>> round = rounds.getOrDefault(scale, Map.of());
      final Map<String, Result<?>> segment = perSegment.getOrDefault(scale, Map.of());
      if (round.isEmpty()) {
        continue;
      }
      final Result<?> hPerSegment = segment.get("getafixH");
      final Result<?> costPerSegment = segment.get(COST);
      out.append(String.format(
          Locale.ROOT,
          "| %,d × %,d | %s | %s | %s | %s | %s (N = %,d) | %s |%n",
          scale.segments(),
          scale.nodes(),
          withError(round.get("getafixH")),
          withError(round.get("autoTieringOnly")),
          withError(round.get("getafixB")),
          withError(hPerSegment),
          withError(costPerSegment),
          scale.newSegments(),
          hPerSegment != null && costPerSegment != null
          ? ratio(costPerSegment.getScore() / hPerSegment.getScore())
          : "–"
      ));
    }

    out.append("\nCPU time of the benchmark thread (mean over the measurement iterations)\n\n")
       .append("| segments × nodes | Getafix-H round | auto-tiering only round | Getafix-B round ")
       .append("| Getafix-H per segment | cost per placed segment | cost ÷ Getafix-H per segment |\n")
       .append("|---|---|---|---|---|---|---|\n");
    for (ClusterScale scale : ClusterScale.values()) {
      final Map<String, double[]> c = cpu.getOrDefault(scale, Map.of());
      if (c.isEmpty()) {
        continue;
      }
      final double[] h = c.get("getafixH");
      final double[] cost = c.get(COST);
      out.append(String.format(
          Locale.ROOT,
          "| %,d × %,d | %s | %s | %s | %s | %s | %s |%n",
          scale.segments(),
          scale.nodes(),
          nanos(c.get("getafixH"), 0),
          nanos(c.get("autoTieringOnly"), 0),
          nanos(c.get("getafixB"), 0),
          nanos(h, 1),
          nanos(cost, 1),
          h != null && cost != null ? ratio(cost[1] / h[1]) : "–"
      ));
    }
    return out.toString();
  }

  private static String method(String benchmark)
  {
    return benchmark.substring(benchmark.lastIndexOf('.') + 1);
  }

  private static String ratio(double ratio)
  {
    return String.format(Locale.ROOT, "%,.0f×", ratio);
  }

  private static String withError(Result<?> result)
  {
    if (result == null) {
      return "–";
    }
    final double error = result.getScoreError();
    return Double.isNaN(error)
           ? micros(result.getScore())
           : micros(result.getScore()) + " ± " + micros(error);
  }

  private static String nanos(double[] values, int index)
  {
    return values == null ? "–" : micros(values[index] / 1_000);
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
