package org.getafix.simulator.cluster;

import org.getafix.simulator.engine.EventLoop;

/**
 * Runs queries: routes each per-segment task to a holder with the brokers' {@link RoutingPolicy}, keeps each
 * broker's open requests per node (what Druid's connectionCount sees), and tells the listener when a query's last
 * task is done.
 */
final class QueryDispatcher implements Historical.TaskListener, RoutingPolicy.BrokerView
{
  private final EventLoop loop;
  private final Historical[] nodes;
  private final RoutingPolicy routing;
  private final int[][] open;
  private Cluster.QueryListener queryListener = (q, t) -> {
  };
  private double queryOverheadSeconds;

  /** {@code nodes} may still be filled in: the Historicals report their finished tasks to this dispatcher. */
  QueryDispatcher(EventLoop loop, Historical[] nodes, int brokers, RoutingPolicy routing)
  {
    this.loop = loop;
    this.nodes = nodes;
    this.routing = routing;
    this.open = new int[brokers][nodes.length];
  }

  void setQueryListener(Cluster.QueryListener listener)
  {
    this.queryListener = listener;
  }

  /** See {@link Cluster#setQueryOverhead}. */
  void setQueryOverhead(double seconds)
  {
    this.queryOverheadSeconds = seconds;
  }

  void dispatch(Query query, Segment segment, double work, int broker)
  {
    final int node = routing.choose(broker, segment, this);
    open[broker][node]++;
    segment.inFlight++;
    segment.accessesTotal++;
    if (segment.inFlight > segment.peakInFlightThisRound) {
      segment.peakInFlightThisRound = segment.inFlight;
    }
    query.remainingTasks++;
    // Access time is charged when the task arrives, not when it finishes: a saturated holder finishes at most its
    // own capacity per round, so counting finished work would hide exactly the demand that needs more replicas.
    // In steady state both counts agree.
    // A node pays its per query work once per query, with the query's first task there. The Coordinator cannot see
    // which scan it came with and shares it over all the node's scans (MeasuredRound); charging it to the first
    // segment is the same on average over the queries.
    final double overhead = query.nodesAsked.get(node) ? 0 : queryOverheadSeconds;
    query.nodesAsked.set(node);
    segment.accessTimeThisRound += (work + overhead) / nodes[node].speedAt(loop.now());
    final Task task = new Task(query, segment, node, work, overhead, loop.now());
    query.tasks.add(task);
    nodes[node].submit(task);
  }

  /** Cancels the tasks of {@code query} not done yet; the listener is not told (the query is answered already). */
  void cancel(Query query)
  {
    for (Task task : query.tasks) {
      if (nodes[task.node].cancel(task)) {
        open[query.client][task.node]--;
        task.segment.inFlight--;
        query.remainingTasks--;
      }
    }
  }

  @Override
  public int openRequests(int broker, int node)
  {
    return open[broker][node];
  }

  @Override
  public void onTaskDone(Task task, double serviceSeconds)
  {
    open[task.query.client][task.node]--;
    routing.onResponse(task.query.client, task.node, loop.now() - task.enqueuedAt);
    task.segment.inFlight--;
    if (--task.query.remainingTasks == 0) {
      queryListener.onQueryDone(task.query, loop.now());
    }
  }
}
