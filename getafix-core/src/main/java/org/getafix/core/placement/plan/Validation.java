package org.getafix.core.placement.plan;

/**
 * Input checks shared by the placement packages' value classes and trackers: each failure names the offending value,
 * so that an operator reading a Coordinator log line knows which segment or node sent garbage. Public for the
 * placement packages only.
 */
public final class Validation
{
  private Validation()
  {
  }

  public static void requireId(String what, String id)
  {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException(what + " must be a non-empty string, got [" + id + "]");
    }
  }

  public static void requireNonNegativeFinite(String what, double value)
  {
    if (!Double.isFinite(value) || value < 0) {
      throw new IllegalArgumentException(what + " must be a finite number >= 0, got [" + value + "]");
    }
  }

  public static void requireNonNegative(String what, long value)
  {
    if (value < 0) {
      throw new IllegalArgumentException(what + " must be >= 0, got [" + value + "]");
    }
  }
}
