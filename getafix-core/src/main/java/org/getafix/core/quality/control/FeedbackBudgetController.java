package org.getafix.core.quality.control;

import org.HdrHistogram.Histogram;

/**
 * The budget paper's controllers (§3.1) in one class, selected by {@link BudgetControlConfig.Mode}:
 * <ul>
 *   <li><b>Integral</b>, on every completed query: u ← u + K_I·(target − y), y the controlled statistic (EWMA mean
 *   or windowed P90).</li>
 *   <li><b>Adaptive</b>, every {@code adaptivePeriod} queries: the interval's point (mean budget, response-time
 *   statistic of the interval's queries) feeds the {@link LinearBudgetModel}; the LQ step then picks the budget
 *   minimising W²·(ŷ(u) − target)² + Q²·(u − u_prev)², with ŷ(u) the interval's response time moved along the
 *   model's slope. Closed form: u = u_prev + W²·(target − ŷ(u_prev)) / (slope·(W² + Q²)).</li>
 * </ul>
 * Two departures from the paper, both documented in docs/quality.md:
 * <ul>
 *   <li>The LQ cost measures the budget change by the response time it buys (slope·Δu), so that Q and W are unitless
 *   and keep their meaning whatever unit the glue measures the budget in: with Q = W each step removes half of the
 *   predicted error.</li>
 *   <li>The adaptive step reads the statistic of the interval's own queries rather than the slow EWMA/P90 window,
 *   whose lag (about 20 queries at α = 0.05) would make the model pair a budget with the response time of an older
 *   one.</li>
 * </ul>
 * Anti-windup: the integrator is the budget itself (velocity form), and every step clamps it to [min, max], so an
 * error that cannot be acted on (the target unreachable even at the max budget, e.g. at idle) is dropped rather
 * than stored, and the controller reacts at once when the error changes sign. Two more guards, both found on the
 * live cluster (BudgetControlIT), where a budget cuts a query off and so response time is min(demand, budget):
 * <ul>
 *   <li>Where the budget is each query's deadline ({@link BudgetControlConfig#responseCeiling()} set, as on the
 *   Broker), it only binds up to the slowest response: while every query answers well within it (the target met by
 *   whole answers), raising it only stores error, which must all be unwound once load returns (live: 40 s against
 *   a 1.44 s target). So the budget never rises above that factor times the slowest response of the current and the
 *   previous control interval, or the target if that is higher. A budget that binds is not touched by this: its
 *   slowest responses are the budget itself.</li>
 *   <li>Where the budget does not bind, response time does not depend on it, the model's slope tends to 0 and the
 *   LQ step, which divides by it, to infinity (live: from 40 s to the 10 ms minimum, answering nothing). So one
 *   adaptive step changes the budget by at most a factor of {@value #MAX_ADAPTIVE_STEP} either way.</li>
 * </ul>
 *
 * <p>Thread-safe: {@link #onResponse} serialises on the instance (O(1) per query, O(N) every adaptive step);
 * {@link #budget} is a volatile read.
 */
public final class FeedbackBudgetController implements BudgetController
{
  static final double MAX_ADAPTIVE_STEP = 2;

  private final BudgetControlConfig config;
  private final ResponseTimeEstimator estimator;
  private final LinearBudgetModel model;
  private final Histogram intervalPercentile;

  private volatile double budget;
  private volatile long rejected;

  private double intervalResponseSum;
  private double intervalBudgetSum;
  private int inInterval;
  private double intervalSlowest;
  private double previousIntervalSlowest;

  public FeedbackBudgetController(BudgetControlConfig config)
  {
    this.config = config;
    this.estimator = config.newEstimator();
    this.model = new LinearBudgetModel(config.modelOrder());
    this.intervalPercentile = config.estimator() == ResponseTimeEstimator.Kind.P90 ? new Histogram(2) : null;
    this.budget = config.initialBudget();
  }

  @Override
  public synchronized void onResponse(double responseTimeMillis)
  {
    if (!(Double.isFinite(responseTimeMillis) && responseTimeMillis >= 0)) {
      rejected++;
      return;
    }
    estimator.record(responseTimeMillis);
    intervalResponseSum += responseTimeMillis;
    intervalBudgetSum += budget;
    if (intervalPercentile != null) {
      intervalPercentile.recordValue(Math.round(Math.min(responseTimeMillis, Long.MAX_VALUE / 2e3) * 1e3));
    }
    inInterval++;
    intervalSlowest = Math.max(intervalSlowest, responseTimeMillis);

    double next = budget;
    if (config.mode() != BudgetControlConfig.Mode.ADAPTIVE) {
      next += config.integralGain() * (config.targetMillis() - estimator.estimate());
    }
    if (inInterval == config.adaptivePeriod()) {
      if (config.mode() != BudgetControlConfig.Mode.INTEGRAL) {
        next = adaptiveStep(clamp(next));
      }
      intervalResponseSum = 0;
      intervalBudgetSum = 0;
      inInterval = 0;
      previousIntervalSlowest = intervalSlowest;
      intervalSlowest = 0;
      if (intervalPercentile != null) {
        intervalPercentile.reset();
      }
    }
    budget = clamp(Math.min(next, ceiling()));
  }

  /** The highest budget that can still bind, if the config asks for one: see the class comment. */
  private double ceiling()
  {
    if (config.responseCeiling() == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return Math.max(
        config.targetMillis(),
        config.responseCeiling() * Math.max(intervalSlowest, previousIntervalSlowest)
    );
  }

  private double adaptiveStep(double current)
  {
    final double intervalBudget = intervalBudgetSum / inInterval;
    final double intervalResponse = intervalPercentile != null
                                    ? intervalPercentile.medianEquivalentValue(
                                        intervalPercentile.getValueAtPercentile(config.percentile())) / 1e3
                                    : intervalResponseSum / inInterval;
    model.add(intervalBudget, intervalResponse);
    final double slope = model.slope();
    if (!(slope > 0 && Double.isFinite(slope))) {
      // Only when every interval so far ran at response time 0: nothing to learn from yet.
      return current;
    }
    final double predicted = intervalResponse + slope * (current - intervalBudget);
    final double w2 = config.trackingWeight() * config.trackingWeight();
    final double q2 = config.changeWeight() * config.changeWeight();
    final double step = current + w2 * (config.targetMillis() - predicted) / (slope * (w2 + q2));
    return Math.max(current / MAX_ADAPTIVE_STEP, Math.min(current * MAX_ADAPTIVE_STEP, step));
  }

  private double clamp(double value)
  {
    if (Double.isNaN(value)) {
      return budget;
    }
    return Math.max(config.minBudget(), Math.min(config.maxBudget(), value));
  }

  @Override
  public double budget()
  {
    return budget;
  }

  @Override
  public synchronized double responseTimeEstimate()
  {
    return estimator.estimate();
  }

  @Override
  public long rejectedResponses()
  {
    return rejected;
  }

  public BudgetControlConfig config()
  {
    return config;
  }
}
