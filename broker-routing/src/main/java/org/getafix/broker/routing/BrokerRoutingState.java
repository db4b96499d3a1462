package org.getafix.broker.routing;

import com.google.inject.Inject;
import org.apache.druid.guice.LazySingleton;
import org.getafix.core.routing.NodeFeedback;
import org.getafix.core.routing.RoutingCounters;
import org.getafix.core.routing.RoutingTableHolder;

/**
 * The routing state one Broker shares between its writers (the routing round, the feedback emitter) and the
 * selector strategy that reads it on query threads.
 */
@LazySingleton
public class BrokerRoutingState
{
  private final RoutingTableHolder tables = new RoutingTableHolder();
  private final RoutingCounters counters = new RoutingCounters();
  private final NodeFeedback feedback;

  @Inject
  public BrokerRoutingState(BrokerRoutingConfig config)
  {
    this.feedback = new NodeFeedback(config.getLatencyAlpha());
  }

  public RoutingTableHolder tables()
  {
    return tables;
  }

  public RoutingCounters counters()
  {
    return counters;
  }

  public NodeFeedback feedback()
  {
    return feedback;
  }
}
