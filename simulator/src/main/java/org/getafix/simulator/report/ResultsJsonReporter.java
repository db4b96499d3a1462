package org.getafix.simulator.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.simulator.settings.ScenarioSettings;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Writes {@code results.json}: the scenario name and one {@link RunResult} per run label. */
public final class ResultsJsonReporter implements Reporter
{
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public static ObjectNode toJson(SimulationResults results)
  {
    final ScenarioSettings scenario = results.scenario();
    final ObjectNode root = toJson(
        scenario.name(),
        scenario.seed(),
        scenario.durationSeconds(),
        scenario.warmupSeconds(),
        scenario.offeredUtilisation(),
        results.runs()
    );
    if (scenario.execution() != null) {
      final ObjectNode execution = root.putObject("budgetedExecution");
      execution.put("rtTargetMillis", scenario.execution().rtTargetMillis());
      execution.put("qualityTarget", scenario.execution().qualityTarget());
      execution.set(
          "sustainedLoad",
          MAPPER.valueToTree(SustainedLoad.of(results.runs(), scenario.execution().qualityTarget()))
      );
    }
    return root;
  }

  /**
   * The results.json shape, also written by {@code ./getafix demo} for its live runs.
   *
   * @param offeredUtilisation null where the load is not offered open-loop (closed-loop clients on a live cluster)
   */
  public static ObjectNode toJson(
      String scenario,
      long seed,
      double seconds,
      double warmupSeconds,
      Double offeredUtilisation,
      List<RunOutcome> runs
  )
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("scenario", scenario);
    root.put("seed", seed);
    root.put("simulatedSeconds", seconds);
    root.put("warmupSeconds", warmupSeconds);
    root.put("offeredUtilisation", offeredUtilisation);
    final ObjectNode strategies = root.putObject("strategies");
    for (RunOutcome o : runs) {
      strategies.set(o.label(), MAPPER.valueToTree(o.result()));
    }
    return root;
  }

  @Override
  public Path write(Path dir, SimulationResults results) throws IOException
  {
    final Path file = dir.resolve("results.json");
    MAPPER.writeValue(file.toFile(), toJson(results));
    return file;
  }
}
