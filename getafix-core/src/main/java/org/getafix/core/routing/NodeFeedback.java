package org.getafix.core.routing;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a router has learned about each node: an EWMA of the response times it observed, and the queue length the
 * node last reported. Written by feedback threads (response timings arrive on I/O threads, queue reports once per
 * round), read by routing policies on query threads. Recording is lock-free and allocates only the first time a node
 * is seen; reads never allocate. Garbage observations (NaN, infinite, negative) are ignored.
 */
public final class NodeFeedback
{
  /** Elasticsearch adaptive replica selection uses the same weight for its service-time EWMA. */
  public static final double DEFAULT_ALPHA = 0.3;

  private final double alpha;
  private final ConcurrentHashMap<String, NodeStats> nodes = new ConcurrentHashMap<>();

  public NodeFeedback()
  {
    this(DEFAULT_ALPHA);
  }

  /** @param alpha weight of a new latency observation, in (0, 1] */
  public NodeFeedback(double alpha)
  {
    if (!(alpha > 0 && alpha <= 1)) {
      throw new IllegalArgumentException("latency EWMA alpha must be in (0, 1], got [" + alpha + "]");
    }
    this.alpha = alpha;
  }

  public void recordLatency(String nodeId, double millis, long nowNanos)
  {
    if (nodeId == null || !Double.isFinite(millis) || millis < 0) {
      return;
    }
    stats(nodeId, nowNanos).recordLatency(millis, alpha, nowNanos);
  }

  /** @param queued requests (or scans) waiting at the node, as the node reported it */
  public void reportQueue(String nodeId, double queued, long nowNanos)
  {
    if (nodeId == null || !Double.isFinite(queued) || queued < 0) {
      return;
    }
    stats(nodeId, nowNanos).reportQueue(queued, nowNanos);
  }

  /** The stats of {@code nodeId}, or null if nothing was recorded for it. */
  public NodeStats get(String nodeId)
  {
    return nodeId == null ? null : nodes.get(nodeId);
  }

  /**
   * Forgets nodes with no observation since {@code cutoffNanos}: nodes that left the cluster stop producing
   * observations, so this bounds the map without needing the cluster membership.
   */
  public void forgetSilentSince(long cutoffNanos)
  {
    nodes.values().removeIf(stats -> stats.lastObservedNanos() - cutoffNanos < 0);
  }

  public int size()
  {
    return nodes.size();
  }

  private NodeStats stats(String nodeId, long nowNanos)
  {
    final NodeStats existing = nodes.get(nodeId);
    return existing != null ? existing : nodes.computeIfAbsent(nodeId, id -> new NodeStats(nowNanos));
  }

  /** One node's feedback. Each value is NaN until first observed. */
  public static final class NodeStats
  {
    private final AtomicLong latencyBits = new AtomicLong(Double.doubleToRawLongBits(Double.NaN));
    private volatile long latencyNanos;
    private volatile double queue = Double.NaN;
    private volatile long queueNanos;

    /** Both timestamps start at creation, so a statistic never observed does not look older than the node. */
    private NodeStats(long createdNanos)
    {
      this.latencyNanos = createdNanos;
      this.queueNanos = createdNanos;
    }

    private void recordLatency(double millis, double alpha, long nowNanos)
    {
      long prevBits;
      long nextBits;
      do {
        prevBits = latencyBits.get();
        final double prev = Double.longBitsToDouble(prevBits);
        nextBits = Double.doubleToRawLongBits(Double.isNaN(prev) ? millis : prev + alpha * (millis - prev));
      } while (!latencyBits.compareAndSet(prevBits, nextBits));
      latencyNanos = nowNanos;
    }

    private void reportQueue(double queued, long nowNanos)
    {
      queue = queued;
      queueNanos = nowNanos;
    }

    /** Latency EWMA in milliseconds, NaN if never observed. */
    public double latencyMillis()
    {
      return Double.longBitsToDouble(latencyBits.get());
    }

    public long latencyNanos()
    {
      return latencyNanos;
    }

    /** Last reported queue length, NaN if never reported. */
    public double queue()
    {
      return queue;
    }

    public long queueNanos()
    {
      return queueNanos;
    }

    private long lastObservedNanos()
    {
      final long latencyAt = latencyNanos;
      final long queueAt = queueNanos;
      return latencyAt - queueAt > 0 ? latencyAt : queueAt;
    }
  }
}
