package org.getafix.simulator.cluster;

import org.getafix.simulator.workload.QueryType;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** One client query in flight: done when the last of its per-segment tasks is done. */
public final class Query
{
  final int client;
  final QueryType type;
  final double arrivalTime;
  final List<Task> tasks = new ArrayList<>();
  /** Nodes asked for a part of this query so far: each pays its per query work once. */
  final BitSet nodesAsked = new BitSet();
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

  /** Per-segment tasks dispatched. */
  public int taskCount()
  {
    return tasks.size();
  }

  /** Share of its tasks done: what a partial answer taken now covers (1 for a query without tasks). */
  public double completedFraction()
  {
    return tasks.isEmpty() ? 1 : (double) (tasks.size() - remainingTasks) / tasks.size();
  }
}
