package org.getafix.core.routing;

/**
 * The routing table a router currently uses, and when the Coordinator last vouched for it. A fetcher thread
 * {@link #install}s new tables and {@link #confirm}s unchanged ones (HTTP 304); routers read {@link #snapshot()}
 * lock-free. Ages are measured on the router's own monotonic clock, so Coordinator clock skew cannot make a table
 * look fresh or stale.
 */
public final class RoutingTableHolder
{
  private volatile Snapshot snapshot = new Snapshot(RoutingTable.empty(), false, 0);

  /** Replaces the table; it counts as confirmed at {@code nowNanos}. */
  public void install(RoutingTable table, long nowNanos)
  {
    snapshot = new Snapshot(table, true, nowNanos);
  }

  /** Records that the Coordinator still serves the current table. No-op before the first install. */
  public void confirm(long nowNanos)
  {
    final Snapshot current = snapshot;
    if (current.installed()) {
      snapshot = new Snapshot(current.table(), true, nowNanos);
    }
  }

  public Snapshot snapshot()
  {
    return snapshot;
  }

  /**
   * @param installed      false until the first table arrives; {@link #table} is then {@link RoutingTable#empty()}
   * @param confirmedNanos {@link System#nanoTime()}-style time of the last install or confirm
   */
  public record Snapshot(RoutingTable table, boolean installed, long confirmedNanos)
  {
    /** Nanoseconds since the table was last confirmed; {@link Long#MAX_VALUE} before the first install. */
    public long ageNanos(long nowNanos)
    {
      return installed ? Math.max(0, nowNanos - confirmedNanos) : Long.MAX_VALUE;
    }
  }
}
