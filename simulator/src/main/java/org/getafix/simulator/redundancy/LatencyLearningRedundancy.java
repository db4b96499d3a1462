package org.getafix.simulator.redundancy;

import org.getafix.core.redundancy.NodeLatencies;

/**
 * A mode whose policy learns each node's response times as the broker observes them: an answer's, and a cancelled
 * copy's time until it was cancelled, so that a stuck node's window learns that it is slow.
 */
abstract class LatencyLearningRedundancy extends CoreRedundancy
{
  protected final NodeLatencies latencies;

  LatencyLearningRedundancy(String mode, Setup setup)
  {
    super(mode, setup);
    this.latencies = new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, nanoClock());
  }

  @Override
  protected void answered(int node, boolean token, double responseMillis, double serviceMillis)
  {
    latencies.record(id(node), responseMillis);
  }

  @Override
  protected void cancelled(int node, boolean token, double elapsedMillis)
  {
    latencies.record(id(node), elapsedMillis);
  }
}
