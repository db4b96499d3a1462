package org.getafix.localcluster.workload;

import java.util.List;
import java.util.Map;

/**
 * One query of the workload: its kind, the hours it reads ({@code [fromHour, toHourExclusive)} of the dataset) as
 * ISO-8601 intervals, and the native query JSON (as a Map) sent to the Broker.
 */
public record WorkloadQuery(QueryKind kind, int fromHour, int toHourExclusive, List<String> intervals, Map<String, Object> query)
{
}
