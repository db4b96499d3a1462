package org.getafix.localcluster.cluster;

/**
 * The Druid server roles the launcher runs. The Coordinator also runs the Overlord (with a local, forking task runner
 * for ingestion), as in Druid's single-server quickstarts.
 */
public enum DruidRole
{
  COORDINATOR("coordinator", "druid/coordinator"),
  BROKER("broker", "druid/broker"),
  HISTORICAL("historical", "druid/historical");

  private final String command;
  private final String serviceName;

  DruidRole(String command, String serviceName)
  {
    this.command = command;
    this.serviceName = serviceName;
  }

  /**
   * The argument of {@code org.apache.druid.cli.Main server <command>}.
   */
  public String command()
  {
    return command;
  }

  public String serviceName()
  {
    return serviceName;
  }
}
