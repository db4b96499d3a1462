package org.getafix.simulator.redundancy;

import org.getafix.simulator.cluster.Segment;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.settings.ScenarioSettings;

import java.util.List;
import java.util.function.IntSupplier;

/** Every share once, on the holder routing chose: the baseline the other modes are measured against. */
final class NoRedundancy extends CoreRedundancy
{
  NoRedundancy(
      EventLoop loop,
      ScenarioSettings.Redundancy settings,
      List<String> nodeIds,
      int[] cores,
      double measureFrom,
      double measureTo
  )
  {
    super("none", loop, settings, nodeIds, cores, measureFrom, measureTo);
  }

  @Override
  protected Placement choose(Segment segment, IntSupplier routed)
  {
    return new Placement(new int[]{routed.getAsInt()}, false);
  }
}
