package org.getafix.core.redundancy;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The {@link LatencyWindow} of every node a Broker sends sub-queries to, created on a node's first valid
 * observation. Thread-safe; recording allocates only for a new node. Garbage observations (no node id, NaN,
 * infinite or negative latency) are ignored and counted, and never create a window. A new node's arrival also forgets
 * the nodes silent for {@link #FORGET_AFTER_WINDOWS} windows: nodes come and go with restarts and their ports, and
 * without a caller that forgets them ({@link #forgetSilentSince}) the windows of those that left would stay.
 */
public final class NodeLatencies
{
  /** Long enough for a p95 from a few hundred sub-queries, short enough to notice a node slowing down. */
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(30);
  /** Windows of silence after which a node is taken to have left; its own window has long emptied by then. */
  public static final int FORGET_AFTER_WINDOWS = 10;

  private final Duration window;
  private final LongSupplier nanoClock;
  private final ConcurrentHashMap<String, LatencyWindow> nodes = new ConcurrentHashMap<>();
  private final AtomicLong ignored = new AtomicLong();

  public NodeLatencies(Duration window, LongSupplier nanoClock)
  {
    // Fails here, at startup, rather than on the first observation.
    LatencyWindow.sliceNanos(window);
    this.window = window;
    this.nanoClock = nanoClock;
  }

  /** Records one completed sub-query of {@code nodeId}. */
  public void record(String nodeId, double millis)
  {
    if (nodeId == null || !LatencyWindow.isValid(millis)) {
      ignored.incrementAndGet();
      return;
    }
    LatencyWindow node = nodes.get(nodeId);
    if (node == null) {
      forgetSilentSince(nanoClock.getAsLong() - FORGET_AFTER_WINDOWS * window.toNanos());
      node = nodes.computeIfAbsent(nodeId, id -> new LatencyWindow(window, nanoClock));
    }
    node.record(millis);
  }

  /** The window of {@code nodeId}, or null if nothing valid was recorded for it. */
  public LatencyWindow get(String nodeId)
  {
    return nodeId == null ? null : nodes.get(nodeId);
  }

  /** Forgets nodes with no observation since {@code cutoffNanos}, so nodes that left do not stay forever. */
  public void forgetSilentSince(long cutoffNanos)
  {
    nodes.values().removeIf(node -> node.silentSince(cutoffNanos));
  }

  public int size()
  {
    return nodes.size();
  }

  /** Observations ignored as garbage. */
  public long ignored()
  {
    return ignored.get();
  }
}
