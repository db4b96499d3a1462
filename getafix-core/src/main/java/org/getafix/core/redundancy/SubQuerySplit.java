package org.getafix.core.redundancy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Whether a budgeted sub-query goes to its Historical as several smaller ones, over consecutive runs of its segments,
 * and as how many. A Historical merges a sub-query's segments before it answers, so a sub-query cut off at its
 * deadline yields nothing, not even the segments it had finished; split into parts, each part answers once its own
 * segments are done, and the parts in by the deadline count. Partial answers then lose segments, not whole
 * Historicals.
 *
 * <p>A part costs a request to the Historical and a Broker thread to read it, so by default ({@link Trigger#LATE}) a
 * sub-query is split only where its Historical is expected to miss the deadline: its recent mean latency is at least
 * {@link #LATE_SHARE} of the time left, or its recent sub-queries took on average at least that share of the time they
 * had to their deadlines. A Historical cut off at every deadline records the time it had, so its mean latency sits just
 * under the budget, not above it, and well under it where its sub-queries were sent late, behind other queries' work
 * on a busy Broker; their shares of the time they had still read 1. With no slow Historical nothing is split, and
 * nothing costs more. Under an even overload no Historical's mean reaches that share for long, yet every cut query
 * has queued behind others' scans; {@link Trigger#ALWAYS} splits every sub-query it can, so that with parts at
 * descending priority ({@link #partPriority}) each query has some of its segments scanned by its deadline.
 *
 * <p>A part also holds one of the Broker's HTTP connections to the Historical until it answers, and the Broker's client
 * blocks a request while its pool to that Historical is full. The parts of a slow node's sub-queries, each waiting
 * there until the deadline, once took every connection and held other queries' sub-queries, whose budgets they then
 * missed by seconds. So a split adds parts only while the connections open to the Historical stay within half its
 * pool, as the mature runs do ({@link #spareConnections}), whatever its trigger.
 *
 * <p>Immutable.
 */
public final class SubQuerySplit
{
  /** The share of the remaining budget from which a Historical's mean latency says it will miss the deadline. */
  public static final double LATE_SHARE = 0.9;
  /** Never splits. */
  public static final SubQuerySplit OFF = new SubQuerySplit(1, Trigger.LATE);

  /** Which sub-queries are split ({@code druid.getafix.quality.splitWhen}). */
  public enum Trigger
  {
    /**
     * Those to a Historical expected to miss the deadline: its recent mean latency at least {@link #LATE_SHARE} of the
     * time left, or its recent sub-queries' mean share of the time they had at least {@link #LATE_SHARE}.
     */
    LATE,
    /**
     * Every one with a deadline and two segments or more, whatever its Historical's latency: under an even overload,
     * with a concave quality profile, so that each cut query has part of its segments scanned.
     */
    ALWAYS
  }

  private final int maxParts;
  private final Trigger trigger;

  /**
   * @param maxParts the most parts one sub-query is split into; 1 never splits
   * @param trigger  which sub-queries are split
   * @throws IllegalArgumentException if {@code maxParts} is below 1
   */
  public SubQuerySplit(int maxParts, Trigger trigger)
  {
    if (maxParts < 1) {
      throw new IllegalArgumentException("maxParts must be at least 1, got " + maxParts);
    }
    this.maxParts = maxParts;
    this.trigger = Objects.requireNonNull(trigger, "trigger");
  }

  public int maxParts()
  {
    return maxParts;
  }

  public Trigger trigger()
  {
    return trigger;
  }

  /**
   * Into how many parts a sub-query of {@code segments} segments is split: as many as it has segments, up to
   * {@link #maxParts}, and one more than {@code spareConnections}; 1 (not split) if the {@link #trigger} does not hold.
   * {@link Trigger#LATE} holds where the Historical's {@code expectedMillis} is at least {@link #LATE_SHARE} of
   * {@code remainingMillis}, the query's time left, or its {@code deadlineShare} is at least {@link #LATE_SHARE}, and
   * not where both are unknown (NaN); {@link Trigger#ALWAYS} always holds, and never asks for either. A sub-query
   * without a deadline (NaN or infinite time left), or with none left, is not split.
   *
   * @param expectedMillis   the Historical's recent mean latency, asked only by {@link Trigger#LATE}
   * @param deadlineShare    the mean share of the time to their deadlines that the Historical's recent budgeted
   *                         sub-queries took (1 for one cut at it), asked only by {@link Trigger#LATE}
   * @param spareConnections how many connections to the Historical the parts beyond the first may take
   *                         ({@link #spareConnections})
   */
  public int parts(
      int segments,
      DoubleSupplier expectedMillis,
      DoubleSupplier deadlineShare,
      double remainingMillis,
      int spareConnections
  )
  {
    if (maxParts == 1
        || segments < 2
        || spareConnections < 1
        || !(remainingMillis > 0)
        || Double.isInfinite(remainingMillis)
        || !triggered(expectedMillis, deadlineShare, remainingMillis)) {
      return 1;
    }
    return Math.min(Math.min(segments, maxParts), 1 + spareConnections);
  }

  private boolean triggered(DoubleSupplier expectedMillis, DoubleSupplier deadlineShare, double remainingMillis)
  {
    return trigger == Trigger.ALWAYS
           || expectedMillis.getAsDouble() >= LATE_SHARE * remainingMillis
           || deadlineShare.getAsDouble() >= LATE_SHARE;
  }

  /**
   * The connections to a Historical that a split may add: what keeps the Broker's connections open to it within half
   * its pool (see the class comment), never below 0.
   *
   * @param open the Broker's requests to the Historical in flight
   * @param pool the Broker's connections per Historical ({@code druid.broker.http.numConnections})
   */
  public static int spareConnections(int open, int pool)
  {
    return Math.max(0, pool / 2 - Math.max(0, open));
  }

  /**
   * The Druid query priority of part {@code part} (from 0) of a sub-query of priority {@code queryPriority}: one lower
   * for each part before it, never below {@link Integer#MIN_VALUE}. A Historical takes its processing tasks highest
   * priority first and first come, first served among equals, so without this the segments of a query that came later
   * wait behind every segment of those before it, and a query cut at its deadline under load has often scanned nothing.
   * With it the first parts of all the queries in a Historical's queue run before any of their second parts, and so on:
   * under load each query gets some of its segments scanned by its deadline, as under processor sharing, which is what
   * a concave quality profile rewards (the budget paper's index servers share their processors among queries).
   *
   * @throws IllegalArgumentException if {@code part} is negative
   */
  public static int partPriority(int queryPriority, int part)
  {
    if (part < 0) {
      throw new IllegalArgumentException("part must be at least 0, got " + part);
    }
    return (int) Math.max(Integer.MIN_VALUE, (long) queryPriority - part);
  }

  /**
   * {@code items} in {@code parts} consecutive runs, in order, whose lengths differ by at most one (the longer ones
   * first); fewer runs if there are fewer items, none for none.
   *
   * @throws IllegalArgumentException if {@code parts} is below 1
   */
  public static <S> List<List<S>> partition(List<S> items, int parts)
  {
    if (parts < 1) {
      throw new IllegalArgumentException("parts must be at least 1, got " + parts);
    }
    final int runs = Math.min(parts, items.size());
    final List<List<S>> partition = new ArrayList<>(runs);
    int from = 0;
    for (int i = 0; i < runs; i++) {
      final int length = items.size() / runs + (i < items.size() % runs ? 1 : 0);
      partition.add(Collections.unmodifiableList(new ArrayList<>(items.subList(from, from + length))));
      from += length;
    }
    return Collections.unmodifiableList(partition);
  }
}
