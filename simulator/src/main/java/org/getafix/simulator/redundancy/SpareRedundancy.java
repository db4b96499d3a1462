package org.getafix.simulator.redundancy;

import org.getafix.core.redundancy.PartialReplicator;
import org.getafix.core.redundancy.ReplicatorSettings;
import org.getafix.core.redundancy.TokenArbiter;
import org.getafix.simulator.cluster.Segment;

import java.util.List;
import java.util.function.IntSupplier;
import java.util.random.RandomGenerator;

/**
 * sPARE's partial replication: the core {@link PartialReplicator} sets the replication factor r by its iterative
 * search, one step per period, and each share is dispatched by the core {@link TokenArbiter} (TAD) to the fastest
 * of its holders with a token left, a share r − 1 of them to two holders. A share for which no holder has a token
 * goes where routing sends it, without a token: a broker does not wait for one.
 *
 * <p>The search's inputs per period: λ the shares dispatched per second, E[S] the copies' mean time on a core, the
 * capacity the nodes' processing threads, the target the p99 of the queries' latencies (sPARE's target is the
 * front tier's tail, a page waiting for all its database queries as a query waits for all its segments), and the
 * variability w the p99 over the mean of every copy's response time (the replicated tier's variability).
 */
final class SpareRedundancy extends CoreRedundancy
{
  private final PartialReplicator replicator;
  private final TokenArbiter arbiter;
  private final double capacity;

  SpareRedundancy(Setup setup, RandomGenerator random)
  {
    super("spare", setup);
    final ReplicatorSettings d = ReplicatorSettings.DEFAULTS;
    this.replicator = new PartialReplicator(new ReplicatorSettings(
        settings.maxFactor(),
        d.step(),
        d.stabilityMargin(),
        d.minVariability(),
        d.minImprovement(),
        d.retryPeriods()
    ));
    int capacity = 0;
    int fewest = Integer.MAX_VALUE;
    for (int c : cores) {
      capacity += c;
      fewest = Math.min(fewest, c);
    }
    this.capacity = capacity;
    // One token count for all servers, as in sPARE: the smallest node's threads, so no node is given more
    // sub-queries at once than it can run.
    this.arbiter = new TokenArbiter(fewest, TokenArbiter.ALL_CANDIDATES, random);
  }

  @Override
  protected Placement choose(Segment segment, IntSupplier routed)
  {
    final List<String> acquired = arbiter.acquire(replicator.copies(), holderIds(segment));
    if (acquired.isEmpty()) {
      return new Placement(new int[]{routed.getAsInt()}, false);
    }
    final int[] nodes = new int[acquired.size()];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = index(acquired.get(i));
    }
    return new Placement(nodes, true);
  }

  @Override
  protected void answered(int node, boolean token, double responseMillis, double serviceMillis)
  {
    if (token) {
      arbiter.release(id(node), responseMillis);
    }
  }

  /** A loser's time until it lost is a lower bound of its latency: enough to rank it behind the winner. */
  @Override
  protected void cancelled(int node, boolean token, double elapsedMillis)
  {
    if (token) {
      arbiter.release(id(node), elapsedMillis);
    }
  }

  @Override
  protected void periodEnded(double seconds)
  {
    if (periodQueryMillis.isEmpty() || periodResponseMillis.isEmpty()) {
      return;
    }
    long shares = 0;
    for (long primaries : periodPrimaries) {
      shares += primaries;
    }
    final double meanResponse = mean(periodResponseMillis);
    replicator.update(new PartialReplicator.Measurement(
        shares / seconds,
        mean(periodServiceMillis),
        capacity,
        quantile(periodQueryMillis, 0.99),
        quantile(periodResponseMillis, 0.99) / meanResponse
    ));
  }

  @Override
  protected Double replicationFactor()
  {
    return replicator.factor();
  }
}
