package org.getafix.localcluster.experiment;

import java.util.List;

/**
 * The online queries of some phases of a run as their clients saw them: response times of the answered ones and
 * their coverage. For {@link BudgetExperiment}'s hourly timeseries an answer's coverage is its quality (a missing hour
 * is a missing bucket), so the mean coverage of a run's answers is their true mean quality.
 *
 * @param queries      queries sent
 * @param answered     of them, answered (HTTP 200), whole or partially
 * @param partial      answered with coverage below 1
 * @param meanMillis   mean response time of the answered; NaN if none
 * @param p99Millis    their 99th percentile (nearest rank); NaN if none
 * @param meanCoverage mean answered share of segments over the answers that carry a coverage; NaN if none does
 */
public record OnlineFigures(
    int queries,
    int answered,
    int partial,
    double meanMillis,
    double p99Millis,
    double meanCoverage
)
{
  private static final int OK = 200;

  public static OnlineFigures of(List<BudgetLoad.Outcome> outcomes)
  {
    final List<BudgetLoad.Outcome> answered = outcomes.stream().filter(o -> o.status() == OK).toList();
    final double[] millis = answered.stream().mapToDouble(BudgetLoad.Outcome::millis).sorted().toArray();
    return new OnlineFigures(
        outcomes.size(),
        answered.size(),
        (int) answered.stream().filter(o -> o.answeredShare() < 1).count(),
        BudgetExperiment.mean(millis),
        BudgetExperiment.p99(millis),
        answered.stream()
                .mapToDouble(BudgetLoad.Outcome::answeredShare)
                .filter(Double::isFinite)
                .average()
                .orElse(Double.NaN)
    );
  }

  /** Queries not answered with HTTP 200. */
  public int failed()
  {
    return queries - answered;
  }
}
