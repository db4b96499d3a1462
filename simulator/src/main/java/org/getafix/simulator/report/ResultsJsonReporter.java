package org.getafix.simulator.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.simulator.settings.ScenarioSettings;

import java.io.IOException;
import java.nio.file.Path;

/** Writes {@code results.json}: the scenario name and one {@link RunResult} per run label. */
public final class ResultsJsonReporter implements Reporter
{
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public static ObjectNode toJson(SimulationResults results)
  {
    final ScenarioSettings scenario = results.scenario();
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("scenario", scenario.name());
    root.put("seed", scenario.seed());
    root.put("simulatedSeconds", scenario.durationSeconds());
    root.put("warmupSeconds", scenario.warmupSeconds());
    root.put("offeredUtilisation", scenario.offeredUtilisation());
    final ObjectNode strategies = root.putObject("strategies");
    for (RunOutcome o : results.runs()) {
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
