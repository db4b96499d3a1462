package org.getafix.core.redundancy;

/**
 * sPARE's replicator ("sPARE: Partial Replication for Multi-tier Applications in the Cloud", §5) for the one tier a
 * Broker replicates, the Historicals: a fractional replication factor r in [1, r_max], where r = 1.3 sends a second
 * copy of 30% of the sub-queries.
 *
 * <p>r is found by the paper's iterative search (Algorithm 1), run online, one step per measurement period:
 * <ul>
 *   <li>the feasible set is r ≤ r_max with the stability condition (4), λ·r·E[S] ≤ (1 − margin)·capacity, where
 *   capacity is the tier's service slots (servers × cores in the paper, holders × processing threads here);</li>
 *   <li>starting from r = 1, while the measured variability w is at least {@code minVariability}, r is raised by
 *   one step and the target metric (e.g. the sub-queries' p95) measured over the next period; the step is kept if
 *   the metric improved, otherwise r goes back and that direction is removed from the feasible set;</li>
 *   <li>as the load rises, r falls at once to the largest feasible value (and the search starts over from there).</li>
 * </ul>
 * Two additions for a search that never ends: a removed direction is re-opened after {@code retryPeriods}, and r
 * steps down while w is below {@code minVariability}, since replication then masks nothing and only adds load (the
 * paper restarts its search from r = 1 instead).
 *
 * <p>Which sub-queries are replicated is decided by a credit counter, not a coin: each sub-query adds r − 1 credit
 * and takes one extra copy per whole credit, so exactly the share r − 1 is replicated, spread evenly, and a run is
 * reproducible. Thread-safe (all methods lock the instance, each O(1)); a garbage measurement is ignored and
 * counted.
 */
public final class PartialReplicator
{
  private final ReplicatorSettings settings;
  private final int maxSteps;
  private int steps;
  private boolean trial;
  private double baseline = Double.NaN;
  private int blockedFrom = Integer.MAX_VALUE;
  private int blockedFor;
  private double credit;
  private long ignored;

  /**
   * What was observed over one period, with the current factor.
   *
   * @param arrivalRatePerSecond λ: primary sub-queries per second (before replication)
   * @param meanServiceMillis    E[S]: mean time a Historical spends on one sub-query
   * @param capacity             the sub-queries the tier can run at once (sum of the holders' processing threads)
   * @param targetMillis         R^T, the metric the search lowers, e.g. the p95 of the first answers
   * @param variability          w, e.g. p95 / mean of the individual sub-queries' latencies (every copy, not only the
   *                             first answer, whose variability replication itself reduces)
   */
  public record Measurement(
      double arrivalRatePerSecond,
      double meanServiceMillis,
      double capacity,
      double targetMillis,
      double variability
  )
  {
    private boolean isValid()
    {
      return Double.isFinite(arrivalRatePerSecond) && arrivalRatePerSecond >= 0
             && Double.isFinite(meanServiceMillis) && meanServiceMillis >= 0
             && Double.isFinite(capacity) && capacity > 0
             && Double.isFinite(targetMillis) && targetMillis >= 0
             && Double.isFinite(variability) && variability >= 0;
    }
  }

  public PartialReplicator(ReplicatorSettings settings)
  {
    this.settings = settings;
    // The tolerance keeps r_max = 1.3 at 3 steps of 0.1 despite the binary fractions.
    this.maxSteps = (int) Math.floor((settings.maxFactor() - 1) / settings.step() + 1e-9);
  }

  /** One search step on what was measured over the last period. */
  public synchronized void update(Measurement measured)
  {
    if (measured == null || !measured.isValid()) {
      ignored++;
      return;
    }
    if (blockedFrom != Integer.MAX_VALUE && --blockedFor <= 0) {
      blockedFrom = Integer.MAX_VALUE;
    }
    final int feasible = feasibleSteps(measured);
    if (steps > feasible) {
      steps = feasible;
      trial = false;
      baseline = Double.NaN;
      return;
    }
    if (trial) {
      trial = false;
      if (!(measured.targetMillis() < baseline * (1 - settings.minImprovement()))) {
        steps--;
        blockedFrom = steps + 1;
        blockedFor = settings.retryPeriods();
        baseline = Double.NaN;
        return;
      }
    } else if (measured.variability() < settings.minVariability() && steps > 0) {
      steps--;
      baseline = Double.NaN;
      return;
    }
    baseline = measured.targetMillis();
    if (measured.variability() >= settings.minVariability() && steps < feasible && steps + 1 < blockedFrom) {
      steps++;
      trial = true;
    }
  }

  /** The current replication factor r. */
  public synchronized double factor()
  {
    return 1 + steps * settings.step();
  }

  /** How many copies of the next sub-query to send: 1, or more for the share r − 1 of them. */
  public synchronized int copies()
  {
    credit += steps * settings.step();
    final int extra = (int) Math.floor(credit + 1e-9);
    credit -= extra;
    return 1 + extra;
  }

  /** Measurements ignored as garbage. */
  public synchronized long ignored()
  {
    return ignored;
  }

  /** The most steps the stability condition and r_max allow. */
  private int feasibleSteps(Measurement measured)
  {
    final double busySlots = measured.arrivalRatePerSecond() * measured.meanServiceMillis() / 1e3;
    if (busySlots == 0) {
      return maxSteps;
    }
    final double maxFactor = (1 - settings.stabilityMargin()) * measured.capacity() / busySlots;
    if (maxFactor < 1) {
      return 0;
    }
    return (int) Math.min(maxSteps, Math.floor((maxFactor - 1) / settings.step() + 1e-9));
  }
}
