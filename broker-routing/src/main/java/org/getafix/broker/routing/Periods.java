package org.getafix.broker.routing;

import org.joda.time.Period;

import javax.annotation.Nullable;
import java.util.concurrent.TimeUnit;

/** Validation of duration properties, naming the property and the value on failure. */
final class Periods
{
  private Periods()
  {
  }

  static long positiveNanos(String property, @Nullable Period value, Period defaultValue)
  {
    final long nanos = nanos(property, value, defaultValue);
    if (nanos <= 0) {
      throw new IllegalArgumentException(property + " must be a positive duration, got [" + value + "]");
    }
    return nanos;
  }

  static long nonNegativeNanos(String property, @Nullable Period value, Period defaultValue)
  {
    final long nanos = nanos(property, value, defaultValue);
    if (nanos < 0) {
      throw new IllegalArgumentException(property + " must not be negative, got [" + value + "]");
    }
    return nanos;
  }

  private static long nanos(String property, @Nullable Period value, Period defaultValue)
  {
    try {
      return TimeUnit.MILLISECONDS.toNanos((value == null ? defaultValue : value).toStandardDuration().getMillis());
    }
    catch (UnsupportedOperationException e) {
      // Months and years have no fixed length.
      throw new IllegalArgumentException(property + " must be a fixed-length duration, got [" + value + "]", e);
    }
  }
}
