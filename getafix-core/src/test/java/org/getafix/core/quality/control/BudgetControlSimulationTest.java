package org.getafix.core.quality.control;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The controllers on a simulated plant: RT = a·budget + b + noise (σ = 10% of the target), the budget paper's 35 ms
 * target, and a 2× load step (a and b both double, so the budget that meets the target falls from 25 to 7.5) after
 * 1000 queries. A control interval is the adaptive period, 10 queries.
 */
class BudgetControlSimulationTest
{
  static final double TARGET = 35;
  static final int BEFORE_STEP = 1000;
  static final int AFTER_STEP = 1000;
  static final int INTERVAL = 10;

  /** What one run measured after the step. */
  record Run(int settlingIntervals, double steadyStateError, double budgetMean, double budgetCv)
  {
  }

  static Run simulate(BudgetControlConfig config, long seed)
  {
    final BudgetController controller = new FeedbackBudgetController(config);
    final Random random = new Random(seed);
    double a = 1;
    double b = 10;
    int lastOutside = 0;
    final WindowPercentileResponseTime steadyP90 = new WindowPercentileResponseTime(AFTER_STEP / 2, 90);
    double steadySum = 0;
    double budgetSum = 0;
    double budgetSquares = 0;
    int steadyCount = 0;
    for (int q = 0; q < BEFORE_STEP + AFTER_STEP; q++) {
      if (q == BEFORE_STEP) {
        a = 2;
        b = 20;
      }
      final double rt = Math.max(0, a * controller.budget() + b + random.nextGaussian() * 0.1 * TARGET);
      controller.onResponse(rt);
      if (q >= BEFORE_STEP) {
        final int sinceStep = q - BEFORE_STEP + 1;
        if (sinceStep % INTERVAL == 0
            && Math.abs(controller.responseTimeEstimate() - TARGET) > 0.05 * TARGET) {
          lastOutside = sinceStep / INTERVAL;
        }
        if (sinceStep > AFTER_STEP / 2) {
          steadySum += rt;
          steadyP90.record(rt);
          budgetSum += controller.budget();
          budgetSquares += controller.budget() * controller.budget();
          steadyCount++;
        }
      }
    }
    final double steady = config.estimator() == ResponseTimeEstimator.Kind.MEAN
                          ? steadySum / steadyCount
                          : steadyP90.estimate();
    final double budgetMean = budgetSum / steadyCount;
    final double budgetSd = Math.sqrt(Math.max(0, budgetSquares / steadyCount - budgetMean * budgetMean));
    return new Run(lastOutside, Math.abs(steady - TARGET) / TARGET, budgetMean, budgetSd / budgetMean);
  }

  static BudgetControlConfig config(BudgetControlConfig.Mode mode, ResponseTimeEstimator.Kind kind)
  {
    return BudgetControlConfig.of(mode, kind, TARGET, 1, 200, 50);
  }

  @Test
  void report()
  {
    for (double gain : new double[]{1, 0.2}) {
      for (BudgetControlConfig.Mode mode : BudgetControlConfig.Mode.values()) {
        for (ResponseTimeEstimator.Kind kind : ResponseTimeEstimator.Kind.values()) {
          final Run run = simulate(config(mode, kind).withIntegralGain(gain), 42);
          System.out.printf(
              "K_I=%.1f %-9s %-4s settling=%d intervals, steady-state RT error=%.2f%%, budget mean=%.2f cv=%.1f%%%n",
              gain, mode, kind, run.settlingIntervals(), 100 * run.steadyStateError(), run.budgetMean(),
              100 * run.budgetCv()
          );
        }
      }
    }
  }
}
