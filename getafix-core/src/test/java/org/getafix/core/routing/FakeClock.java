package org.getafix.core.routing;

import java.time.Duration;
import java.util.function.LongSupplier;

/** A nanosecond clock that moves only when a test says so. */
final class FakeClock implements LongSupplier
{
  private volatile long nanos = 1_000_000_000L;

  @Override
  public long getAsLong()
  {
    return nanos;
  }

  void advance(Duration d)
  {
    nanos += d.toNanos();
  }
}
