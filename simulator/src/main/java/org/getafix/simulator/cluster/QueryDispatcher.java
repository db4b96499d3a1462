package org.getafix.simulator.cluster;

import org.getafix.simulator.engine.EventLoop;

/**
 * Runs queries: routes each per-segment task to a holder with the brokers' {@link RoutingPolicy}, keeps each
 * broker's open requests per node (what Druid's connectionCount sees), and tells the listener when a query's last
 * task is done. With a {@link RedundancyPolicy}, a segment's share may run as a {@link Race} of copies on several
 * holders: the first copy to finish answers it and the others are cancelled.
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
  /** Null for none: every share runs once, on the holder routing chose. */
  private RedundancyPolicy redundancy;

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

  /** See {@link Cluster#setRedundancy}. */
  void setRedundancy(RedundancyPolicy redundancy)
  {
    this.redundancy = redundancy;
  }

  void dispatch(Query query, Segment segment, double work, int broker)
  {
    if (redundancy == null) {
      final int node = routing.choose(broker, segment, this);
      segment.accessesTotal++;
      query.remainingTasks++;
      query.tasks.add(submit(query, segment, work, node, null, false));
      return;
    }
    final RedundancyPolicy.Placement placement = redundancy.place(segment, () -> routing.choose(broker, segment, this));
    segment.accessesTotal++;
    query.remainingTasks++;
    final Race race = new Race(loop.now());
    for (int node : placement.nodes()) {
      submit(query, segment, work, node, race, placement.tokens());
    }
    final Task primary = race.copies.get(0);
    query.tasks.add(primary);
    final double hedgeAfter = redundancy.hedgeAfterSeconds(segment, primary.node);
    if (hedgeAfter < Double.POSITIVE_INFINITY) {
      loop.scheduleAfter(hedgeAfter, () -> hedge(primary));
    }
  }

  /** Sends one copy of a segment's share to {@code node}. */
  private Task submit(Query query, Segment segment, double work, int node, Race race, boolean token)
  {
    open[query.client][node]++;
    segment.inFlight++;
    if (segment.inFlight > segment.peakInFlightThisRound) {
      segment.peakInFlightThisRound = segment.inFlight;
    }
    // Access time is charged when the task arrives, not when it finishes: a saturated holder finishes at most its
    // own capacity per round, so counting finished work would hide exactly the demand that needs more replicas.
    // In steady state both counts agree. A redundant copy is charged too: it is load the holder really takes.
    // A node pays its per query work once per query, with the query's first task there. The Coordinator cannot see
    // which scan it came with and shares it over all the node's scans (MeasuredRound); charging it to the first
    // segment is the same on average over the queries.
    final double overhead = query.nodesAsked.get(node) ? 0 : queryOverheadSeconds;
    query.nodesAsked.set(node);
    segment.accessTimeThisRound += (work + overhead) / nodes[node].speedAt(loop.now());
    final Task task = new Task(query, segment, node, work, overhead, loop.now());
    if (race != null) {
      task.race = race;
      task.token = token;
      race.copies.add(task);
    }
    nodes[node].submit(task);
    return task;
  }

  /** The hedge point of {@code primary}'s share: re-sends it if no copy has answered and the policy names a holder. */
  private void hedge(Task primary)
  {
    if (primary.over) {
      return;
    }
    final int node = redundancy.hedgeTo(primary.segment, primary.node);
    if (node >= 0) {
      submit(primary.query, primary.segment, primary.work, node, primary.race, false).hedge = true;
    }
  }

  /** Cancels the tasks of {@code query} not done yet; the listener is not told (the query is answered already). */
  void cancel(Query query)
  {
    for (Task task : query.tasks) {
      if (task.race == null) {
        if (cancel(task)) {
          query.remainingTasks--;
        }
      } else if (!task.race.won) {
        boolean pending = false;
        for (Task copy : task.race.copies) {
          pending |= cancel(copy);
        }
        if (pending) {
          query.remainingTasks--;
        }
      }
    }
  }

  /** Cancels one copy; whether it was still queued or running. */
  private boolean cancel(Task task)
  {
    if (!nodes[task.node].cancel(task)) {
      return false;
    }
    open[task.query.client][task.node]--;
    task.segment.inFlight--;
    if (task.race != null) {
      redundancy.onCancelled(task.node, task.token, loop.now() - task.enqueuedAt);
    }
    return true;
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
    final Race race = task.race;
    if (race != null) {
      race.won = true;
      if (task.hedge) {
        redundancy.onHedgeWon();
      }
      for (Task copy : race.copies) {
        if (copy != task) {
          cancel(copy);
        }
      }
      redundancy.onAnswer(
          task.node,
          task.token,
          loop.now() - task.enqueuedAt,
          serviceSeconds,
          loop.now() - race.dispatchedAt,
          race.dispatchedAt
      );
    }
    if (--task.query.remainingTasks == 0) {
      if (redundancy != null) {
        redundancy.onQueryDone(loop.now() - task.query.arrivalTime);
      }
      queryListener.onQueryDone(task.query, loop.now());
    }
  }
}
