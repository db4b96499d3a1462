package org.getafix.simulator.cluster;

import org.getafix.core.placement.plan.PlacementPlan;

/**
 * How a broker picks the replica holder that runs one segment's task of a query. It lives with the cluster that
 * calls it, so that the policies ({@code routing}) depend on the cluster and not the other way round.
 */
public interface RoutingPolicy
{
  String name();

  /** The Coordinator published a new plan (a new routing table). */
  default void onPlan(PlacementPlan plan)
  {
  }

  /**
   * A Historical reported its queue, as the Broker extension polls it once per round: tasks waiting for a core
   * per core (the glue's "waiting work per processing thread").
   */
  default void onQueueReport(int node, double queuedPerCore)
  {
  }

  /** A task routed by {@code broker} to {@code node} answered {@code responseSeconds} after it was sent. */
  default void onResponse(int broker, int node, double responseSeconds)
  {
  }

  /**
   * @param broker  the broker routing the task (each client has its own)
   * @param segment a segment with at least one loaded replica
   * @return the index of a node in {@code segment.loadedHolders()}
   */
  int choose(int broker, Segment segment, BrokerView view);

  /** What a broker knows locally: its own open requests per node, as Druid's connectionCount does. */
  interface BrokerView
  {
    int openRequests(int broker, int node);
  }
}
