package org.getafix.core.quality.control;

import org.getafix.core.contract.Knob;
import org.getafix.core.contract.QualityKnobs;

/**
 * Settings of a {@link FeedbackBudgetController}; validated on construction, so a bad setting fails when the
 * Broker starts, not on a query thread. Defaults are the budget paper's (§4.3) except K_I (see
 * {@link #DEFAULT_INTEGRAL_GAIN}): integral control on every query, an adaptive step every 10 queries with a model of order N = 10 and LQ weights Q = W = 0.5, and the
 * mean response time as an EWMA with α = 0.05.
 *
 * @param mode              which control laws run
 * @param estimator         which response-time statistic is controlled
 * @param targetMillis      the response-time target, &gt; 0
 * @param minBudget         lower bound of the budget, &gt; 0 (the paper has none; a budget of 0 would starve every
 *                          query and stop the feedback)
 * @param maxBudget         upper bound of the budget, ≥ minBudget (the paper has none; it bounds the windup while the
 *                          target cannot be reached, e.g. at idle)
 * @param initialBudget     the budget before any feedback, in [minBudget, maxBudget]
 * @param integralGain      K_I: budget units added per millisecond of error on every query, ≥ 0
 * @param adaptivePeriod    queries between two adaptive (RLS + LQ) steps, ≥ 1
 * @param modelOrder        N: interval points the linear model of response time vs budget is fitted on, ≥ 2
 * @param trackingWeight    W: LQ weight on the predicted relative tracking error, &gt; 0
 * @param changeWeight      Q: LQ weight on the relative budget change, &gt; 0
 * @param ewmaAlpha         α of the {@link ResponseTimeEstimator.Kind#MEAN} estimator, in (0, 1]
 * @param percentileWindow  responses in the {@link ResponseTimeEstimator.Kind#P90} window, ≥ 10
 * @param percentile        the percentile the P90 estimator reports, in (0, 100]
 * @param responseCeiling   0 (off), or ≥ 1: the budget never rises above this many times the slowest response of
 *                          the current and previous control interval (or the target, if higher). Only for a budget
 *                          that is each query's deadline, in the response time's unit (the Broker's): a budget
 *                          above its slowest responses binds nothing, and raising it only winds up (see
 *                          {@link FeedbackBudgetController})
 */
