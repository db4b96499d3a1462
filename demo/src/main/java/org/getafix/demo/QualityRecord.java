package org.getafix.demo;

import java.util.List;

/**
 * What the quality monitor did in a druid-getafix phase: the budget the workload's queries carried and the mature
 * runs the Broker sampled among the measured ones (read from {@code GET /druid/broker/v1/getafix/quality}). The
 * coverage of each measured query is in {@link PhaseRecord#timeline()}.
 *
 * @param budgetMs           {@code getafixBudgetMs} of every query of the phase
 * @param budgetSource       how the budget was chosen, in words
 * @param matureSampleRate   the Broker's {@code druid.getafix.quality.matureSampleRate}
 * @param matureQualities    measured quality of each completed mature run of a measured query
 * @param matureRunsFailed   mature runs that failed, whole phase (warm-up included)
 * @param matureRunsSkipped  sampled queries that got no mature run (too many in flight), whole phase
 * @param hedged             whether the queries also asked for hedged sub-queries ({@code getafixHedge})
 * @param hedgesSent         hedge sub-queries sent, whole phase
 * @param hedgesWon          hedge sub-queries whose answer was used, whole phase
 */
public record QualityRecord(
    long budgetMs,
    String budgetSource,
    double matureSampleRate,
    List<Double> matureQualities,
    long matureRunsFailed,
    long matureRunsSkipped,
    boolean hedged,
    long hedgesSent,
    long hedgesWon
)
{
  public QualityRecord
  {
    matureQualities = List.copyOf(matureQualities);
  }
}
