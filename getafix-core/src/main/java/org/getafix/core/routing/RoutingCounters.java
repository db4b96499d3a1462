package org.getafix.core.routing;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Pick and fallback counts since the last {@link #drain()}, so that metrics can be emitted per period. Counting is
 * allocation-free and contention-friendly ({@link LongAdder}); draining is for a metrics thread.
 */
public final class RoutingCounters
{
  private static final FallbackReason[] REASONS = FallbackReason.values();

  private final LongAdder picks = new LongAdder();
  private final LongAdder[] fallbacks = new LongAdder[REASONS.length];

  public RoutingCounters()
  {
    for (int i = 0; i < fallbacks.length; i++) {
      fallbacks[i] = new LongAdder();
    }
  }

  public void recordPick()
  {
    picks.increment();
  }

  public void recordFallback(FallbackReason reason)
  {
    fallbacks[reason.ordinal()].increment();
  }

  /** Counts since the previous drain; each counter is reset as it is read. */
  public Counts drain()
  {
    final Map<FallbackReason, Long> byReason = new EnumMap<>(FallbackReason.class);
    for (FallbackReason reason : REASONS) {
      byReason.put(reason, fallbacks[reason.ordinal()].sumThenReset());
    }
    return new Counts(picks.sumThenReset(), byReason);
  }

  public record Counts(long picks, Map<FallbackReason, Long> fallbacks)
  {
    public long fallbacks(FallbackReason reason)
    {
      return fallbacks.getOrDefault(reason, 0L);
    }
  }
}
