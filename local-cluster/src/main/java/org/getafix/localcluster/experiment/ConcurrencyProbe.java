package org.getafix.localcluster.experiment;

import java.util.List;

/**
 * Whole answers at 1, 2, 3, ... closed-loop clients, which set the laning experiment's response-time target and tune
 * stock Druid's lane limit. A closed loop of c clients keeps exactly c queries in flight, as a lane limit of c does
 * under overload, when it is full and turns the rest away; so level c's mean response time is what a limit of c holds
 * once the load exceeds what the cluster answers.
 *
 * @param levels the levels measured, from 1 client up, one more client each
 */
public record ConcurrencyProbe(List<Level> levels)
{
  /**
   * T is this many times the mean whole answer alone: enough that a tuned limit holds a few queries at once (a limit
   * of 1 leaves stock Druid no concurrency at all), and tight enough that past the cluster's capacity neither setup
   * meets it without giving something up.
   */
  public static final double TARGET_FACTOR = 3;
  /** A limit above this is not tried: by then the Broker's connections and threads, not the limit, would bind. */
  public static final int MAX_CLIENTS = 8;

  /**
   * One level.
   *
   * @param clients    closed-loop clients
   * @param answered   answers counted (HTTP 200)
   * @param meanMillis their mean response time
   * @param p99Millis  their 99th percentile (nearest rank)
   * @param perSecond  answers per second while they were counted
   */
  public record Level(int clients, int answered, double meanMillis, double p99Millis, double perSecond)
  {
    /**
     * The level over {@code outcomes}, leaving out the first {@code skip} completions, which started before all the
     * clients were busy, and those after {@code stopMillis}, when the load stopped and the clients' last queries
     * drained.
     */
    static Level of(int clients, List<BudgetLoad.Outcome> outcomes, int skip, long stopMillis)
    {
      final List<BudgetLoad.Outcome> counted = outcomes.stream()
                                                       .filter(o -> o.index() > skip && o.endMillis() <= stopMillis)
                                                       .toList();
      final long fromMillis = outcomes.stream()
                                      .filter(o -> o.index() == skip)
                                      .mapToLong(BudgetLoad.Outcome::endMillis)
                                      .findFirst()
                                      .orElse(0);
      final double[] millis = counted.stream()
                                     .filter(o -> o.status() == 200)
                                     .mapToDouble(BudgetLoad.Outcome::millis)
                                     .sorted()
                                     .toArray();
      return new Level(
          clients,
          millis.length,
          BudgetExperiment.mean(millis),
          BudgetExperiment.p99(millis),
          stopMillis > fromMillis ? millis.length * 1000.0 / (stopMillis - fromMillis) : Double.NaN
      );
    }
  }

  public ConcurrencyProbe
  {
    levels = List.copyOf(levels);
    for (int i = 0; i < levels.size(); i++) {
      if (levels.get(i).clients() != i + 1) {
        throw new IllegalArgumentException("levels must be 1, 2, 3, ... clients, got " + levels);
      }
    }
  }

  /** T: {@link #TARGET_FACTOR} times the mean whole answer of {@code alone} (one client), rounded up to 10 ms. */
  public static long targetMillis(Level alone)
  {
    return (long) Math.ceil(TARGET_FACTOR * alone.meanMillis() / 10) * 10;
  }

  /** Whether to measure one more client: the last level met T and the next is not above {@link #MAX_CLIENTS}. */
  public boolean goOn(LoadTarget target)
  {
    return levels.isEmpty()
           || (levels.size() < MAX_CLIENTS && target.timely(levels.get(levels.size() - 1).meanMillis()));
  }

  /**
   * The tuned lane limit: the most clients at which, and at every fewer, the mean response time met T. A larger limit
   * turns fewer queries away at any load, so the best limit is the largest whose full lane still answers within T;
   * at least 1, since a lane of 0 answers nothing.
   */
  public int tunedLimit(LoadTarget target)
  {
    int limit = 0;
    while (limit < levels.size() && target.timely(levels.get(limit).meanMillis())) {
      limit++;
    }
    return Math.max(1, limit);
  }

  /** Whole answers per second at {@code clients}: the tuned limit's capacity, the load steps' unit. */
  public double perSecond(int clients)
  {
    return levels.get(clients - 1).perSecond();
  }
}
