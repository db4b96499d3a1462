package org.getafix.simulator.redundancy;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.getafix.core.redundancy.HedgePolicy;
import org.getafix.core.redundancy.HedgeSettings;
import org.getafix.simulator.cluster.Segment;

import java.util.function.IntSupplier;

/**
 * Replication for predictability always on, whatever the load: every share goes to {@code duplicates} holders (as
 * many as it has, if fewer) up front, the one routing chose and the others of least expected latency
 * ({@link HedgePolicy#expectedMillis}, the broker's recent mean response time). The naive policy Zoolander's model
 * improves on: at high utilisation the copies' load costs more than they mask.
 */
final class DuplicateRedundancy extends LatencyLearningRedundancy
{
  private final HedgePolicy expected;

  DuplicateRedundancy(Setup setup)
  {
    super("duplicate", setup);
    this.expected = new HedgePolicy(HedgeSettings.DEFAULTS, latencies, losses);
  }

  @Override
  protected Placement choose(Segment segment, IntSupplier routed)
  {
    final int primary = routed.getAsInt();
    final IntArrayList holders = segment.loadedHolders();
    final int[] nodes = new int[Math.min(settings.duplicates(), holders.size())];
    nodes[0] = primary;
    for (int chosen = 1; chosen < nodes.length; chosen++) {
      int best = -1;
      double bestMillis = Double.POSITIVE_INFINITY;
      for (int i = 0; i < holders.size(); i++) {
        final int holder = holders.getInt(i);
        final double millis = expected.expectedMillis(id(holder));
        if (!contains(nodes, chosen, holder) && (best < 0 || millis < bestMillis)) {
          best = holder;
          bestMillis = millis;
        }
      }
      nodes[chosen] = best;
    }
    return new Placement(nodes, false);
  }

  private static boolean contains(int[] nodes, int size, int node)
  {
    for (int i = 0; i < size; i++) {
      if (nodes[i] == node) {
        return true;
      }
    }
    return false;
  }
}