public record BudgetControlConfig(
    Mode mode,
    ResponseTimeEstimator.Kind estimator,
    double targetMillis,
    double minBudget,
    double maxBudget,
    double initialBudget,
    double integralGain,
    int adaptivePeriod,
    int modelOrder,
    double trackingWeight,
    double changeWeight,
    double ewmaAlpha,
    int percentileWindow,
    double percentile,
    double responseCeiling
)
{
  /**
   * K_I for the mean estimator, in budget units per ms of error per query. The paper uses 1 in its own units; on a
   * simulated plant of gain 1-2 (ms of response per unit of budget, BudgetControlSimulationTest) that integrator
   * chases noise: the budget jitters by 10-25% and noise pushes the mean out of a ±5% band now and then. At 0.02 the
   * hybrid controller settles in 3-5 intervals with 4% budget jitter, and integral-only control is the slow one the
   * paper describes (7-30 intervals).
   */
  public static final double DEFAULT_INTEGRAL_GAIN = 0.02;
  /**
   * K_I for the P90 estimator: the 1000-response window answers a budget change hundreds of queries late, and an
   * integrator that fast behind such a delay oscillates (it does at 0.003 in BudgetControlSimulationTest), so the
   * integral only trims the adaptive step's bias.
   */
  public static final double DEFAULT_P90_INTEGRAL_GAIN = 0.001;
  public static final int DEFAULT_ADAPTIVE_PERIOD = 10;
  public static final int DEFAULT_MODEL_ORDER = 10;
  public static final double DEFAULT_LQ_WEIGHT = 0.5;
  /** {@link #responseCeiling} for a per-query deadline budget: twice the slowest recent response. */
  public static final double DEADLINE_RESPONSE_CEILING = 2;

  /** The control laws of the budget paper, §3.1. */
  public enum Mode
  {
    /** u(k) = u(k−1) + K_I·e(k) on every completed query. Zero steady-state error, slow after a load change. */
    INTEGRAL,
    /** An RLS + LQ step every adaptivePeriod queries only. Fast, but proportional-like: steady-state error. */
    ADAPTIVE,
    /** Both: the adaptive step moves the budget coarsely, the integral step removes the remaining error. */
    HYBRID
  }

  public BudgetControlConfig
  {
    if (mode == null || estimator == null) {
      throw new IllegalArgumentException("budget control mode and estimator must be set");
    }
    // The Broker's druid.getafix.quality.* knobs of the same meaning hold these ranges; here in budget units.
    QualityKnobs.TARGET_RESPONSE_TIME_MS.interval().check("targetMillis", targetMillis);
    QualityKnobs.MIN_BUDGET_MS.interval().check("minBudget", minBudget);
    QualityKnobs.MAX_BUDGET_MS.interval().check("maxBudget", maxBudget);
    final String budgetBounds = Knob.belowOther("maxBudget", maxBudget, "minBudget", minBudget);
    if (budgetBounds != null) {
      throw new IllegalArgumentException(budgetBounds);
    }
    if (!(initialBudget >= minBudget && initialBudget <= maxBudget)) {
      throw new IllegalArgumentException(
          "initialBudget [" + initialBudget + "] must be within [" + minBudget + ", " + maxBudget + "]"
      );
    }
    if (!(Double.isFinite(integralGain) && integralGain >= 0)) {
      throw new IllegalArgumentException("integralGain must be a finite number >= 0, got [" + integralGain + "]");
    }
    if (adaptivePeriod < 1) {
      throw new IllegalArgumentException("adaptivePeriod must be >= 1, got [" + adaptivePeriod + "]");
    }
    if (modelOrder < 2) {
      throw new IllegalArgumentException("modelOrder must be >= 2, got [" + modelOrder + "]");
    }
    if (!(responseCeiling == 0 || (Double.isFinite(responseCeiling) && responseCeiling >= 1))) {
      throw new IllegalArgumentException("responseCeiling must be 0 (off) or a finite number >= 1, got [" + responseCeiling + "]");
    }
    requirePositive("trackingWeight", trackingWeight);
    requirePositive("changeWeight", changeWeight);
    // The estimators validate alpha, window and percentile with their own messages.
    new EwmaResponseTime(ewmaAlpha);
    new WindowPercentileResponseTime(percentileWindow, percentile);
  }

  /** The paper's defaults for {@code mode}, with the budget starting at {@code initialBudget}. */
  public static BudgetControlConfig of(
      Mode mode,
      ResponseTimeEstimator.Kind estimator,
      double targetMillis,
      double minBudget,
      double maxBudget,
      double initialBudget
  )
  {
    return new BudgetControlConfig(
        mode,
        estimator,
        targetMillis,
        minBudget,
        maxBudget,
        initialBudget,
        estimator == ResponseTimeEstimator.Kind.P90 ? DEFAULT_P90_INTEGRAL_GAIN : DEFAULT_INTEGRAL_GAIN,
        DEFAULT_ADAPTIVE_PERIOD,
        DEFAULT_MODEL_ORDER,
        DEFAULT_LQ_WEIGHT,
        DEFAULT_LQ_WEIGHT,
        EwmaResponseTime.DEFAULT_ALPHA,
        WindowPercentileResponseTime.DEFAULT_WINDOW,
        WindowPercentileResponseTime.DEFAULT_PERCENTILE,
        0
    );
  }

  public BudgetControlConfig withIntegralGain(double gain)
  {
    return new BudgetControlConfig(mode, estimator, targetMillis, minBudget, maxBudget, initialBudget, gain,
                                   adaptivePeriod, modelOrder, trackingWeight, changeWeight, ewmaAlpha,
                                   percentileWindow, percentile, responseCeiling);
  }

  /** With the budget bounded by {@code factor} times the slowest recent response ({@link #responseCeiling}). */
  public BudgetControlConfig withResponseCeiling(double factor)
  {
    return new BudgetControlConfig(mode, estimator, targetMillis, minBudget, maxBudget, initialBudget, integralGain,
                                   adaptivePeriod, modelOrder, trackingWeight, changeWeight, ewmaAlpha,
                                   percentileWindow, percentile, factor);
  }

  ResponseTimeEstimator newEstimator()
  {
    return estimator == ResponseTimeEstimator.Kind.MEAN
           ? new EwmaResponseTime(ewmaAlpha)
           : new WindowPercentileResponseTime(percentileWindow, percentile);
  }

  private static void requirePositive(String what, double value)
  {
    if (!(Double.isFinite(value) && value > 0)) {
      throw new IllegalArgumentException(what + " must be a finite number > 0, got [" + value + "]");
    }
  }
}
