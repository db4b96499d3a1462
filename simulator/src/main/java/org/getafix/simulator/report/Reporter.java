package org.getafix.simulator.report;

import java.io.IOException;
import java.nio.file.Path;

/** Writes one output file of a simulation. */
public interface Reporter
{
  /**
   * @param dir an existing output directory
   * @return the file written in {@code dir}
   */
  Path write(Path dir, SimulationResults results) throws IOException;
}
