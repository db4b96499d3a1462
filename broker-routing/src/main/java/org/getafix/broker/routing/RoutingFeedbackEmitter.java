package org.getafix.broker.routing;

import org.apache.druid.java.util.emitter.core.Emitter;
import org.apache.druid.java.util.emitter.core.Event;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.getafix.core.routing.NodeFeedback;

/**
 * Feeds the Broker's per-server response times into {@link NodeFeedback}: one of the emitters of
 * {@code druid.emitter=composing}, named {@value #TYPE}.
 *
 * <p>Why an emitter rather than timing the {@code DirectDruidClient}: that client already measures each request to
 * a data server from send to last byte and emits it as {@code query/node/time} with dimension {@code server}. The
 * clients are created by Druid's {@code BrokerServerView} through a core binding, which an extension cannot wrap
 * without overriding Druid's own module. Listening to the metric needs no change to the query path. {@link #emit} runs
 * on HTTP client threads, so it only compares a string and does a lock-free EWMA update; it never blocks or throws.
 */
public final class RoutingFeedbackEmitter implements Emitter
{
  public static final String TYPE = "getafixRouting";

  private final NodeFeedback feedback;
  private final String latencyMetric;

  public RoutingFeedbackEmitter(NodeFeedback feedback, String latencyMetric)
  {
    this.feedback = feedback;
    this.latencyMetric = latencyMetric;
  }

  @Override
  public void start()
  {
  }

  @Override
  public void emit(Event event)
  {
    if (event instanceof ServiceMetricEvent metricEvent && latencyMetric.equals(metricEvent.getMetric())) {
      final Object server = metricEvent.getUserDims().get("server");
      final Number millis = metricEvent.getValue();
      if (server != null && millis != null) {
        feedback.recordLatency(server.toString(), millis.doubleValue(), System.nanoTime());
      }
    }
  }

  @Override
  public void flush()
  {
  }

  @Override
  public void close()
  {
  }
}
