package org.getafix.simulator.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * One run's figures of redundant sub-queries (docs/scenarios.md, "Redundant sub-queries"). A sub-query is one
 * segment's share of a query; its latency runs from its first dispatch to its first answer, whichever copy gives it.
 * Window figures count the sub-queries dispatched in the measured window.
 *
 * @param mode                  none, hedge, spare, zoolander or duplicate
 * @param sloMillis             τ, the latency bound
 * @param subQueries            sub-queries dispatched
 * @param extraSubQueries       copies sent beyond one per sub-query (up front or as hedges)
 * @param extraShare            extraSubQueries / subQueries: the load redundancy adds
 * @param subQueriesWithinSlo   measured share of sub-queries answered within τ
 * @param queriesOverSlo        share of queries answered later than τ: the SLO violations (a query is within τ when
 *                              all its sub-queries are, since they are dispatched at its arrival)
 * @param predictedWithinSlo    Zoolander's predicted share of sub-queries within τ, averaged over the sub-queries
 *                              (the model's ŝ for the copies it chose); null for the other modes
 * @param meanReplicationFactor sPARE's replication factor r averaged over the periods; null for the other modes
 * @param periods               the same per period over the whole run, warm-up included: what the policy chose as
 *                              the load changed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RedundancyResult(
    String mode,
    double sloMillis,
    long subQueries,
    long extraSubQueries,
    double extraShare,
    double subQueriesWithinSlo,
    double queriesOverSlo,
    Double predictedWithinSlo,
    Double meanReplicationFactor,
    List<Period> periods
)
{
  /**
   * @param startSeconds         when the period began
   * @param subQueriesPerSecond  sub-queries dispatched per second
   * @param extraShare           copies beyond one per sub-query, over the sub-queries
   * @param withinSlo            share of the sub-queries answered in the period that took at most τ
   * @param predictedWithinSlo   Zoolander's mean ŝ over the period's sub-queries; null for the other modes
   * @param modelUtilisation     Zoolander: the mean over nodes of ρ = λ·E[S] / c as its model sees it at the end
   *                             of the period; null for the other modes
   * @param replicationFactor    sPARE: r after the period's search step; null for the other modes
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Period(
      double startSeconds,
      double subQueriesPerSecond,
      double extraShare,
      double withinSlo,
      Double predictedWithinSlo,
      Double modelUtilisation,
      Double replicationFactor
  )
  {
  }
}
