package org.getafix.quality;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.druid.java.util.common.JodaUtils;
import org.joda.time.Interval;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How much of a budgeted query's data its answer covers, like Elasticsearch's {@code timed_out} and {@code _shards}:
 * segments asked for, answered in time and late, and the (condensed) intervals of the late ones. Immutable; two
 * coverages of the same query {@link #plus add up}, which is how the per-Historical clients report into one response
 * context concurrently.
 *
 * <p>At most {@value #MAX_MISSING_INTERVALS} missing intervals are kept (about 60 characters each: the response
 * context travels in an HTTP header of 7 KiB); {@code missingIntervalsTruncated} says when some were left out.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class Coverage
{
  public static final int MAX_MISSING_INTERVALS = 32;
  private static final Coverage NONE = new Coverage(0, 0, List.of(), false);

  private final int answered;
  private final int late;
  private final List<Interval> missingIntervals;
  private final boolean missingIntervalsTruncated;

  @JsonCreator
  public Coverage(
      @JsonProperty("answered") int answered,
      @JsonProperty("late") int late,
      @JsonProperty("missingIntervals") List<Interval> missingIntervals,
      @JsonProperty("missingIntervalsTruncated") boolean missingIntervalsTruncated
  )
  {
    this.answered = answered;
    this.late = late;
    this.missingIntervals = missingIntervals == null ? List.of() : List.copyOf(missingIntervals);
    this.missingIntervalsTruncated = missingIntervalsTruncated;
  }

  public static Coverage none()
  {
    return NONE;
  }

  public static Coverage answered(int segments)
  {
    return new Coverage(segments, 0, List.of(), false);
  }

  public static Coverage late(List<Interval> intervals)
  {
    return new Coverage(0, intervals.size(), List.of(), false).withMissing(intervals);
  }

  /** Both coverages of one query together; the missing intervals are condensed and capped. */
  public Coverage plus(Coverage other)
  {
    final List<Interval> union = new ArrayList<>(missingIntervals);
    union.addAll(other.missingIntervals);
    return new Coverage(answered + other.answered, late + other.late, List.of(), false)
        .withMissing(union)
        .truncatedIf(missingIntervalsTruncated || other.missingIntervalsTruncated);
  }

  private Coverage withMissing(List<Interval> intervals)
  {
    final List<Interval> condensed = JodaUtils.condenseIntervals(intervals);
    final boolean truncated = condensed.size() > MAX_MISSING_INTERVALS;
    return new Coverage(
        answered,
        late,
        truncated ? condensed.subList(0, MAX_MISSING_INTERVALS) : condensed,
        truncated
    );
  }

  private Coverage truncatedIf(boolean truncated)
  {
    return truncated ? new Coverage(answered, late, missingIntervals, true) : this;
  }

  /** Segments the query asked the Historicals for. */
  @JsonProperty
  public int getTotal()
  {
    return answered + late;
  }

  @JsonProperty
  public int getAnswered()
  {
    return answered;
  }

  @JsonProperty
  public int getLate()
  {
    return late;
  }

  /** Whether the budget cut off part of the answer. */
  @JsonProperty
  public boolean isTimedOut()
  {
    return late > 0;
  }

  /** Answered share of the segments, 1 when there were none. */
  public double fraction()
  {
    return getTotal() == 0 ? 1.0 : answered / (double) getTotal();
  }

  @JsonProperty
  public List<Interval> getMissingIntervals()
  {
    return missingIntervals;
  }

  @JsonProperty
  public boolean isMissingIntervalsTruncated()
  {
    return missingIntervalsTruncated;
  }

  @Override
  public boolean equals(Object o)
  {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Coverage)) {
      return false;
    }
    final Coverage that = (Coverage) o;
    return answered == that.answered
           && late == that.late
           && missingIntervalsTruncated == that.missingIntervalsTruncated
           && missingIntervals.equals(that.missingIntervals);
  }

  @Override
  public int hashCode()
  {
    return Objects.hash(answered, late, missingIntervals, missingIntervalsTruncated);
  }

  @Override
  public String toString()
  {
    return "Coverage{answered=" + answered + ", late=" + late + ", missingIntervals=" + missingIntervals
           + (missingIntervalsTruncated ? " (truncated)" : "") + '}';
  }
}
