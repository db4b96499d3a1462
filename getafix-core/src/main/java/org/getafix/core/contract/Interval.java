package org.getafix.core.contract;

/**
 * The valid values of a numeric knob: finite numbers between two bounds, each bound open or closed; an upper bound
 * of +∞ means none. Its {@link #toString} is the requirement a message states ({@code in [0, 1]}, {@code >= 1},
 * {@code > 0}), so that every check of the same range reads the same.
 */
public record Interval(double lower, boolean lowerOpen, double upper, boolean upperOpen)
{
  /** [lower, upper] */
  public static Interval closed(double lower, double upper)
  {
    return new Interval(lower, false, upper, false);
  }

  /** (lower, upper) */
  public static Interval open(double lower, double upper)
  {
    return new Interval(lower, true, upper, true);
  }

  /** [lower, upper) */
  public static Interval closedOpen(double lower, double upper)
  {
    return new Interval(lower, false, upper, true);
  }

  /** (lower, upper] */
  public static Interval openClosed(double lower, double upper)
  {
    return new Interval(lower, true, upper, false);
  }

  /** [lower, ∞) */
  public static Interval atLeast(double lower)
  {
    return new Interval(lower, false, Double.POSITIVE_INFINITY, true);
  }

  /** (lower, ∞) */
  public static Interval above(double lower)
  {
    return new Interval(lower, true, Double.POSITIVE_INFINITY, true);
  }

  /** Whether {@code value} is finite and within the bounds. */
  public boolean contains(double value)
  {
    return Double.isFinite(value)
           && (lowerOpen ? value > lower : value >= lower)
           && (upperOpen ? value < upper : value <= upper);
  }

  /**
   * Returns {@code value} if it is in this interval, else throws naming {@code what} and the value.
   *
   * @throws IllegalArgumentException in {@link Knob#mustBe}'s format
   */
  public double check(String what, double value)
  {
    if (!contains(value)) {
      throw new IllegalArgumentException(Knob.mustBe(what, toString(), value));
    }
    return value;
  }

  @Override
  public String toString()
  {
    if (upper == Double.POSITIVE_INFINITY) {
      return (lowerOpen ? "> " : ">= ") + format(lower);
    }
    return "in " + (lowerOpen ? "(" : "[") + format(lower) + ", " + format(upper) + (upperOpen ? ")" : "]");
  }

  /** A bound as people write it: 1 rather than 1.0. */
  private static String format(double bound)
  {
    return bound == Math.rint(bound) && Math.abs(bound) < 1e15 ? Long.toString((long) bound) : Double.toString(bound);
  }
}
