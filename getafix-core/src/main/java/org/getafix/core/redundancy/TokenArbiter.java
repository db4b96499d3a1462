package org.getafix.core.redundancy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * TAD, the token-based arbiter of sPARE ("sPARE: Partial Replication for Multi-tier Applications in the Cloud", §4):
 * each server has C tokens in a shared pool, and a request holds one token per server it runs on, so a server's
 * load is bounded by how fast it returns tokens and slow servers receive less without being probed.
 *
 * <p>Acquiring r tokens over a candidate set (for Druid, the holders of a segment) looks up n + r of the candidates
 * (all of them by default, the paper's choice, since a look-up is cheap), in random order, and takes the r fastest
 * that have a token left, by their last observed latency. A server is taken at most once per acquisition, so the
 * replicas of one request never collide on one server. A server never observed counts as fastest, so it gets
 * measured. If fewer than r candidates have a token, the acquisition takes those: unlike the paper's arbiter, a
 * Broker query thread does not wait for tokens to return. Releasing a token records the latency the replica had.
 *
 * <p>Thread-safe: acquisitions and releases lock the arbiter (they touch a few candidates each). Garbage never
 * throws: a NaN, infinite or negative latency returns the token but is not recorded, a release without a token out
 * (or of a server never acquired) is ignored, and both are counted in {@link #ignored()}.
 */
public final class TokenArbiter
{
  /** Look up every candidate, as sPARE does. */
  public static final int ALL_CANDIDATES = Integer.MAX_VALUE;

  private final int tokensPerServer;
  private final int extraLookups;
  private final RandomGenerator random;
  private final Map<String, Server> servers = new HashMap<>();
  private Server[] scratch = new Server[16];
  private long ignored;

  /**
   * @param tokensPerServer C, ≥ 1: for a Historical, the sub-queries it runs at once (its processing threads)
   * @param extraLookups    n, ≥ 0: candidates looked up beyond the r wanted; {@link #ALL_CANDIDATES} for all
   * @param random          orders the look-ups, so ties and the looked-up subset are not always the same
   */
  public TokenArbiter(int tokensPerServer, int extraLookups, RandomGenerator random)
  {
    if (tokensPerServer < 1 || extraLookups < 0) {
      throw new IllegalArgumentException(
          "tokensPerServer must be >= 1 and extraLookups >= 0, got [" + tokensPerServer + ", " + extraLookups + "]"
      );
    }
    this.tokensPerServer = tokensPerServer;
    this.extraLookups = extraLookups;
    this.random = random;
  }

  /**
   * Takes a token of up to {@code replicas} distinct servers among {@code candidates}, fastest first. Each server
   * returned must be {@link #release released} once its replica completes or is abandoned.
   */
  public synchronized List<String> acquire(int replicas, List<String> candidates)
  {
    if (replicas < 1 || candidates == null || candidates.isEmpty()) {
      return List.of();
    }
    final int distinct = distinctCandidates(candidates);
    final int lookups = (int) Math.min(distinct, (long) replicas + extraLookups);
    // A partial Fisher-Yates shuffle: the first `lookups` places hold a uniformly random ordered subset.
    for (int i = 0; i < lookups; i++) {
      final int j = i + random.nextInt(distinct - i);
      final Server swap = scratch[i];
      scratch[i] = scratch[j];
      scratch[j] = swap;
    }
    // Stable, so servers of equal latency keep the random order.
    Arrays.sort(scratch, 0, lookups, (a, b) -> Double.compare(a.rankMillis(), b.rankMillis()));
    final List<String> acquired = new ArrayList<>(Math.min(replicas, lookups));
    for (int i = 0; i < lookups && acquired.size() < replicas; i++) {
      final Server server = scratch[i];
      if (server.available > 0) {
        server.available--;
        acquired.add(server.id);
      }
    }
    Arrays.fill(scratch, 0, distinct, null);
    return Collections.unmodifiableList(acquired);
  }

  /** Returns a token of {@code server}, whose replica took {@code observedMillis}. */
  public synchronized void release(String server, double observedMillis)
  {
    final Server state = server == null ? null : servers.get(server);
    if (state == null || state.available >= tokensPerServer) {
      ignored++;
      return;
    }
    state.available++;
    if (LatencyWindow.isValid(observedMillis)) {
      state.lastMillis = observedMillis;
    } else {
      ignored++;
    }
  }

  /**
   * Returns a token of {@code server} whose replica was never sent, so nothing was observed: its last latency stays.
   * A server with no token out is counted in {@link #ignored()}.
   */
  public synchronized void giveBack(String server)
  {
    final Server state = server == null ? null : servers.get(server);
    if (state == null || state.available >= tokensPerServer) {
      ignored++;
      return;
    }
    state.available++;
  }

  /** Tokens of {@code server} in the pool; C for a server not seen yet. */
  public synchronized int available(String server)
  {
    final Server state = server == null ? null : servers.get(server);
    return state == null ? tokensPerServer : state.available;
  }

  /** The last latency observed on {@code server}, NaN if none. */
  public synchronized double lastLatencyMillis(String server)
  {
    final Server state = server == null ? null : servers.get(server);
    return state == null ? Double.NaN : state.lastMillis;
  }

  /** Drops a server that left the cluster; its outstanding tokens are then not credited on release. */
  public synchronized void forget(String server)
  {
    servers.remove(server);
  }

  /** Garbage latencies and releases without a token out. */
  public synchronized long ignored()
  {
    return ignored;
  }

  /** Fills the scratch array with the distinct known candidates (created with C tokens on first sight). */
  private int distinctCandidates(List<String> candidates)
  {
    if (scratch.length < candidates.size()) {
      scratch = new Server[Math.max(candidates.size(), scratch.length * 2)];
    }
    int distinct = 0;
    for (int i = 0; i < candidates.size(); i++) {
      final String id = candidates.get(i);
      if (id == null) {
        continue;
      }
      final Server server = servers.computeIfAbsent(id, key -> new Server(key, tokensPerServer));
      if (!server.inScratch) {
        server.inScratch = true;
        scratch[distinct++] = server;
      }
    }
    for (int i = 0; i < distinct; i++) {
      scratch[i].inScratch = false;
    }
    return distinct;
  }

  /** One server's tokens in the pool and its last observed latency. Guarded by the arbiter's lock. */
  private static final class Server
  {
    private final String id;
    private int available;
    private double lastMillis = Double.NaN;
    private boolean inScratch;

    private Server(String id, int tokens)
    {
      this.id = id;
      this.available = tokens;
    }

    private double rankMillis()
    {
      return Double.isNaN(lastMillis) ? 0 : lastMillis;
    }
  }
}
