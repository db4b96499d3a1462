package org.getafix.simulator.cluster;

import org.getafix.simulator.workload.QueryType;

/** One client query in flight: done when the last of its per-segment tasks is done. */
public final class Query
{
  final int client;
  final QueryType type;
  final double arrivalTime;
  int remainingTasks;

  public Query(int client, QueryType type, double arrivalTime)
  {
    this.client = client;
    this.type = type;
    this.arrivalTime = arrivalTime;
  }

  public QueryType type()
  {
    return type;
  }

  public double arrivalTime()
  {
    return arrivalTime;
  }
}
