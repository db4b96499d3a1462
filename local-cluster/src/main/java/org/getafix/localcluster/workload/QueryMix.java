package org.getafix.localcluster.workload;

import org.getafix.localcluster.client.NativeQuery;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A skewed, recency-biased mix of timeseries, topN and groupBy queries over a {@link SyntheticDataset}, in the spirit
 * of dashboards: most queries look at the last hours, and the hour a query ends at is drawn from an exponential
 * distribution measured back from the newest hour (so a few recent segments are hot, old ones cold).
 *
 * @param dataset              what is queried
 * @param recencyMeanHours     mean distance (hours) of a query's last hour from the newest hour
 * @param timeseriesWeight     relative frequency of timeseries queries
 * @param topNWeight           relative frequency of topN queries
 * @param groupByWeight        relative frequency of groupBy queries
 * @param filterProbability    probability that a query filters on one (popular) country
 */
public record QueryMix(
    SyntheticDataset dataset,
    double recencyMeanHours,
    double timeseriesWeight,
    double topNWeight,
    double groupByWeight,
    double filterProbability
)
{
  /** Query lengths in hours and their probabilities: short queries dominate. */
  private static final int[] LENGTHS = {1, 3, 6, 12, 24};
  private static final double[] LENGTH_CUMULATIVE = {0.30, 0.55, 0.75, 0.90, 1.0};
  private static final AtomicLong QUERY_IDS = new AtomicLong();

  public QueryMix
  {
    if (!(recencyMeanHours > 0) || Double.isInfinite(recencyMeanHours)) {
      throw new IllegalArgumentException("recencyMeanHours must be a positive number, got " + recencyMeanHours);
    }
    for (double w : new double[]{timeseriesWeight, topNWeight, groupByWeight}) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("query weights must be finite and >= 0, got " + w);
      }
    }
    if (timeseriesWeight + topNWeight + groupByWeight <= 0) {
      throw new IllegalArgumentException("at least one query weight must be positive");
    }
    if (!(filterProbability >= 0 && filterProbability <= 1)) {
      throw new IllegalArgumentException("filterProbability must be in [0, 1], got " + filterProbability);
    }
  }

  /**
   * 50% timeseries, 30% topN, 20% groupBy; queries end on average 12 hours before the newest hour; a third filter.
   */
  public static QueryMix defaultMix(SyntheticDataset dataset)
  {
    return new QueryMix(dataset, 12, 0.5, 0.3, 0.2, 0.33);
  }

  public WorkloadQuery next(SplittableRandom random)
  {
    final int hours = dataset.hours();
    final int back = (int) Math.min(hours - 1, Math.floor(-Math.log(1 - random.nextDouble()) * recencyMeanHours));
    final int toHour = hours - back;
    final int fromHour = Math.max(0, toHour - length(random));
    final List<String> intervals = List.of(dataset.interval(fromHour, toHour));
    final QueryKind kind = kind(random);
    final NativeQuery query = switch (kind) {
      case TIMESERIES -> NativeQuery.timeseries(dataset.dataSource(), intervals).granularity("hour");
      case TOPN -> NativeQuery.topN(dataset.dataSource(), intervals)
                              .granularity("all")
                              .dimension("page")
                              .metric("added")
                              .threshold(10);
      case GROUP_BY -> NativeQuery.groupBy(dataset.dataSource(), intervals)
                                  .granularity("all")
                                  .dimensions("country", "page")
                                  .limitDescendingNumeric(20, "added");
    };
    if (random.nextDouble() < filterProbability) {
      query.selectorFilter("country", "c" + random.nextInt(3));
    }
    query.longSum("rows", "count")
         .longSum("added", "added")
         .doubleSum("delta", "delta")
         .context("queryId", "getafix-workload-" + QUERY_IDS.incrementAndGet())
         .context("useCache", false)
         .context("populateCache", false)
         .context("useResultLevelCache", false)
         .context("populateResultLevelCache", false)
         .context("timeout", 120_000);
    return new WorkloadQuery(kind, fromHour, toHour, intervals, query.toMap());
  }

  private static int length(SplittableRandom random)
  {
    final double u = random.nextDouble();
    for (int i = 0; i < LENGTHS.length; i++) {
      if (u < LENGTH_CUMULATIVE[i]) {
        return LENGTHS[i];
      }
    }
    return LENGTHS[LENGTHS.length - 1];
  }

  private QueryKind kind(SplittableRandom random)
  {
    final double u = random.nextDouble() * (timeseriesWeight + topNWeight + groupByWeight);
    if (u < timeseriesWeight) {
      return QueryKind.TIMESERIES;
    }
    return u < timeseriesWeight + topNWeight ? QueryKind.TOPN : QueryKind.GROUP_BY;
  }
}
