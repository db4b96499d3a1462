package org.getafix.core.quality;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The similarity functions behind {@link QueryType#measure}: Ubora's true-positive rate over row identities, and a
 * value error for the numbers. Stateless and thread-safe. A null answer reads as an empty one.
 */
public final class AnswerQualityMetrics
{
  private AnswerQualityMetrics()
  {
  }

  /**
   * |online − mature| / |mature|, capped at 1 so that one wild value cannot outweigh the rest of an answer.
   * Degenerate values: equal values (both 0, equal infinities) have error 0; both NaN (e.g. an average over no
   * rows in both answers) have error 0; exactly one NaN, a zero mature value with a non-zero online value, or an
   * infinity on one side only have error 1.
   */
  public static double boundedRelativeError(double online, double mature)
  {
    if (Double.isNaN(online) || Double.isNaN(mature)) {
      return Double.isNaN(online) && Double.isNaN(mature) ? 0 : 1;
    }
    if (online == mature) {
      return 0;
    }
    if (mature == 0 || Double.isInfinite(mature) || Double.isInfinite(online)) {
      return 1;
    }
    return Math.min(1, Math.abs(online - mature) / Math.abs(mature));
  }

  /**
   * Timeseries and plain aggregates: 1 − the mean bounded relative error over every (bucket, metric) pair. A
   * bucket missing from the online answer counts as error 1 for each of its metrics, and so does a bucket only the
   * online answer has: both are wrong numbers a user would see. The headline quality is this value accuracy.
   */
  public static AnswerQuality valueAccuracy(List<AnswerRow> online, List<AnswerRow> mature)
  {
    final Matching matching = Matching.of(online, mature, AnswerRow::dimensions);
    final ErrorSum errors = new ErrorSum();
    for (AnswerRow[] pair : matching.pairs) {
      errors.addPair(pair[0], pair[1]);
    }
    for (AnswerRow unmatched : matching.unmatchedMature) {
      errors.addWrong(Math.max(1, unmatched.metrics().size()));
    }
    for (AnswerRow unmatched : matching.unmatchedOnline) {
      errors.addWrong(Math.max(1, unmatched.metrics().size()));
    }
    final double accuracy = errors.accuracy();
    return matching.quality(accuracy, accuracy);
  }

  /**
   * TopN and groupBy: rows are identified by their dimension values (for topN, the bucket time and the ranked
   * dimension value). rowRecall is the top-K overlap / group true-positive rate; valueAccuracy is 1 − the mean
   * bounded relative error over the metrics of the matched rows only. The headline quality is their product: an
   * answer with every group but half-counted values is not a perfect answer, and neither is one with exact values
   * for half of the groups.
   */
  public static AnswerQuality rowRecallAndValueAccuracy(List<AnswerRow> online, List<AnswerRow> mature)
  {
    final Matching matching = Matching.of(online, mature, AnswerRow::dimensions);
    final ErrorSum errors = new ErrorSum();
    for (AnswerRow[] pair : matching.pairs) {
      errors.addPair(pair[0], pair[1]);
    }
    final double accuracy = errors.accuracy();
    return matching.quality(matching.recall() * accuracy, accuracy);
  }

  /**
   * Scan: a row counts as found only if the online answer has an identical row (every column equal); duplicates
   * count as many times as they occur. The headline quality is the row true-positive rate.
   */
  public static AnswerQuality rowRecall(List<AnswerRow> online, List<AnswerRow> mature)
  {
    final Matching matching = Matching.of(online, mature, row -> row);
    return matching.quality(matching.recall(), 1);
  }

  /** Pairs mature rows with online rows of the same identity; duplicates pair up in order (a multiset match). */
  private static final class Matching
  {
    private final int onlineRows;
    private final int matureRows;
    private final List<AnswerRow[]> pairs = new ArrayList<>();
    private final List<AnswerRow> unmatchedMature = new ArrayList<>();
    private final List<AnswerRow> unmatchedOnline = new ArrayList<>();

    private Matching(int onlineRows, int matureRows)
    {
      this.onlineRows = onlineRows;
      this.matureRows = matureRows;
    }

    static Matching of(List<AnswerRow> online, List<AnswerRow> mature, Function<AnswerRow, Object> identity)
    {
      final List<AnswerRow> onlineRows = online == null ? List.of() : online;
      final List<AnswerRow> matureRows = mature == null ? List.of() : mature;
      final Matching matching = new Matching(onlineRows.size(), matureRows.size());
      final Map<Object, ArrayDeque<AnswerRow>> byIdentity = new HashMap<>();
      for (AnswerRow row : onlineRows) {
        if (row != null) {
          byIdentity.computeIfAbsent(identity.apply(row), k -> new ArrayDeque<>()).add(row);
        }
      }
      final Set<AnswerRow> matchedOnline = Collections.newSetFromMap(new IdentityHashMap<>());
      for (AnswerRow row : matureRows) {
        if (row == null) {
          continue;
        }
        final ArrayDeque<AnswerRow> candidates = byIdentity.get(identity.apply(row));
        final AnswerRow match = candidates == null ? null : candidates.poll();
        if (match == null) {
          matching.unmatchedMature.add(row);
        } else {
          matching.pairs.add(new AnswerRow[]{match, row});
          matchedOnline.add(match);
        }
      }
      for (AnswerRow row : onlineRows) {
        if (row != null && !matchedOnline.contains(row)) {
          matching.unmatchedOnline.add(row);
        }
      }
      return matching;
    }

    /** Both empty: 1 (nothing was missed). Mature empty, online not: 0 (everything shown is spurious). */
    double recall()
    {
      if (matureRows == 0) {
        return onlineRows == 0 ? 1 : 0;
      }
      return (double) pairs.size() / matureRows;
    }

    AnswerQuality quality(double headline, double valueAccuracy)
    {
      return new AnswerQuality(clamp(headline), clamp(recall()), clamp(valueAccuracy), onlineRows, matureRows,
                               pairs.size());
    }
  }

  private static final class ErrorSum
  {
    private double sum;
    private long count;

    void addPair(AnswerRow online, AnswerRow mature)
    {
      final Set<String> names = new HashSet<>(mature.metrics().keySet());
      names.addAll(online.metrics().keySet());
      for (String name : names) {
        sum += boundedRelativeError(online.metric(name), mature.metric(name));
        count++;
      }
    }

    void addWrong(int values)
    {
      sum += values;
      count += values;
    }

    /** 1 when there was nothing to compare. */
    double accuracy()
    {
      return count == 0 ? 1 : 1 - sum / count;
    }
  }

  private static double clamp(double value)
  {
    return Double.isNaN(value) ? 0 : Math.max(0, Math.min(1, value));
  }
}
