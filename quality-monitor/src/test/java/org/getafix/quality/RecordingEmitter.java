package org.getafix.quality;

import org.apache.druid.java.util.emitter.core.Emitter;
import org.apache.druid.java.util.emitter.core.Event;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every metric event a {@link ServiceEmitter} over it emits, in order. */
final class RecordingEmitter implements Emitter
{
  final List<ServiceMetricEvent> events = new CopyOnWriteArrayList<>();

  ServiceEmitter serviceEmitter()
  {
    return new ServiceEmitter("broker", "localhost", this);
  }

  /** The values emitted for {@code metric}, in order. */
  List<Number> values(String metric)
  {
    return events.stream().filter(e -> e.getMetric().equals(metric)).map(ServiceMetricEvent::getValue).toList();
  }

  /** The user dimensions of each event of {@code metric}, in order. */
  List<Map<String, Object>> dimensions(String metric)
  {
    return events.stream().filter(e -> e.getMetric().equals(metric)).map(ServiceMetricEvent::getUserDims).toList();
  }

  @Override
  public void start()
  {
  }

  @Override
  public void emit(Event event)
  {
    if (event instanceof ServiceMetricEvent) {
      events.add((ServiceMetricEvent) event);
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
