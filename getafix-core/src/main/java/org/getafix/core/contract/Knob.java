package org.getafix.core.contract;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One operator knob: its name as the operator writes it, its default, what a valid value is, and one line saying
 * what it does. Immutable. Every check of a knob, wherever it runs (a Druid config, the dynamic-config endpoint, the
 * simulator's scenario parser, a programmatic caller of getafix-core), reads the default and the range from here and
 * words its failure with {@link #mustBe}.
 *
 * @param <T> the value type: {@link Double}, {@link Integer} or {@link Long} for numeric knobs (see
 *            {@link #interval}), {@link Duration}, {@link Boolean}, or what the holder class documents
 */
public record Knob<T>(
    String name,
    T defaultValue,
    String requirement,
    Predicate<? super T> valid,
    Interval interval,
    String doc
)
{
  /**
   * @param requirement what a valid value is, as messages state it: {@code in [0, 1]}, {@code >= 1}, ...
   * @param interval    the numeric range of a {@link #number}, {@link #integer} or {@link #longInteger} knob; null
   *                    for other knobs
   * @throws IllegalArgumentException if the default is not valid
   */
  public Knob
  {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(requirement, "requirement");
    Objects.requireNonNull(valid, "valid");
    Objects.requireNonNull(doc, "doc");
    if (!valid.test(defaultValue)) {
      throw new IllegalArgumentException(mustBe(name, requirement, defaultValue));
    }
  }

  /** A number in {@code interval}. */
  public static Knob<Double> number(String name, double defaultValue, Interval interval, String doc)
  {
    return numeric(name, defaultValue, interval, doc);
  }

  /** An integer in {@code interval}. */
  public static Knob<Integer> integer(String name, int defaultValue, Interval interval, String doc)
  {
    return numeric(name, defaultValue, interval, doc);
  }

  /** A long integer in {@code interval}. */
  public static Knob<Long> longInteger(String name, long defaultValue, Interval interval, String doc)
  {
    return numeric(name, defaultValue, interval, doc);
  }

  private static <N extends Number> Knob<N> numeric(String name, N defaultValue, Interval interval, String doc)
  {
    return new Knob<>(name, defaultValue, interval.toString(), v -> v != null && interval.contains(v.doubleValue()),
                      interval, doc);
  }

  /** A duration in [{@code min}, {@code max}]. */
  public static Knob<Duration> durationBetween(String name, Duration defaultValue, Duration min, Duration max, String doc)
  {
    return new Knob<>(name, defaultValue, "in [" + min + ", " + max + "]",
                      v -> v != null && v.compareTo(min) >= 0 && v.compareTo(max) <= 0, null, doc);
  }

  /** A duration longer than zero. */
  public static Knob<Duration> positiveDuration(String name, Duration defaultValue, String doc)
  {
    return new Knob<>(name, defaultValue, "> " + Duration.ZERO, v -> v != null && v.compareTo(Duration.ZERO) > 0,
                      null, doc);
  }

  /** A flag; any value but null. */
  public static Knob<Boolean> flag(String name, boolean defaultValue, String doc)
  {
    return new Knob<>(name, defaultValue, "true or false", Objects::nonNull, null, doc);
  }

  /** A value {@code valid} accepts, which {@code requirement} describes (e.g. "a list of lane names"). */
  public static <T> Knob<T> of(String name, T defaultValue, String requirement, Predicate<? super T> valid, String doc)
  {
    return new Knob<>(name, defaultValue, requirement, valid, null, doc);
  }

  /**
   * The one wording of a bad value: {@code <what> must be <requirement>, got [<value>]}, e.g.
   * {@code gamma must be in [0, 1], got [1.5]}.
   */
  public static String mustBe(String what, String requirement, Object got)
  {
    return what + " must be " + requirement + ", got [" + got + "]";
  }

  /**
   * The problem of a knob bounded below by another one's value ({@code maxReplicas >= minReplicas}), or null if
   * {@code value} is not below {@code lower}.
   */
  public static String belowOther(String name, Number value, String lowerName, Number lower)
  {
    if (value.doubleValue() >= lower.doubleValue()) {
      return null;
    }
    return mustBe(name, ">= " + lowerName + " [" + lower + "]", value);
  }

  public boolean accepts(T value)
  {
    return valid.test(value);
  }

  /** Why {@code value} is not valid, naming this knob, or null if it is. */
  public String problem(T value)
  {
    return problemAs(name, value);
  }

  /** As {@link #problem}, naming {@code what} instead: the same range where a caller spells the knob its own way. */
  public String problemAs(String what, T value)
  {
    return accepts(value) ? null : mustBe(what, requirement, value);
  }

  /** @throws IllegalArgumentException naming this knob and the value, if it is not valid */
  public T check(T value)
  {
    return checkAs(name, value);
  }

  /** @throws IllegalArgumentException naming {@code what} and the value, if it is not valid */
  public T checkAs(String what, T value)
  {
    final String problem = problemAs(what, value);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return value;
  }

  @Override
  public String toString()
  {
    return name + " (default " + defaultValue + ", " + requirement + "): " + doc;
  }
}
