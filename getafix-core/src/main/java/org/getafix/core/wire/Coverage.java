package org.getafix.core.wire;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How much of a budgeted query's data its answer covers, like Elasticsearch's {@code timed_out} and {@code _shards}:
 * the Broker's {@value QueryContextKeys#COVERAGE} response-context entry, read by clients from the
 * {@code X-Druid-Response-Context} header and shown with each mature run on the quality endpoint. Written as
 * {@code {"answered", "late", "missingIntervals", "missingIntervalsTruncated", "total", "timedOut"}}; the last two are
 * derived, and a reader ignores them.
 *
 * <p>Two coverages of the same query {@link #plus add up}. At most {@value #MAX_MISSING_INTERVALS} condensed missing
 * intervals are kept (about 60 characters each: the response context travels in an HTTP header of 7 KiB);
 * {@code missingIntervalsTruncated} says when some were left out. An interval is ISO-8601 {@code start/end} in UTC
 * with milliseconds, as Druid writes them.
 *
 * @param answered                  segments whose Historical answered within the budget
 * @param late                      segments cut off at the budget
 * @param missingIntervals          the late segments' intervals, condensed
 * @param missingIntervalsTruncated whether some missing intervals were left out
 */
public record Coverage(int answered, int late, List<String> missingIntervals, boolean missingIntervalsTruncated)
{
  public static final int MAX_MISSING_INTERVALS = 32;
  private static final Coverage NONE = new Coverage(0, 0, List.of(), false);
  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  public Coverage
  {
    if (answered < 0 || late < 0) {
      throw new IllegalArgumentException("segment counts must be >= 0, got answered [" + answered + "], late [" + late + "]");
    }
    missingIntervals = missingIntervals == null ? List.of() : List.copyOf(missingIntervals);
  }

  public static Coverage none()
  {
    return NONE;
  }

  public static Coverage answered(int segments)
  {
    return new Coverage(segments, 0, List.of(), false);
  }

  /** {@code intervals.size()} late segments, one interval each ({@code start/end}, any ISO-8601 instants). */
  public static Coverage late(List<String> intervals)
  {
    return withMissing(0, intervals.size(), intervals, false);
  }

  /** Both coverages of one query together; the missing intervals are condensed and capped. */
  public Coverage plus(Coverage other)
  {
    final List<String> union = new ArrayList<>(missingIntervals);
    union.addAll(other.missingIntervals);
    return withMissing(
        answered + other.answered,
        late + other.late,
        union,
        missingIntervalsTruncated || other.missingIntervalsTruncated
    );
  }

  /** Segments the query asked the Historicals for. */
  public int total()
  {
    return answered + late;
  }

  /** Whether the budget cut off part of the answer. */
  public boolean timedOut()
  {
    return late > 0;
  }

  /** Answered share of the segments, 1 when there were none. */
  public double fraction()
  {
    return total() == 0 ? 1.0 : answered / (double) total();
  }

  private static Coverage withMissing(int answered, int late, List<String> intervals, boolean truncated)
  {
    final List<String> condensed = condense(intervals);
    final boolean cut = condensed.size() > MAX_MISSING_INTERVALS;
    return new Coverage(answered, late, cut ? condensed.subList(0, MAX_MISSING_INTERVALS) : condensed, truncated || cut);
  }

  /** Sorted by start, overlapping and abutting intervals merged; an interval that does not parse is kept as it is. */
  private static List<String> condense(List<String> intervals)
  {
    final List<long[]> spans = new ArrayList<>();
    final List<String> unparsed = new ArrayList<>();
    for (String interval : intervals) {
      final long[] span = parse(interval);
      if (span == null) {
        unparsed.add(interval);
      } else {
        spans.add(span);
      }
    }
    spans.sort(Comparator.<long[]>comparingLong(s -> s[0]).thenComparingLong(s -> s[1]));
    final List<String> condensed = new ArrayList<>();
    long[] open = null;
    for (long[] span : spans) {
      if (open != null && span[0] <= open[1]) {
        open[1] = Math.max(open[1], span[1]);
      } else {
        if (open != null) {
          condensed.add(format(open));
        }
        open = span.clone();
      }
    }
    if (open != null) {
      condensed.add(format(open));
    }
    condensed.addAll(unparsed);
    return condensed;
  }

  private static long[] parse(String interval)
  {
    final int slash = interval == null ? -1 : interval.indexOf('/');
    if (slash < 0) {
      return null;
    }
    try {
      final long start = Instant.parse(interval.substring(0, slash)).toEpochMilli();
      final long end = Instant.parse(interval.substring(slash + 1)).toEpochMilli();
      return start <= end ? new long[]{start, end} : null;
    }
    catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String format(long[] span)
  {
    return ISO_MILLIS.format(Instant.ofEpochMilli(span[0])) + "/" + ISO_MILLIS.format(Instant.ofEpochMilli(span[1]));
  }
}
