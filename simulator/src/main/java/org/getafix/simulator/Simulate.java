package org.getafix.simulator;

import org.getafix.simulator.report.HtmlReporter;
import org.getafix.simulator.report.Reporter;
import org.getafix.simulator.report.ResultsJsonReporter;
import org.getafix.simulator.report.RunOutcome;
import org.getafix.simulator.report.SimulationResults;
import org.getafix.simulator.settings.BuiltInScenarios;
import org.getafix.simulator.settings.ScenarioException;
import org.getafix.simulator.settings.ScenarioParser;
import org.getafix.simulator.settings.ScenarioSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The command line: {@code simulate <scenario-name | scenario.json> [--out DIR]}. Runs every run of the scenario
 * one after the other (progress on stderr), then has each reporter write its file: {@code DIR/results.json} and
 * {@code DIR/report.html}.
 */
public final class Simulate
{
  private static final List<Reporter> REPORTERS = List.of(new ResultsJsonReporter(), new HtmlReporter());

  private Simulate()
  {
  }

  public static void main(String[] args)
  {
    System.exit(run(args));
  }

  static int run(String[] args)
  {
    String scenarioArg = null;
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      if ("--out".equals(args[i])) {
        if (i + 1 >= args.length) {
          return usage("--out needs a directory");
        }
        out = Path.of(args[++i]);
      } else if ("simulate".equals(args[i]) && scenarioArg == null && i == 0) {
        // Tolerate the verb being passed through by a wrapper.
        continue;
      } else if (args[i].startsWith("-")) {
        return usage("unknown option " + args[i]);
      } else if (scenarioArg == null) {
        scenarioArg = args[i];
      } else {
        return usage("more than one scenario given");
      }
    }
    if (scenarioArg == null) {
      return usage("no scenario given");
    }
    final ScenarioSettings scenario;
    try {
      scenario = ScenarioParser.load(scenarioArg);
    }
    catch (ScenarioException e) {
      System.err.println("error: " + e.getMessage());
      return 2;
    }
    final Path dir = out != null ? out : Path.of("out", scenario.name());
    try {
      final SimulationResults results = simulate(scenario);
      Files.createDirectories(dir);
      final List<Path> written = new ArrayList<>();
      for (Reporter reporter : REPORTERS) {
        written.add(reporter.write(dir, results));
      }
      System.err.println("[" + scenario.name() + "] wrote "
                         + written.stream().map(Path::toString).collect(Collectors.joining(" and ")));
      return 0;
    }
    catch (IOException e) {
      System.err.println("error: cannot write results to " + dir + ": " + e.getMessage());
      return 1;
    }
  }

  /** Runs all of a scenario's runs, in order. */
  public static SimulationResults simulate(ScenarioSettings scenario)
  {
    System.err.printf(
        Locale.ROOT,
        "[%s] %d runs, %.0f simulated s each, %d nodes, %d clients, offered load %.0f%% of core capacity%n",
        scenario.name(), scenario.runs().size(), scenario.durationSeconds(), scenario.totalNodes(),
        scenario.clients().count(), 100 * scenario.offeredUtilisation()
    );
    final List<RunOutcome> outcomes = new ArrayList<>();
    for (ScenarioSettings.Run run : scenario.runs()) {
      final RunOutcome outcome =
          new SimulationRun(scenario, run, line -> System.err.println("[" + scenario.name() + "] " + line)).execute();
      System.err.printf(
          Locale.ROOT,
          "[%s] %s: p99 %.1f ms, mean %.1f ms, total memory %.1f GB, max node %.1f GB, replicas %d%s%n",
          scenario.name(), run.label(), outcome.result().latencyMs().p99(), outcome.result().latencyMs().mean(),
          outcome.result().totalMemoryBytes() / 1e9, outcome.result().maxNodeMemoryBytes() / 1e9,
          outcome.result().totalReplicas(),
          outcome.result().tieringAccuracy() == null
          ? ""
          : String.format(Locale.ROOT, ", tiering accuracy %.2f", outcome.result().tieringAccuracy())
      );
      outcomes.add(outcome);
    }
    return new SimulationResults(scenario, outcomes);
  }

  private static int usage(String problem)
  {
    System.err.println("error: " + problem);
    System.err.println("usage: ./getafix simulate <scenario-name | scenario.json> [--out DIR]");
    System.err.println("built-in scenarios: " + BuiltInScenarios.names());
    return 2;
  }
}
