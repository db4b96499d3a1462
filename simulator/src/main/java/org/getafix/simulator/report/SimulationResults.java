package org.getafix.simulator.report;

import org.getafix.simulator.settings.ScenarioSettings;

import java.util.List;

/** What a {@link Reporter} reports: the scenario and the outcome of each of its runs, in the scenario's order. */
public record SimulationResults(ScenarioSettings scenario, List<RunOutcome> runs)
{
  public SimulationResults
  {
    runs = List.copyOf(runs);
  }
}
