package org.getafix.simulator.settings;

/** A scenario file that cannot be run; the message names the offending field, e.g. {@code nodes[1].cores}. */
public final class ScenarioException extends RuntimeException
{
  public ScenarioException(String message)
  {
    super(message);
  }

  public ScenarioException(String message, Throwable cause)
  {
    super(message, cause);
  }
}
