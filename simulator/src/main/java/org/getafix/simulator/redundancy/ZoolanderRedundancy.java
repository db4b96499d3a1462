package org.getafix.simulator.redundancy;

import org.getafix.core.redundancy.LatencyWindow;
import org.getafix.core.redundancy.NodeLatencies;
import org.getafix.core.redundancy.ZoolanderModel;
import org.getafix.core.redundancy.ZoolanderSettings;
import org.getafix.simulator.cluster.Segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Zoolander's replication for predictability: the core {@link ZoolanderModel} chooses how many holders get each
 * share up front, from each holder's measured service-time distribution, its arrival rate and its processing
 * threads, so that the duplicates' extra load is weighed against the outliers they mask; under high utilisation
 * the queueing the duplicates add outweighs what they mask, and the model chooses one.
 *
 * <p>The inputs: a node's service times (its copies' time on a core, over the core's 30 s window), and its arrival
 * rate without duplication, the shares it got as primary over the last period. The model decides once per period
 * for each set of holders; the broker's routing still picks the primary, and the duplicates are the model's best
 * other holders.
 */
final class ZoolanderRedundancy extends CoreRedundancy
{
  private final ZoolanderModel model;
  private final NodeLatencies services;
  private final double[] ratePerSecond;
  /** This period's decision per set of holders, and each node's predicted share within τ on its own. */
  private final Map<List<String>, ZoolanderModel.Decision> decisions = new HashMap<>();
  private final double[] single;

  ZoolanderRedundancy(Setup setup)
  {
    super("zoolander", setup);
    final ZoolanderSettings d = ZoolanderSettings.DEFAULTS;
    this.model = new ZoolanderModel(new ZoolanderSettings(
        d.networkMillis(),
        d.perDuplicateMillis(),
        settings.duplicates(),
        d.minGainPerDuplicate()
    ));
    this.services = new NodeLatencies(NodeLatencies.DEFAULT_WINDOW, nanoClock());
    this.ratePerSecond = new double[setup.nodeIds().size()];
    this.single = new double[setup.nodeIds().size()];
    Arrays.fill(single, Double.NaN);
  }

  @Override
  protected Placement choose(Segment segment, IntSupplier routed)
  {
    final int primary = routed.getAsInt();
    final List<String> holders = holderIds(segment);
    final ZoolanderModel.Decision decision = decisions.computeIfAbsent(holders, this::decide);
    if (decision.duplicates() <= 1) {
      predicted(singleLevel(primary));
      return new Placement(new int[]{primary}, false);
    }
    final int[] nodes = new int[decision.duplicates()];
    nodes[0] = primary;
    int chosen = 1;
    for (int i = 0; i < decision.nodes().size() && chosen < nodes.length; i++) {
      final int node = index(decision.nodes().get(i));
      if (node != primary) {
        nodes[chosen++] = node;
      }
    }
    predicted(decision.serviceLevel());
    return new Placement(chosen == nodes.length ? nodes : Arrays.copyOf(nodes, chosen), false);
  }

  private ZoolanderModel.Decision decide(List<String> holders)
  {
    final List<ZoolanderModel.Duplicate> candidates = new ArrayList<>(holders.size());
    for (String holder : holders) {
      candidates.add(duplicate(index(holder)));
    }
    return model.decide(settings.sloMillis(), settings.serviceLevelTarget(), candidates, 1);
  }

  private ZoolanderModel.Duplicate duplicate(int node)
  {
    final LatencyWindow window = services.get(id(node));
    return new ZoolanderModel.Duplicate(id(node), window, ratePerSecond[node], cores[node]);
  }

  /** The predicted share within τ of a share sent to {@code node} alone. */
  private double singleLevel(int node)
  {
    if (Double.isNaN(single[node])) {
      single[node] = model.serviceLevel(settings.sloMillis(), List.of(duplicate(node)));
    }
    return single[node];
  }

  @Override
  protected void answered(int node, boolean token, double responseMillis, double serviceMillis)
  {
    services.record(id(node), serviceMillis);
  }

  @Override
  protected void periodEnded(double seconds)
  {
    for (int node = 0; node < ratePerSecond.length; node++) {
      ratePerSecond[node] = periodPrimaries[node] / seconds;
    }
    decisions.clear();
    Arrays.fill(single, Double.NaN);
  }

  @Override
  protected boolean predicts()
  {
    return true;
  }

  @Override
  protected Double modelUtilisation()
  {
    double sum = 0;
    for (int node = 0; node < ratePerSecond.length; node++) {
      final LatencyWindow window = services.get(id(node));
      final double mean = window == null ? Double.NaN : window.mean();
      if (!Double.isNaN(mean)) {
        sum += ratePerSecond[node] * mean / 1e3 / cores[node];
      }
    }
    return sum / ratePerSecond.length;
  }
}
