package org.getafix.core.redundancy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Zoolander's analytic model of replication for predictability ("Zoolander: Efficiently Meeting Very Strict,
 * Low-Latency SLOs", §2.2): the probability that the fastest of N duplicates answers within the latency bound τ,
 * <pre>  ŝ = 1 − Π_n (1 − Φ_n(τ_n)),   τ_n = τ − W_n − μ_net − N·μ_rep</pre>
 * (the paper's sum Σ_n Φ_n(τ_n)·Π_{i&lt;n}(1 − Φ_i(τ_i)) telescopes to this product), with Φ_n the node's measured
 * latency CDF and W_n its expected M/G/1 queueing delay (Pollaczek–Khinchine):
 * <pre>  W_n = ρ_n·S_n·(1 + C_v²) / (2(1 − ρ_n)),   ρ_n = λ_n·E[S_n] / c_n,   S_n = E[S_n] / c_n</pre>
 * A Historical runs c_n sub-queries at once, which the paper's single-server nodes do not: it is modelled as one
 * server c_n times as fast, so c_n = 1 is the paper's formula. A node at ρ_n ≥ 1 meets no bound (Φ = 0), so a
 * service level is 0 once every duplicate is saturated.
 *
 * <p>In Zoolander each duplicate of a partition carries the partition's whole workload. A Druid holder also serves
 * other traffic, so {@link #decide} scales each node's arrival rate by 1 + (N − 1)·share, where share is the part
 * of the node's load that would be duplicated: with share 1, N duplicates put N times the divided-work load on each
 * node, the paper's comparison of replication for predictability with partitioning on the same nodes.
 *
 * <p>Pure and thread-safe. Garbage never throws: a bound that is NaN or not positive has service level 0, and a
 * duplicate without a usable distribution, rate or parallelism adds nothing (Φ = 0).
 */
public final class ZoolanderModel
{
  private final ZoolanderSettings settings;

  public ZoolanderModel(ZoolanderSettings settings)
  {
    this.settings = settings;
  }

  /**
   * One candidate duplicate.
   *
   * @param nodeId              the node, for the caller
   * @param latency             its latency distribution (service times, in ms)
   * @param arrivalRatePerSecond sub-queries per second it receives without the duplication being decided
   * @param parallelism         sub-queries it processes at once (c_n), ≥ 1
   */
  public record Duplicate(String nodeId, LatencyDistribution latency, double arrivalRatePerSecond, int parallelism)
  {
    /** A node as its {@link LatencyWindow} sees it: the window's distribution and arrival rate. */
    public static Duplicate of(String nodeId, LatencyWindow window, int parallelism)
    {
      return new Duplicate(nodeId, window, window.arrivalRatePerSecond(), parallelism);
    }
  }

  /**
   * What {@link #decide} chose.
   *
   * @param nodes        the duplicates to use, best first; empty if no candidate is usable
   * @param serviceLevel the predicted ŝ with them
   * @param single       the predicted ŝ without redundancy (the best single node)
   */
  public record Decision(List<String> nodes, double serviceLevel, double single)
  {
    public int duplicates()
    {
      return Math.max(1, nodes.size());
    }
  }

  /** ŝ of sending each request to all of {@code duplicates}, at the arrival rates they state. */
  public double serviceLevel(double tauMillis, List<Duplicate> duplicates)
  {
    if (duplicates == null || duplicates.isEmpty()) {
      return 0;
    }
    double allMiss = 1;
    for (Duplicate duplicate : duplicates) {
      allMiss *= 1 - meetsBound(duplicate, 1, duplicates.size(), tauMillis);
    }
    return 1 - allMiss;
  }

  /**
   * How many of {@code candidates} to send each request to. For each N up to the maximum (and the candidates), the
   * best N candidates under that N's load are the ones most likely to meet the bound on their own (with independent
   * duplicates, they maximise ŝ). Returns the smallest N whose ŝ reaches {@code target} if one does; otherwise
   * the N with the highest ŝ, a larger N counting only if it adds at least {@code minGainPerDuplicate} per extra
   * duplicate. So no redundancy (one node) when the duplicated load costs more than it masks.
   *
   * @param target         the service level to reach, in (0, 1]; NaN to maximise ŝ
   * @param duplicatedShare the part of each candidate's load that would be duplicated, in [0, 1] (1 if not)
   */
  public Decision decide(double tauMillis, double target, List<Duplicate> candidates, double duplicatedShare)
  {
    return decide(null, tauMillis, target, candidates, duplicatedShare);
  }

  /**
   * As {@link #decide(double, double, List, double)}, with {@code primary} always one of the duplicates: a Broker's
   * routing has already chosen the node a sub-query goes to, and the model only says whether, and to which of {@code
   * others}, copies go as well. The decision's nodes start with the primary.
   */
  public Decision decideAround(Duplicate primary, double tauMillis, double target, List<Duplicate> others, double duplicatedShare)
  {
    if (primary == null) {
      return new Decision(List.of(), 0, 0);
    }
    return decide(primary, tauMillis, target, others == null ? List.of() : others, duplicatedShare);
  }

  /** {@code fixed}, unless null, is one of the duplicates whatever its odds. */
  private Decision decide(
      Duplicate fixed,
      double tauMillis,
      double target,
      List<Duplicate> candidates,
      double duplicatedShare
  )
  {
    final int pool = candidates == null ? 0 : candidates.size();
    final int fixedCount = fixed == null ? 0 : 1;
    if (pool + fixedCount == 0) {
      return new Decision(List.of(), 0, 0);
    }
    final double share = duplicatedShare >= 0 && duplicatedShare <= 1 ? duplicatedShare : 1;
    final int most = Math.min(settings.maxDuplicates(), pool + fixedCount);
    final Choice single = bestOf(fixed, 1, tauMillis, candidates, 1);
    Choice best = single;
    for (int n = 2; n <= most && !(best.serviceLevel() >= target); n++) {
      final Choice atN = bestOf(fixed, n, tauMillis, candidates, 1 + (n - 1) * share);
      final double gain = atN.serviceLevel() - best.serviceLevel();
      if (atN.serviceLevel() >= target || gain > (n - best.nodes().size()) * settings.minGainPerDuplicate()) {
        best = atN;
      }
    }
    return new Decision(best.nodes(), best.serviceLevel(), single.serviceLevel());
  }

  /**
   * {@code fixed} (if any) and the candidates most likely to meet the bound, n in all, with their load scaled by
   * {@code loadScale}, and their ŝ.
   */
  private Choice bestOf(Duplicate fixed, int n, double tauMillis, List<Duplicate> candidates, double loadScale)
  {
    final List<String> nodes = new ArrayList<>(n);
    double allMiss = 1;
    if (fixed != null) {
      nodes.add(fixed.nodeId());
      allMiss *= 1 - meetsBound(fixed, loadScale, n, tauMillis);
    }
    final List<Scored> scored = new ArrayList<>(candidates == null ? 0 : candidates.size());
    for (int i = 0; candidates != null && i < candidates.size(); i++) {
      final Duplicate candidate = candidates.get(i);
      if (candidate != null) {
        scored.add(new Scored(candidate.nodeId(), meetsBound(candidate, loadScale, n, tauMillis)));
      }
    }
    scored.sort(Comparator.comparingDouble(Scored::meets).reversed());
    for (int i = 0; i < scored.size() && nodes.size() < n; i++) {
      nodes.add(scored.get(i).nodeId());
      allMiss *= 1 - scored.get(i).meets();
    }
    return new Choice(Collections.unmodifiableList(nodes), 1 - allMiss);
  }

  /** Some duplicates and their predicted service level. */
  private record Choice(List<String> nodes, double serviceLevel)
  {
  }

  /** One candidate and the probability that it alone meets the bound. */
  private record Scored(String nodeId, double meets)
  {
  }

  /** Φ_n(τ_n): the probability that this duplicate, one of n, answers within the bound. 0 for garbage. */
  private double meetsBound(Duplicate duplicate, double loadScale, int n, double tauMillis)
  {
    if (!(tauMillis > 0) || duplicate == null || duplicate.latency() == null || duplicate.parallelism() < 1
        || !(duplicate.arrivalRatePerSecond() >= 0) || Double.isInfinite(duplicate.arrivalRatePerSecond())) {
      return 0;
    }
    final LatencyDistribution latency = duplicate.latency();
    final double meanService = latency.mean();
    final double scv = latency.scv();
    if (!(meanService >= 0) || !(scv >= 0)) {
      return 0;
    }
    final double servers = duplicate.parallelism();
    final double rho = duplicate.arrivalRatePerSecond() * loadScale * meanService / 1e3 / servers;
    if (!(rho < 1)) {
      return 0;
    }
    final double queueing = rho * (meanService / servers) * (1 + scv) / (2 * (1 - rho));
    final double bound = tauMillis - queueing - settings.networkMillis() - n * settings.perDuplicateMillis();
    if (bound < 0) {
      return 0;
    }
    final double meets = latency.cdf(bound);
    return meets >= 0 && meets <= 1 ? meets : 0;
  }
}
