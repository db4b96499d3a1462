package org.getafix.simulator.redundancy;

import org.getafix.simulator.cluster.Segment;

import java.util.function.IntSupplier;

/** Every share once, on the holder routing chose: the baseline the other modes are measured against. */
final class NoRedundancy extends CoreRedundancy
{
  NoRedundancy(Setup setup)
  {
    super("none", setup);
  }

  @Override
  protected Placement choose(Segment segment, IntSupplier routed)
  {
    return new Placement(new int[]{routed.getAsInt()}, false);
  }
}
