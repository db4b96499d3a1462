package org.getafix.core.routing;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * ABR (thesis §3.3.1): sends each request for a segment to a holder drawn with the probabilities of the
 * Coordinator's routing table, so that nodes receive the query load the placement allocated to them.
 *
 * <p>The table is a round old at best, so ABR hands the pick to a load-based fallback (LBR) whenever the table cannot
 * be trusted for this pick: no table yet, a table not confirmed within {@code maxTableAgeNanos}, a segment without
 * a row, or a drawn node that is not among the current holders (the segment moved since the round). Each fallback is
 * counted by {@link FallbackReason}. With a single holder there is nothing to decide and nothing is counted.
 *
 * <p>Rows are looked up by the view's {@link CandidateView#segmentKey()} in a cache that lives as long as the table,
 * so the segment id string is built once per segment per table, not once per pick.
 */
public final class AllocationBasedPolicy implements RoutingPolicy
{
  /** Cached marker for "the table has no row for this segment". */
  private static final Object NO_ROW = new Object();

  private final RoutingTableHolder tables;
  private final RoutingPolicy fallback;
  private final long maxTableAgeNanos;
  private final LongSupplier nanoClock;
  private final RandomGenerator random;
  private final RoutingCounters counters;
  private volatile RowCache rowCache = new RowCache(RoutingTable.empty());

  public AllocationBasedPolicy(
      RoutingTableHolder tables,
      RoutingPolicy fallback,
      long maxTableAgeNanos,
      LongSupplier nanoClock,
      RandomGenerator random,
      RoutingCounters counters
  )
  {
    if (maxTableAgeNanos <= 0) {
      throw new IllegalArgumentException("maxTableAge must be positive, got [" + maxTableAgeNanos + "] ns");
    }
    this.tables = tables;
    this.fallback = fallback;
    this.maxTableAgeNanos = maxTableAgeNanos;
    this.nanoClock = nanoClock;
    this.random = random;
    this.counters = counters;
  }

  @Override
  public int pick(CandidateView candidates)
  {
    final int size = candidates.size();
    if (size <= 1) {
      return size - 1;
    }
    final RoutingTableHolder.Snapshot snapshot = tables.snapshot();
    if (!snapshot.installed()) {
      return fallBack(FallbackReason.NO_TABLE, candidates);
    }
    if (snapshot.ageNanos(nanoClock.getAsLong()) > maxTableAgeNanos) {
      return fallBack(FallbackReason.STALE_TABLE, candidates);
    }
    final RoutingTable.Row row = row(snapshot.table(), candidates);
    if (row == null) {
      return fallBack(FallbackReason.NOT_IN_TABLE, candidates);
    }
    final String chosen = row.node(row.draw(random.nextDouble()));
    final int chosenHash = chosen.hashCode();
    for (int i = 0; i < size; i++) {
      final String nodeId = candidates.nodeId(i);
      // String hashes are cached, so comparing them first skips most character comparisons.
      if (nodeId.hashCode() == chosenHash && nodeId.equals(chosen)) {
        return i;
      }
    }
    return fallBack(FallbackReason.NOT_HELD, candidates);
  }

  private int fallBack(FallbackReason reason, CandidateView candidates)
  {
    counters.recordFallback(reason);
    return fallback.pick(candidates);
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
