package org.getafix.core.quality.control;

/**
 * The model estimator of the adaptive controller (budget paper §3.1.2): response time ≈ slope·budget + intercept,
 * fitted by least squares on the last N control-interval points (mean budget, response-time statistic). At N = 10
 * the 2-parameter fit has a closed form, so no matrix library is needed. Two guards the paper leaves implicit:
 * <ul>
 *   <li>In steady state the budget barely moves and the slope is unidentifiable, so the fit is regularised towards
 *   the previous slope (ridge), with the weight of a 5% budget spread at every point: real budget variation
 *   overrides it, noise at a fixed budget does not.</li>
 *   <li>Response time cannot fall when the budget grows; a fit with slope ≤ 0 keeps the previous slope.</li>
 *   <li>A load change moves the whole line: a point more than 25% off the fitted line would, mixed with the old
 *   points, fit a nonsense slope. Such a point clears the window (the old slope stays as the prior), so the model
 *   relearns from the new regime within a few intervals; this is the change detection that a forgetting factor
 *   does slowly in a textbook RLS.</li>
 * </ul>
 * The first slope, before the model has seen variation, assumes response time proportional to budget. Not
 * thread-safe.
 */
final class LinearBudgetModel
{
  private static final double PRIOR_SPREAD = 0.05;
  private static final double BREAK_RESIDUAL = 0.25;

  private final double[] budgets;
  private final double[] responses;
  private int size;
  private int next;
  private double slope = Double.NaN;

  LinearBudgetModel(int order)
  {
    this.budgets = new double[order];
    this.responses = new double[order];
  }

  void add(double budget, double response)
  {
    if (size > 0 && isBreak(budget, response)) {
      size = 0;
      next = 0;
    }
    budgets[next] = budget;
    responses[next] = response;
    next = (next + 1) % budgets.length;
    size = Math.min(size + 1, budgets.length);
    refit(budget, response);
  }

  /** Response-time units per budget unit, &gt; 0; NaN before the first point. */
  double slope()
  {
    return slope;
  }

  private boolean isBreak(double budget, double response)
  {
    double budgetMean = 0;
    double responseMean = 0;
    for (int i = 0; i < size; i++) {
      budgetMean += budgets[i];
      responseMean += responses[i];
    }
    final double predicted = responseMean / size + slope * (budget - budgetMean / size);
    return Math.abs(response - predicted) > BREAK_RESIDUAL * Math.max(Math.abs(predicted), Math.abs(response));
  }

  private void refit(double lastBudget, double lastResponse)
  {
    final double prior = Double.isNaN(slope) ? lastResponse / lastBudget : slope;
    double budgetMean = 0;
    double responseMean = 0;
    for (int i = 0; i < size; i++) {
      budgetMean += budgets[i];
      responseMean += responses[i];
    }
    budgetMean /= size;
    responseMean /= size;
    double suu = 0;
    double suy = 0;
    for (int i = 0; i < size; i++) {
      suu += (budgets[i] - budgetMean) * (budgets[i] - budgetMean);
      suy += (budgets[i] - budgetMean) * (responses[i] - responseMean);
    }
    final double ridge = size * Math.pow(PRIOR_SPREAD * budgetMean, 2);
    final double fitted = (suy + ridge * prior) / (suu + ridge);
    if (fitted > 0 && Double.isFinite(fitted)) {
      slope = fitted;
    } else if (prior > 0 && Double.isFinite(prior)) {
      slope = prior;
    }
  }
}
