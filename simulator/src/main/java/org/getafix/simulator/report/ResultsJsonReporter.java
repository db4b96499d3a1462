package org.getafix.simulator.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.getafix.simulator.SimulationRun;
import org.getafix.simulator.settings.ScenarioSettings;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Writes {@code results.json}: the scenario name and one {@link RunResult} per run label. */
public final class ResultsJsonReporter
{
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ResultsJsonReporter()
  {
  }

  public static ObjectNode toJson(ScenarioSettings scenario, List<SimulationRun.RunOutcome> outcomes)
  {
    final ObjectNode root = MAPPER.createObjectNode();
    root.put("scenario", scenario.name());
    root.put("seed", scenario.seed());
    root.put("simulatedSeconds", scenario.durationSeconds());
    root.put("warmupSeconds", scenario.warmupSeconds());
    root.put("offeredUtilisation", SimulationRun.offeredUtilisation(scenario));
    final ObjectNode strategies = root.putObject("strategies");
    for (SimulationRun.RunOutcome o : outcomes) {
      strategies.set(o.label(), MAPPER.valueToTree(o.result()));
    }
    return root;
  }

  public static void write(Path file, ScenarioSettings scenario, List<SimulationRun.RunOutcome> outcomes)
      throws IOException
  {
    MAPPER.writeValue(file.toFile(), toJson(scenario, outcomes));
  }
}
