package org.getafix.core.routing;

/**
 * A policy that tries a preferred choice and hands the pick to a fallback policy whenever the preferred one cannot
 * decide, counting each hand-over by its {@link FallbackReason}. ABR is the table draw with least connections behind
 * it. With a single holder there is nothing to decide and nothing is counted.
 */
public final class WithFallback implements RoutingPolicy
{
  private static final FallbackReason[] REASONS = FallbackReason.values();

  /** A choice that may decline a pick. Thread-safe and allocation-free, like a {@link RoutingPolicy}. */
  @FunctionalInterface
  public interface Preferred
  {
    /** The chosen position, or {@link #declined(FallbackReason)} when it cannot decide this pick. */
    int pick(CandidateView candidates);
  }

  private final Preferred preferred;
  private final RoutingPolicy fallback;
  private final RoutingCounters counters;

  public WithFallback(Preferred preferred, RoutingPolicy fallback, RoutingCounters counters)
  {
    this.preferred = preferred;
    this.fallback = fallback;
    this.counters = counters;
  }

  /** What a {@link Preferred} returns to decline a pick for {@code reason}: a negative code, so nothing allocates. */
  public static int declined(FallbackReason reason)
  {
    return -1 - reason.ordinal();
  }

  @Override
  public int pick(CandidateView candidates)
  {
    final int size = candidates.size();
    if (size <= 1) {
      return size - 1;
    }
    final int chosen = preferred.pick(candidates);
    if (chosen >= 0) {
      return chosen;
    }
    counters.recordFallback(REASONS[-1 - chosen]);
    return fallback.pick(candidates);
  }
}
