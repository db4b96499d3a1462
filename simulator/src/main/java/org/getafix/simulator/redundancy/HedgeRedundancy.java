package org.getafix.simulator.redundancy;

import org.getafix.core.redundancy.HedgePolicy;
import org.getafix.core.redundancy.HedgeSettings;
import org.getafix.simulator.cluster.Segment;

import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Hedged sub-queries as the Broker's quality monitor sends them: each share goes to the holder routing chose, and
 * if it has not answered by the core {@link HedgePolicy}'s hedge point (the node's recent p95), it is re-sent to
 * its fastest other holder while the hedge budget allows; the first answer wins. The latencies the policy learns
 * from are the broker's: a copy's response time, and a cancelled loser's time until it lost.
 */
final class HedgeRedundancy extends LatencyLearningRedundancy
{
  private final HedgePolicy policy;

  HedgeRedundancy(Setup setup)
  {
    super("hedge", setup);
    final HedgeSettings d = HedgeSettings.DEFAULTS;
    this.policy = new HedgePolicy(
        new HedgeSettings(
            d.quantile(),
            d.minDelayMillis(),
            d.unknownLatencyMillis(),
            d.minSamples(),
            settings.hedgeRatio(),
            d.maxTokens()
        ),
        latencies,
        losses
    );
  }

  @Override
  protected Placement choose(Segment segment, IntSupplier routed)
  {
    policy.onPrimary();
    return new Placement(new int[]{routed.getAsInt()}, false);
  }

  @Override
  public double hedgeAfterSeconds(Segment segment, int node)
  {
    return policy.hedgeAfterMillis(id(node), holderIds(segment), Double.NaN) / 1000;
  }

  @Override
  public void onHedgeWon()
  {
    policy.onHedgeWon();
  }

  @Override
  public int hedgeTo(Segment segment, int lateNode)
  {
    final Map<String, List<Segment>> target = policy.reassign(id(lateNode), List.of(segment), this::holderIds);
    if (target.isEmpty() || !policy.tryHedge()) {
      return -1;
    }
    sentLateCopy();
    return index(target.keySet().iterator().next());
  }
}
