package org.getafix.druid.historical;

import org.apache.druid.java.util.emitter.core.Emitter;
import org.apache.druid.java.util.emitter.core.Event;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;

/**
 * An {@link Emitter} that feeds Druid's own query metrics into a {@link QueryStatsCollector}: used as one of the
 * emitters of {@code druid.emitter=composing}, named {@value #TYPE}.
 *
 * <p>Why an emitter: {@code query/segmentAndCache/time} (ms, dimension {@code segment}), {@code query/wait/time},
 * {@code query/time} (ms, once per query) and {@code query/cpu/time} (µs, once per query per node) are already
 * measured by {@code ServerManager} and
 * {@code CPUTimeMetricQueryRunner} on every Historical. Listening to them needs no change to Druid's query path,
 * while a QueryRunner decorator or a wrapped {@code QuerySegmentWalker} would have to replace Druid's
 * {@code ServerManager} binding. {@link #emit} runs on query threads: it does a type check, a string switch and a
 * few {@code LongAdder} increments, never blocks and never throws.
 *
 * <p>Why {@code query/segmentAndCache/time} and not {@code query/segment/time}: Druid times a segment's scan inside
 * the Historical's segment cache ({@code druid.historical.cache.useCache}), so a scan answered from the cache never
 * reports {@code query/segment/time}, and a hot segment that is cached would look cold. The outer timer reports every
 * scan, cached or not, with the time it took (a cache hit's is short, as the work it cost the node). Both start when a
 * processing thread runs the scan, so neither counts the wait in the queue.
 */
public final class QueryStatsEmitter implements Emitter
{
  public static final String TYPE = "getafix";

  static final String SEGMENT_TIME = "query/segmentAndCache/time";
  static final String CPU_TIME = "query/cpu/time";
  static final String WAIT_TIME = "query/wait/time";
  static final String QUERY_TIME = "query/time";

  private final QueryStatsCollector collector;

  public QueryStatsEmitter(QueryStatsCollector collector)
  {
    this.collector = collector;
  }

  @Override
  public void start()
  {
  }

  @Override
  public void emit(Event event)
  {
    if (!(event instanceof ServiceMetricEvent metricEvent)) {
      return;
    }
    final String metric = metricEvent.getMetric();
    if (metric == null) {
      return;
    }
    switch (metric) {
      case SEGMENT_TIME -> {
        final Object segment = metricEvent.getUserDims().get("segment");
        if (segment != null && metricEvent.getValue() != null) {
          collector.recordSegmentTime(segment.toString(), metricEvent.getValue().longValue());
        }
      }
      case CPU_TIME -> {
        if (metricEvent.getValue() != null) {
          collector.recordCpuTime(metricEvent.getValue().longValue());
        }
      }
      case QUERY_TIME -> {
        if (metricEvent.getValue() != null) {
          collector.recordQueryTime(metricEvent.getValue().longValue());
        }
      }
      case WAIT_TIME -> {
        if (metricEvent.getValue() != null) {
          collector.recordWaitTime(metricEvent.getValue().longValue());
        }
      }
      default -> {
        // Not a metric Getafix uses.
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

  @Override
  public String toString()
  {
    return "QueryStatsEmitter{epoch=" + collector.epoch() + "}";
  }
}
