package org.getafix.it.workload;

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
 */
public record QueryOutcome(WorkloadQuery query, Instant startedAt, long latencyNanos, boolean success, String error, int resultRows)
{
  public QueryKind kind()
  {
    return query.kind();
  }
}
