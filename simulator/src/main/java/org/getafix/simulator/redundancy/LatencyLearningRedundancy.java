package org.getafix.simulator.redundancy;

import org.getafix.core.redundancy.NodeLatencies;
import org.getafix.core.redundancy.RaceLosses;

/**
 * A mode whose policy learns each node's response times as the broker observes them: an answer's, and a cancelled
 * copy's time until it was cancelled, so that a stuck node's window learns that it is slow; and which nodes lose most
 * of their races ({@link RaceLosses}; here every cancelled copy counts as lost, a losing hedge's too).
 */
abstract class LatencyLearningRedundancy extends CoreRedundancy
{
  protected final NodeLatencies latencies;
  protected final RaceLosses losses;

  LatencyLearningRedundancy(String mode, Setup setup)
  {
    super(mode, setup);
    this.latencies = new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, nanoClock());
    this.losses = new RaceLosses(new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, nanoClock()), RaceLosses.MIN_SAMPLES);
  }

  @Override
  protected void answered(int node, boolean token, double responseMillis, double serviceMillis)
  {
    latencies.record(id(node), responseMillis);
    losses.record(id(node), false);
  }

  @Override
  protected void cancelled(int node, boolean token, double elapsedMillis)
  {
    latencies.record(id(node), elapsedMillis);
    losses.record(id(node), true);
  }
}
