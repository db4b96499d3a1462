package org.getafix.core.redundancy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * When a Broker re-issues a late sub-query's segments to another holder: replication for predictability applied
 * only to the sub-queries that turn out late (a hedged request), so that one slow Historical does not set the tail
 * of every query touching it.
 *
 * <p>The hedge point of a sub-query to node n, whose best alternative holder is a (the least expected latency), is
 * <pre>  min( max(minDelay, min(quantile_q(n), quantile_q(a))),  remaining budget − expected latency of a )</pre>
 * where quantile_q is a node's recent latency quantile (the unknown-node latency while it has fewer than
 * {@code minSamples} samples) and the expected latency is its recent mean (likewise). A sub-query is late once it has
 * run longer than most answers of its own node or most answers of the node that would answer instead: judged against
 * itself alone, a node that has been slow for the whole window (a straggler now, not now and then) would look on
 * time until its answers are hopeless. The cap hedges early enough for the alternative to answer within the budget;
 * when even hedging at once could not, or when no other holder exists, there is no hedge. Whether a due hedge is
 * sent is then up to the {@link HedgeBudget}, so that with no slow node the extra load stays at the budget's share of
 * the primaries, while hedges that win, and so replace their primaries, are not counted against it.
 *
 * <p>A node that loses most of its races ({@link RaceLosses}) has latencies that read too fast, since a lost
 * sub-query counts the time it ran until cancelled: it is the last choice as a hedge's target, and as the alternative
 * its quantile does not bring the hedge point forward (the node's own quantile sets it). Otherwise a straggler that
 * still holds some segments beside their other holders reads as fast as its hedge point, takes the hedges of the
 * other holders' sub-queries, and brings their hedge points down to the minimum delay.
 *
 * <p>Thread-safe; allocates nothing per call but the reassignments.
 */
public final class HedgePolicy
{
  /** The hedge point of a sub-query that is never to be hedged. */
  public static final double NO_HEDGE = Double.POSITIVE_INFINITY;

  private final HedgeSettings settings;
  private final NodeLatencies latencies;
  private final RaceLosses losses;
  private final HedgeBudget budget;
  private final ToDoubleFunction<LatencyWindow> hedgeQuantile;

  /**
   * @param latencies each node's recent latencies, lost sub-queries' included
   * @param losses    each node's recent share of lost sub-queries, recorded with the same sub-queries
   */
  public HedgePolicy(HedgeSettings settings, NodeLatencies latencies, RaceLosses losses)
  {
    this.settings = settings;
    this.latencies = latencies;
    this.losses = losses;
    this.budget = new HedgeBudget(settings.hedgeRatio(), settings.maxTokens());
    this.hedgeQuantile = window -> window.quantile(settings.quantile());
  }

  /**
   * Milliseconds after dispatch at which the sub-query to {@code node} should be hedged, or {@link #NO_HEDGE}.
   *
   * @param alternatives          the other holders that could serve the sub-query's segments (the node itself and
   *                              nulls are skipped)
   * @param remainingBudgetMillis the query's time left at dispatch; NaN or infinite if it has no deadline
   */
  public double hedgeAfterMillis(String node, List<String> alternatives, double remainingBudgetMillis)
  {
    if (alternatives == null || remainingBudgetMillis < 0) {
      return NO_HEDGE;
    }
    final String alternative = fastestOtherHolder(node, alternatives);
    if (alternative == null) {
      return NO_HEDGE;
    }
    final double own = recentMillis(node, hedgeQuantile);
    final double point = Math.max(
        settings.minDelayMillis(),
        losses.losesMost(alternative) ? own : Math.min(own, recentMillis(alternative, hedgeQuantile))
    );
    if (!Double.isFinite(remainingBudgetMillis)) {
      return point;
    }
    final double latest = remainingBudgetMillis - expectedMillis(alternative);
    return latest < 0 ? NO_HEDGE : Math.min(point, latest);
  }

  /**
   * Where the segments of a sub-query late on {@code lateNode} are re-sent: each to its holder other than the late
   * node with the least {@link #expectedMillis expected latency} (the first such holder on a tie), among those that do
   * not lose most of their races if there are any. A hedge must cover
   * every segment to be a complete answer, so if one segment has no other holder, nothing is re-sent.
   *
   * @param segments the sub-query's segments, of whatever type the caller names them by
   * @param holders  a segment's holders that could answer it (the late node and nulls are skipped)
   * @return the other holders, in the order first chosen, each with its segments in the order given; empty if some
   * segment has no other holder (or there are no segments)
   */
  public <S> Map<String, List<S>> reassign(
      String lateNode,
      List<S> segments,
      Function<? super S, ? extends List<String>> holders
  )
  {
    final Reassignment<S> reassignment = reassignWherePossible(lateNode, segments, holders);
    return reassignment.stranded().isEmpty() ? reassignment.byHolder() : Map.of();
  }

  /**
   * As {@link #reassign}, for a sub-query that may answer in part (a budgeted one): the segments that have another
   * holder are re-sent, and those only the late node holds stay with it.
   */
  public <S> Reassignment<S> reassignWherePossible(
      String lateNode,
      List<S> segments,
      Function<? super S, ? extends List<String>> holders
  )
  {
    final Map<String, List<S>> byHolder = new LinkedHashMap<>();
    final List<S> stranded = new ArrayList<>();
    for (S segment : segments) {
      final String best = fastestOtherHolder(lateNode, holders.apply(segment));
      if (best == null) {
        stranded.add(segment);
      } else {
        byHolder.computeIfAbsent(best, holder -> new ArrayList<>()).add(segment);
      }
    }
    byHolder.replaceAll((holder, assigned) -> Collections.unmodifiableList(assigned));
    return new Reassignment<>(Collections.unmodifiableMap(byHolder), Collections.unmodifiableList(stranded));
  }

  /**
   * As {@link #reassignWherePossible}, for a sub-query with {@code remainingMillis} to its deadline: a holder expected
   * to miss the deadline, as {@link SubQuerySplit} tells a late node, is no target, since a hedge it answered would be
   * cut at the deadline too. That is a holder whose recent budgeted sub-queries took at least {@link
   * SubQuerySplit#LATE_SHARE} of their time to their deadlines ({@code deadlines}), or whose expected latency is at
   * least that share of the time left. Otherwise a straggler that holds segments beside their other holders takes the
   * hedges of those holders' late sub-queries, loses every one, and spends the hedge budget that the hedges of its own
   * late sub-queries need. The segments that only such holders hold stay with the late node.
   */
  public <S> Reassignment<S> reassignBeforeDeadline(
      String lateNode,
      List<S> segments,
      Function<? super S, ? extends List<String>> holders,
      DeadlineShares deadlines,
      double remainingMillis
  )
  {
    final Predicate<String> expectedInTime = holder -> !(deadlines.share(holder) >= SubQuerySplit.LATE_SHARE)
                                                       && expectedMillis(holder) < SubQuerySplit.LATE_SHARE * remainingMillis;
    return reassignWherePossible(lateNode, segments, segment -> only(holders.apply(segment), expectedInTime));
  }

  /** {@code holders} less the nulls and those {@code keep} refuses; null stays null. */
  private static List<String> only(List<String> holders, Predicate<String> keep)
  {
    if (holders == null) {
      return null;
    }
    final List<String> kept = new ArrayList<>(holders.size());
    for (String holder : holders) {
      if (holder != null && keep.test(holder)) {
        kept.add(holder);
      }
    }
    return kept;
  }

  /**
   * Where a late sub-query's segments go.
   *
   * @param byHolder the other holders, in the order first chosen, each with its segments in the order given
   * @param stranded the segments no other node holds, in the order given
   */
  public record Reassignment<S>(Map<String, List<S>> byHolder, List<S> stranded)
  {
  }

  /**
   * The holder other than {@code lateNode} with the least expected latency (the first on a tie), preferring those that
   * do not lose most of their races; null if there is none.
   */
  private String fastestOtherHolder(String lateNode, List<String> candidates)
  {
    String best = null;
    boolean bestLosesMost = true;
    double bestMillis = Double.POSITIVE_INFINITY;
    for (int i = 0; candidates != null && i < candidates.size(); i++) {
      final String holder = candidates.get(i);
      if (holder == null || holder.equals(lateNode)) {
        continue;
      }
      final boolean losesMost = losses.losesMost(holder);
      final double expected = expectedMillis(holder);
      if (best == null || (bestLosesMost && !losesMost) || (bestLosesMost == losesMost && expected < bestMillis)) {
        best = holder;
        bestLosesMost = losesMost;
        bestMillis = expected;
      }
    }
    return best;
  }

  /**
   * The latency expected of {@code node} as a hedge's target: its recent mean, or the unknown-node latency while it
   * has too few samples.
   */
  public double expectedMillis(String node)
  {
    return recentMillis(node, LatencyWindow::mean);
  }

  /** Counts one primary sub-query sent: it earns the budget a share of a hedge. */
  public void onPrimary()
  {
    budget.onPrimary();
  }

  /** A hedge answered before its primary, which is cancelled: its token goes back to the budget. */
  public void onHedgeWon()
  {
    budget.onHedgeWon();
  }

  /** Asks, when a hedge is due, whether the budget lets it go; spends a token if so. */
  public boolean tryHedge()
  {
    return budget.tryAcquire();
  }

  /**
   * {@code statistic} of the node's recent latencies, or the unknown-node latency while it has too few samples (or
   * none left: the window may rotate between the two reads).
   */
  private double recentMillis(String node, ToDoubleFunction<LatencyWindow> statistic)
  {
    final LatencyWindow window = latencies.get(node);
    if (window == null || window.count() < settings.minSamples()) {
      return settings.unknownLatencyMillis();
    }
    final double value = statistic.applyAsDouble(window);
    return Double.isNaN(value) ? settings.unknownLatencyMillis() : value;
  }
}
