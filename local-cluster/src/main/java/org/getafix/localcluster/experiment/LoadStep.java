package org.getafix.localcluster.experiment;

import java.util.List;

/**
 * One offered load of a sweep, over the queries that arrived in its measured window. Quality is counted over every
 * query offered, as the simulator counts it: an answer its quality as measured against the whole answer when its
 * request measured it ({@link LaningWorkload#CONCAVE}), else a whole answer 1 and a partial one its answered share of
 * the segments (for the hourly timeseries, exactly the quality a mature run would measure: a missing hour is a
 * missing bucket); a query the Broker turned away (HTTP 429) or failed 0. Response times are of the answered queries: a query turned
 * away returns in milliseconds, and counting it would rate the setup that turns away more as the faster.
 *
 * @param offeredPerSecond  queries sent per second
 * @param loadFactor        that rate over the sweep's reference rate
 * @param offered           queries that arrived in the window
 * @param answered          of them, answered (HTTP 200), whole or partially
 * @param rejected          turned away with HTTP 429 (Druid's lane full)
 * @param failed            failed otherwise
 * @param partial           answered partially (coverage below 1)
 * @param meanMillis        mean response time of the answered; NaN if none
 * @param p99Millis         their 99th percentile (nearest rank); NaN if none
 * @param meanQuality       mean quality over the offered; NaN if none arrived
 * @param answeredPerSecond answered queries per second of the window: the throughput
 * @param budgetMillis      the budget controller's budget at the end of the step; NaN without one
 * @param splitPerQuery     budgeted sub-queries the Broker split into parts ({@code subQueriesSplit}) per budgeted
 *                          query over the whole step, settling included; NaN without a budget
 */
public record LoadStep(
    double offeredPerSecond,
    double loadFactor,
    int offered,
    int answered,
    int rejected,
    int failed,
    int partial,
    double meanMillis,
    double p99Millis,
    double meanQuality,
    double answeredPerSecond,
    double budgetMillis,
    double splitPerQuery
)
{
  /** Druid's answer to a query its lane has no room for ({@code QueryCapacityExceededException}). */
  public static final int REJECTED = 429;
  private static final int OK = 200;

  /**
   * The step over the {@code outcomes} that started in [{@code fromMillis}, {@code toMillis}) of their load's run: a
   * query's start is its completion less its response time.
   */
  public static LoadStep of(
      double offeredPerSecond,
      double loadFactor,
      List<BudgetLoad.Outcome> outcomes,
      long fromMillis,
      long toMillis,
      double budgetMillis,
      double splitPerQuery
  )
  {
    final List<BudgetLoad.Outcome> window = outcomes.stream()
                                                    .filter(o -> o.endMillis() - o.millis() >= fromMillis
                                                                 && o.endMillis() - o.millis() < toMillis)
                                                    .toList();
    final double[] millis = window.stream()
                                  .filter(o -> o.status() == OK)
                                  .mapToDouble(BudgetLoad.Outcome::millis)
                                  .sorted()
                                  .toArray();
    final int rejected = (int) window.stream().filter(o -> o.status() == REJECTED).count();
    return new LoadStep(
        offeredPerSecond,
        loadFactor,
        window.size(),
        millis.length,
        rejected,
        window.size() - millis.length - rejected,
        (int) window.stream().filter(o -> o.status() == OK && o.answeredShare() < 1).count(),
        BudgetExperiment.mean(millis),
        BudgetExperiment.p99(millis),
        window.stream().mapToDouble(LoadStep::quality).average().orElse(Double.NaN),
        millis.length * 1000.0 / (toMillis - fromMillis),
        budgetMillis,
        splitPerQuery
    );
  }

  /**
   * No answer 0; an answer its measured quality if it has one, else by its coverage: whole 1 (an answer without
   * coverage is whole), partial its answered share.
   */
  static double quality(BudgetLoad.Outcome outcome)
  {
    if (outcome.status() != OK) {
      return 0;
    }
    if (Double.isFinite(outcome.quality())) {
      return outcome.quality();
    }
    return Double.isFinite(outcome.answeredShare()) ? outcome.answeredShare() : 1;
  }
}
