package org.getafix.core.quality.split;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The budget of a query that starts while others are pending on the same budget controller: the budget paper's split
 * (§3.2) where queries run at once, as on a Broker, rather than one after another from a FIFO queue. The controller
 * sets b, the budget of one query; the n pending queries, the new one included, share B = n·b. Those already running
 * hold what is left of their budgets, so the new query gets its share of B by the {@link Method}, but never more than
 * they leave of B, and then within [max(min, b / {@value #MAX_FACTOR}), min(max, b · {@value #MAX_FACTOR})].
 *
 * <p>With no other query pending there is nothing to divide: the new query gets b, as without a split. Immutable and
 * thread-safe.
 */
public final class PendingQueriesSplit
{
  /**
   * How far a split budget may move from the controller's, either way. The demands and profiles it is split by are
   * estimates per query class, and the controller steers by the response times of the very queries it budgets: one
   * wrong estimate must neither starve a query nor hold it far longer than the controller would.
   */
  public static final double MAX_FACTOR = 4;

  /** How B is split. */
  public enum Method
  {
    /**
     * {@link EqResv}: the new query gets max(B / n, B − (n − 1)·w̄), w̄ the mean demand of the others' classes. It
     * uses no demand of the new query's own, so it suits classes whose quality profile is not known.
     */
    EQ_RESV,
    /**
     * {@link MaxQuality}: the new query's water-filling share of B over every pending query's demand and profile,
     * plus an equal n-th of what B holds beyond every demand. On a Broker a budget is a deadline, not processing time
     * handed out: time beyond a query's demand costs nothing when it finishes sooner, and spares a query slower than
     * its class's mean from being cut, so that surplus is spread rather than left unassigned.
     */
    MAX_QUALITY
  }

  /**
   * What is known of a query's class: its demand (the time a whole answer takes, in the controller's unit) and its
   * quality profile. A demand that is not a finite number above 0 is unknown, and counts as b: the class is assumed
   * to need what the controller grants one query. A null profile is {@link QualityProfile#LINEAR}.
   */
  public record Estimate(double demand, QualityProfile profile)
  {
    public Estimate
    {
      profile = profile == null ? QualityProfile.LINEAR : profile;
    }

    private double demandOr(double unknown)
    {
      return Double.isFinite(demand) && demand > 0 ? demand : unknown;
    }
  }

  /**
   * A query already pending: its class's estimate and what is left of its budget (NaN or below 0 counts as 0: it
   * holds nothing more of B).
   */
  public record Pending(Estimate estimate, double remainingBudget)
  {
    public Pending
    {
      Objects.requireNonNull(estimate, "estimate");
    }

    private double holds()
    {
      return remainingBudget > 0 ? remainingBudget : 0;
    }
  }

  private final Method method;
  private final double minBudget;
  private final double maxBudget;

  /**
   * @param minBudget the smallest budget ever given, > 0 (the controller's own lower bound)
   * @param maxBudget the largest, at least {@code minBudget} (the controller's own upper bound)
   */
  public PendingQueriesSplit(Method method, double minBudget, double maxBudget)
  {
    if (method == null) {
      throw new IllegalArgumentException("split method must be set");
    }
    if (!(Double.isFinite(minBudget) && minBudget > 0 && Double.isFinite(maxBudget) && maxBudget >= minBudget)) {
      throw new IllegalArgumentException(
          "budget bounds must be finite with 0 < min <= max, got [" + minBudget + ", " + maxBudget + "]"
      );
    }
    this.method = method;
    this.minBudget = minBudget;
    this.maxBudget = maxBudget;
  }

  public Method method()
  {
    return method;
  }

  /**
   * The budget of a query of class {@code starting} that starts beside {@code others}, under a controller whose budget
   * per query is {@code controllerBudget}. Never throws on a number: a controller budget that is not a finite number
   * above 0 counts as the smallest budget, and the result is always within [min, max].
   */
  public double budget(double controllerBudget, Estimate starting, List<Pending> others)
  {
    final double b = Double.isFinite(controllerBudget) && controllerBudget > 0
                     ? Math.max(minBudget, Math.min(maxBudget, controllerBudget))
                     : minBudget;
    if (others.isEmpty()) {
      return b;
    }
    final int n = others.size() + 1;
    final double total = n * b;
    double held = 0;
    for (Pending other : others) {
      held += other.holds();
    }
    final double share = method == Method.EQ_RESV
                         ? eqResvShare(total, n, b, others)
                         : maxQualityShare(total, n, b, starting, others);
    final double floor = Math.max(minBudget, b / MAX_FACTOR);
    final double ceiling = Math.min(maxBudget, b * MAX_FACTOR);
    // When the others already hold (nearly) all of B, because the controller lowered b since they started or queries
    // that ended early took less than b with them, the floor wins over B.
    return Math.max(floor, Math.min(ceiling, Math.min(share, total - held)));
  }

  private static double eqResvShare(double total, int n, double b, List<Pending> others)
  {
    double demands = 0;
    for (Pending other : others) {
      demands += other.estimate().demandOr(b);
    }
    return EqResv.share(total, n, demands / others.size());
  }

  private static double maxQualityShare(double total, int n, double b, Estimate starting, List<Pending> others)
  {
    final List<MaxQuality.Job> jobs = new ArrayList<>(n);
    jobs.add(new MaxQuality.Job(starting.demandOr(b), starting.profile()));
    for (Pending other : others) {
      jobs.add(new MaxQuality.Job(other.estimate().demandOr(b), other.estimate().profile()));
    }
    final double[] assigned = MaxQuality.split(jobs, total);
    double assignedTotal = 0;
    for (double time : assigned) {
      assignedTotal += time;
    }
    return assigned[0] + Math.max(0, total - assignedTotal) / n;
  }
}
