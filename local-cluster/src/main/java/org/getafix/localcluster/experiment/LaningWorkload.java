package org.getafix.localcluster.experiment;

import org.getafix.localcluster.client.NativeQuery;
import org.getafix.localcluster.workload.SyntheticDataset;

import java.util.List;
import java.util.Map;

/**
 * The queries of {@link LaningExperiment}, both over 10 to all of the dataset's hours ({@link BudgetExperiment#hours}),
 * and how the quality of their answers is known. Their quality profiles differ: what share of the whole answer's value
 * a partial answer has, against the share of the segments it read.
 */
public enum LaningWorkload
{
  /**
   * {@link BudgetExperiment}'s hourly timeseries with a cardinality aggregator over every row. A partial answer lacks
   * the hours it did not read, so its quality is its answered share of the segments: a linear profile, what a mature
   * run would measure (a missing hour is a missing bucket), known from the coverage without a whole answer.
   */
  HOURLY,
  /**
   * One bucket over the whole interval (granularity {@code all}): the mean {@code added} per row and the distinct
   * {@code user}s. The synthetic data draws every row alike in every hour ({@link SyntheticDataset}: {@code added}
   * uniform in [0, 1000), {@code user} uniform over 50,000), so a mean from a few of the hours is within a percent of
   * the whole, and the distinct users saturate once some tens of hours of rows were read: a concave profile by the
   * data's construction, where part of the work gives most of the answer. A partial answer's quality is measured
   * against the whole answer of the same query ({@link PlainAggregateQuality}); the workload has only
   * {@link #distinctQueries} queries, so that their whole answers can be fetched once on the idle cluster.
   */
  CONCAVE;

  /** The workload's query {@code i}, without a context. */
  public Map<String, Object> query(SyntheticDataset dataset, long i)
  {
    return switch (this) {
      case HOURLY -> BudgetExperiment.sizedQuery(dataset, i);
      case CONCAVE -> NativeQuery.timeseries(dataset.dataSource(), List.of(BudgetExperiment.sizedInterval(
                                     dataset, firstAlike(dataset, i))))
                                 .granularity("all")
                                 .doubleMean("meanAdded", "added")
                                 .cardinality("users", List.of("user"), false)
                                 .toMap();
    };
  }

  /** Whether an answer's quality is measured against the whole answer rather than read from its coverage. */
  public boolean measuresAnswers()
  {
    return this == CONCAVE;
  }

  /**
   * How many queries {@link #CONCAVE} cycles through: one per size of {@link BudgetExperiment#hours}, each read from
   * the offset {@link BudgetExperiment#sizedInterval} gives it. Query {@code i} is query {@code i} modulo this.
   */
  public static int distinctQueries(SyntheticDataset dataset)
  {
    return BudgetExperiment.sizes(dataset);
  }

  /** The first query of those {@code i} is alike to: {@link #CONCAVE} cycles, {@link #HOURLY} does not. */
  public long firstAlike(SyntheticDataset dataset, long i)
  {
    return this == CONCAVE ? i % distinctQueries(dataset) : i;
  }

  /** How a partial answer's quality is counted, for reports. */
  public String qualityInWords()
  {
    return this == CONCAVE
           ? "a partial one its measured quality against the whole answer of the same query (1 - the mean relative "
             + "error of its mean and its distinct count)"
           : "a partial one its answered share of the hours";
  }

  /** The queries in words, for reports. */
  public String queriesInWords()
  {
    return this == CONCAVE
           ? "one-bucket timeseries (granularity all) of the mean added and the distinct users"
           : "hourly timeseries with a cardinality aggregator over every row";
  }
}
