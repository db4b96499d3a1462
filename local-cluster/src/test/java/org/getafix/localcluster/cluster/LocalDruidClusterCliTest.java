package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Bad command lines are refused with usage (exit code 2) before anything is started.
 */
class LocalDruidClusterCliTest
{
  @Test
  void refusesBadCommandLines() throws Exception
  {
    assertEquals(2, LocalDruidClusterCli.run(new String[]{}));
    assertEquals(2, LocalDruidClusterCli.run(new String[]{"launch"}));
    assertEquals(2, LocalDruidClusterCli.run(new String[]{"start", "--bogus"}));
    assertEquals(2, LocalDruidClusterCli.run(new String[]{"start", "--historicals"}));
    assertEquals(2, LocalDruidClusterCli.run(new String[]{"start", "--prop", "broker.no.scope"}));
    assertEquals(2, LocalDruidClusterCli.run(new String[]{"start", "--prop", "nosuchrole:k=v"}));
    assertEquals(2, LocalDruidClusterCli.run(new String[]{"start", "--historicals", "2", "--prop", "historical-3:k=v"}));
    assertEquals(2, LocalDruidClusterCli.run(new String[]{"start", "--historicals", "3", "--quotas", "1.0,0.5"}));
  }
}
