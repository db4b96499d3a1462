package org.getafix.localcluster.workload;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Outcomes of a workload run, with latency histograms (microseconds) per query kind.
 */
public final class WorkloadResult
{
  private final List<QueryOutcome> outcomes;
  private final Map<QueryKind, Histogram> latencyMicros;
  private final Duration wallTime;

  WorkloadResult(List<QueryOutcome> outcomes, Map<QueryKind, ? extends Histogram> latencyMicros, Duration wallTime)
  {
    this.outcomes = outcomes;
    final Map<QueryKind, Histogram> copy = new EnumMap<>(QueryKind.class);
    latencyMicros.forEach((kind, h) -> copy.put(kind, h.copy()));
    this.latencyMicros = Collections.unmodifiableMap(copy);
    this.wallTime = wallTime;
  }

  public List<QueryOutcome> outcomes()
  {
    return outcomes;
  }

  public List<QueryOutcome> failures()
  {
    return outcomes.stream().filter(o -> !o.success()).toList();
  }

  public long successCount()
  {
    return outcomes.stream().filter(QueryOutcome::success).count();
  }

  public Duration wallTime()
  {
    return wallTime;
  }

  public double queriesPerSecond()
  {
    return outcomes.size() / Math.max(1e-9, wallTime.toNanos() / 1e9);
  }

  /**
   * Answered queries per second. Where many queries fail fast (a Historical is gone and the Broker says so at once),
   * {@link #queriesPerSecond} counts each failure as served work, and rates the setup that fails more as faster.
   */
  public double answeredPerSecond()
  {
    return successCount() / Math.max(1e-9, wallTime.toNanos() / 1e9);
  }

  /** Latency histogram of the answered queries, in microseconds: a fast failure is not a fast answer. */
  public Histogram answeredLatencyMicros()
  {
    final Histogram answered = new Histogram(3);
    for (QueryOutcome outcome : outcomes) {
      if (outcome.success()) {
        answered.recordValue(Math.max(1, outcome.latencyNanos() / 1000));
      }
    }
    return answered;
  }

  /**
   * Latency histogram of one query kind, in microseconds.
   */
  public Histogram latencyMicros(QueryKind kind)
  {
    return latencyMicros.get(kind);
  }

  /**
   * Latency histogram of all queries, in microseconds.
   */
  public Histogram latencyMicros()
  {
    final Histogram all = new Histogram(3);
    latencyMicros.values().forEach(all::add);
    return all;
  }

  public String summary()
  {
    final StringBuilder sb = new StringBuilder(String.format(
        Locale.ROOT,
        "%d queries in %.1f s (%.1f/s), %d failed",
        outcomes.size(), wallTime.toNanos() / 1e9, queriesPerSecond(), outcomes.size() - successCount()
    ));
    for (QueryKind kind : QueryKind.values()) {
      final Histogram h = latencyMicros.get(kind);
      if (h.getTotalCount() > 0) {
        sb.append(String.format(
            Locale.ROOT,
            "; %s n=%d p50=%.1f ms p99=%.1f ms max=%.1f ms",
            kind, h.getTotalCount(), h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getMaxValue() / 1e3
        ));
      }
    }
    return sb.toString();
  }
}
