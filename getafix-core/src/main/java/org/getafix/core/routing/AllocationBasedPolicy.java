package org.getafix.core.routing;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * ABR (thesis §3.3.1): sends each request for a segment to a holder drawn with the probabilities of the
 * Coordinator's routing table, so that nodes receive the query load the placement allocated to them.
 *
 * <p>The table is a round old at best, so this draw declines (see {@link WithFallback}, which hands the pick to a
 * load-based fallback) whenever the table cannot be trusted for this pick: no table yet, a table not confirmed
 * within {@code maxTableAgeNanos}, a segment without a row, or a drawn node that is not among the current holders
 * (the segment moved since the round). {@link RoutingPolicies} composes it with LBR behind it.
 *
 * <p>Rows are looked up by the view's {@link CandidateView#segmentKey()} in a cache that lives as long as the table,
 * so the segment id string is built once per segment per table, not once per pick.
 */
public final class AllocationBasedPolicy implements WithFallback.Preferred
{
  /** Cached marker for "the table has no row for this segment". */
  private static final Object NO_ROW = new Object();

  private final RoutingTableHolder tables;
  private final long maxTableAgeNanos;
  private final LongSupplier nanoClock;
  private final RandomGenerator random;
  private volatile RowCache rowCache = new RowCache(RoutingTable.empty());

  public AllocationBasedPolicy(
      RoutingTableHolder tables,
      long maxTableAgeNanos,
      LongSupplier nanoClock,
      RandomGenerator random
  )
  {
    if (maxTableAgeNanos <= 0) {
      throw new IllegalArgumentException("maxTableAge must be positive, got [" + maxTableAgeNanos + "] ns");
    }
    this.tables = tables;
    this.maxTableAgeNanos = maxTableAgeNanos;
    this.nanoClock = nanoClock;
    this.random = random;
  }

  /** ABR as routers run it: this draw, with {@code fallback} taking the picks it declines. */
  public static RoutingPolicy withFallback(
      RoutingTableHolder tables,
      RoutingPolicy fallback,
      long maxTableAgeNanos,
      LongSupplier nanoClock,
      RandomGenerator random,
      RoutingCounters counters
  )
  {
    return new WithFallback(new AllocationBasedPolicy(tables, maxTableAgeNanos, nanoClock, random), fallback, counters);
  }

  @Override
  public int pick(CandidateView candidates)
  {
    final RoutingTableHolder.Snapshot snapshot = tables.snapshot();
    if (!snapshot.installed()) {
      return WithFallback.declined(FallbackReason.NO_TABLE);
    }
    if (snapshot.ageNanos(nanoClock.getAsLong()) > maxTableAgeNanos) {
      return WithFallback.declined(FallbackReason.STALE_TABLE);
    }
    final RoutingTable.Row row = row(snapshot.table(), candidates);
    if (row == null) {
      return WithFallback.declined(FallbackReason.NOT_IN_TABLE);
    }
    final String chosen = row.node(row.draw(random.nextDouble()));
    final int chosenHash = chosen.hashCode();
    final int size = candidates.size();
    for (int i = 0; i < size; i++) {
      final String nodeId = candidates.nodeId(i);
      // String hashes are cached, so comparing them first skips most character comparisons.
      if (nodeId.hashCode() == chosenHash && nodeId.equals(chosen)) {
        return i;
      }
    }
    return WithFallback.declined(FallbackReason.NOT_HELD);
  }

  private RoutingTable.Row row(RoutingTable table, CandidateView candidates)
  {
    RowCache cache = rowCache;
    if (cache.table != table) {
      // A new table: start a new cache. Racing threads may each build one; the last write wins, both are correct.
      cache = new RowCache(table);
      rowCache = cache;
    }
    final Object key = candidates.segmentKey();
    if (key == null) {
      return null;
    }
    final Object cached = cache.rows.get(key);
    if (cached != null) {
      return cached == NO_ROW ? null : (RoutingTable.Row) cached;
    }
    final RoutingTable.Row row = table.row(candidates.segmentId());
    cache.rows.put(key, row == null ? NO_ROW : row);
    return row;
  }

  /** Rows of one table by segment key; bounded by the segments queried while that table is current. */
  private static final class RowCache
  {
    private final RoutingTable table;
    private final ConcurrentHashMap<Object, Object> rows = new ConcurrentHashMap<>();

    private RowCache(RoutingTable table)
    {
      this.table = table;
    }
  }
}
