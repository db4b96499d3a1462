package org.getafix.core.redundancy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Caps the hedges that duplicate work at a share of primary sub-queries, like gRPC's retry throttling: a bucket of at
 * most {@code maxTokens} tokens, starting full; each primary adds {@code ratio} of a token, each hedge spends one and
 * is refused when less than one is left, and a hedge that wins hands its token back. Over any run, hedges that lost ≤
 * ratio × primaries + maxTokens.
 *
 * <p>Why a winning hedge is free: its primary is cancelled, so the work it stands for is the primary's, moved to a
 * holder that answers. With no slow node hedges go out only past a node's latency quantile and mostly lose, so the
 * extra load stays near the ratio; behind a node that stays slow they win, and the budget no longer caps how many of
 * its sub-queries may dodge it (at the default ratio, 5 in 100).
 *
 * <p>Tokens are kept as millionths in one atomic long, so every call is lock-free and exact.
 */
public final class HedgeBudget
{
  private static final long UNIT = 1_000_000;

  private final long perPrimary;
  private final long capacity;
  private final AtomicLong tokens;

  /**
   * @param ratio     tokens added per primary, in (0, 1]
   * @param maxTokens the bucket's size, ≥ 1
   */
  public HedgeBudget(double ratio, double maxTokens)
  {
    if (!(ratio > 0 && ratio <= 1) || !(Double.isFinite(maxTokens) && maxTokens >= 1)) {
      throw new IllegalArgumentException(
          "hedge ratio must be in (0, 1] and maxTokens >= 1, got [" + ratio + ", " + maxTokens + "]"
      );
    }
    this.perPrimary = Math.round(ratio * UNIT);
    this.capacity = Math.round(maxTokens * UNIT);
    this.tokens = new AtomicLong(capacity);
  }

  public void onPrimary()
  {
    tokens.accumulateAndGet(perPrimary, (current, add) -> Math.min(capacity, current + add));
  }

  /** Spends a token for one hedge; false, spending nothing, if less than one is left. */
  public boolean tryAcquire()
  {
    long current;
    do {
      current = tokens.get();
      if (current < UNIT) {
        return false;
      }
    } while (!tokens.compareAndSet(current, current - UNIT));
    return true;
  }

  /** Hands back the token of a hedge that won: see the class comment. */
  public void onHedgeWon()
  {
    tokens.accumulateAndGet(UNIT, (current, add) -> Math.min(capacity, current + add));
  }

  public double tokens()
  {
    return (double) tokens.get() / UNIT;
  }
}
