package org.getafix.localcluster.workload;

import org.getafix.core.wire.Coverage;

import java.time.Instant;

/**
 * What happened to one workload query.
 *
 * @param query         the query sent
 * @param startedAt     when it was sent
 * @param latencyNanos  time to the complete answer (or to the failure)
 * @param success       whether the Broker answered 2xx with a JSON array
 * @param error         the failure, null on success
 * @param resultRows    number of result rows (timeseries buckets, topN/groupBy rows); -1 on failure
 * @param coverage      what the answer covers, for a budgeted query that succeeded; null otherwise
 */
public record QueryOutcome(
    WorkloadQuery query,
    Instant startedAt,
    long latencyNanos,
    boolean success,
    String error,
    int resultRows,
    Coverage coverage
)
{
  /** An outcome of a query without a budget. */
  public QueryOutcome(WorkloadQuery query, Instant startedAt, long latencyNanos, boolean success, String error, int resultRows)
  {
    this(query, startedAt, latencyNanos, success, error, resultRows, null);
  }

  public QueryKind kind()
  {
    return query.kind();
  }
}
