package org.getafix.broker.routing;

import org.joda.time.Period;

import javax.annotation.Nullable;
import java.time.Duration;

/** Validation of duration properties, naming the property and the value on failure. */
final class Periods
{
  private Periods()
  {
  }

  static Duration positive(String property, @Nullable Period value, @Nullable Duration defaultValue)
  {
    final Duration duration = duration(property, value, defaultValue);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(property + " must be a positive duration, got [" + value + "]");
    }
    return duration;
  }

  static Duration nonNegative(String property, @Nullable Period value, Duration defaultValue)
  {
    final Duration duration = duration(property, value, defaultValue);
    if (duration.isNegative()) {
      throw new IllegalArgumentException(property + " must not be negative, got [" + value + "]");
    }
    return duration;
  }

  private static Duration duration(String property, @Nullable Period value, @Nullable Duration defaultValue)
  {
    if (value == null) {
      if (defaultValue == null) {
        throw new IllegalArgumentException(property + " must be set");
      }
      return defaultValue;
    }
    try {
      return Duration.ofMillis(value.toStandardDuration().getMillis());
    }
    catch (UnsupportedOperationException e) {
      // Months and years have no fixed length.
      throw new IllegalArgumentException(property + " must be a fixed-length duration, got [" + value + "]", e);
    }
  }
}
