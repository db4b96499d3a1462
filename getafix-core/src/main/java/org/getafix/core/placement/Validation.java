package org.getafix.core.placement;

/**
 * Input checks shared by the value classes: each failure names the offending value, so that an operator reading
 * a Coordinator log line knows which segment or node sent garbage.
 */
final class Validation
{
  private Validation()
  {
  }

  static void requireId(String what, String id)
  {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException(what + " must be a non-empty string, got [" + id + "]");
    }
  }

  static void requireNonNegativeFinite(String what, double value)
  {
    if (!Double.isFinite(value) || value < 0) {
      throw new IllegalArgumentException(what + " must be a finite number >= 0, got [" + value + "]");
    }
  }

  static void requireNonNegative(String what, long value)
  {
    if (value < 0) {
      throw new IllegalArgumentException(what + " must be >= 0, got [" + value + "]");
    }
  }
}
