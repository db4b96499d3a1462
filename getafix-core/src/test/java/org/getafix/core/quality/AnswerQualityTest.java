package org.getafix.core.quality;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every metric on hand-made (online, mature) pairs, including empty and degenerate ones. */
class AnswerQualityTest
{
  private static final double EPS = 1e-12;

  private static AnswerRow bucket(long time, double count)
  {
    return AnswerRow.of(Map.of("__time", time), Map.of("count", count));
  }

  private static AnswerRow entry(String value, double metric)
  {
    return AnswerRow.of(Map.of("__time", 0L, "page", value), Map.of("edits", metric));
  }

  private static AnswerRow group(String country, String city, double sum, double avg)
  {
    final Map<String, Object> dims = new HashMap<>();
    dims.put("country", country);
    dims.put("city", city);
    return AnswerRow.of(dims, Map.of("sum", sum, "avg", avg));
  }

  private static AnswerRow scanRow(Object... columns)
  {
    final Map<String, Object> row = new HashMap<>();
    for (int i = 0; i < columns.length; i += 2) {
      row.put((String) columns[i], columns[i + 1]);
    }
    return AnswerRow.of(row, null);
  }

  @Test
  void boundedRelativeErrorCoversTheDegenerateValues()
  {
    assertEquals(0.25, AnswerQualityMetrics.boundedRelativeError(75, 100), EPS);
    assertEquals(0.25, AnswerQualityMetrics.boundedRelativeError(-75, -100), EPS);
    assertEquals(1, AnswerQualityMetrics.boundedRelativeError(500, 100), EPS, "capped at 1");
    assertEquals(0, AnswerQualityMetrics.boundedRelativeError(0, 0), EPS);
    assertEquals(1, AnswerQualityMetrics.boundedRelativeError(1e-9, 0), EPS, "anything but 0 against a true 0");
    assertEquals(0, AnswerQualityMetrics.boundedRelativeError(Double.NaN, Double.NaN), EPS);
    assertEquals(1, AnswerQualityMetrics.boundedRelativeError(Double.NaN, 3), EPS);
    assertEquals(1, AnswerQualityMetrics.boundedRelativeError(3, Double.NaN), EPS);
    assertEquals(0, AnswerQualityMetrics.boundedRelativeError(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY), EPS);
    assertEquals(1, AnswerQualityMetrics.boundedRelativeError(Double.POSITIVE_INFINITY, 3), EPS);
    assertEquals(1, AnswerQualityMetrics.boundedRelativeError(3, Double.NEGATIVE_INFINITY), EPS);
  }

  @Test
  void timeseriesIsOneMinusTheMeanRelativeError()
  {
    // Two of four buckets saw all segments; one saw half its rows, one three quarters.
    final List<AnswerRow> mature = List.of(bucket(1, 100), bucket(2, 200), bucket(3, 40), bucket(4, 80));
    final List<AnswerRow> online = List.of(bucket(1, 100), bucket(2, 200), bucket(3, 20), bucket(4, 60));
    final AnswerQuality quality = QueryType.TIMESERIES.measure(online, mature);
    assertEquals(1 - (0 + 0 + 0.5 + 0.25) / 4, quality.quality(), EPS);
    assertEquals(quality.quality(), quality.valueAccuracy(), EPS);
    assertEquals(1, quality.rowRecall(), EPS);
    assertEquals(4, quality.matchedRows());
  }

  @Test
  void timeseriesCountsMissingAndSpuriousBucketsAsWrong()
  {
    final List<AnswerRow> mature = List.of(bucket(1, 100), bucket(2, 200));
    final AnswerQuality missing = QueryType.TIMESERIES.measure(List.of(bucket(1, 100)), mature);
    assertEquals(0.5, missing.quality(), EPS);
    assertEquals(0.5, missing.rowRecall(), EPS);
    final AnswerQuality spurious = QueryType.TIMESERIES.measure(List.of(bucket(1, 100), bucket(2, 200), bucket(3, 1)),
                                                                mature);
    assertEquals(2.0 / 3, spurious.quality(), EPS);
    assertEquals(1, spurious.rowRecall(), EPS);
  }

  @Test
  void aSingleAggregateRowIsATimeseriesWithOneBucket()
  {
    final AnswerRow mature = AnswerRow.of(Map.of(), Map.of("rows", 1000.0, "sum", 50.0));
    final AnswerRow online = AnswerRow.of(Map.of(), Map.of("rows", 900.0, "sum", 50.0));
    assertEquals(1 - 0.1 / 2, QueryType.TIMESERIES.measure(List.of(online), List.of(mature)).quality(), EPS);
  }

  @Test
  void emptyAndDegenerateTimeseriesPairs()
  {
    final AnswerQuality bothEmpty = QueryType.TIMESERIES.measure(List.of(), List.of());
    assertEquals(1, bothEmpty.quality(), EPS);
    assertEquals(1, bothEmpty.rowRecall(), EPS);
    assertEquals(1, QueryType.TIMESERIES.measure(null, null).quality(), EPS, "null reads as empty");
    assertEquals(0, QueryType.TIMESERIES.measure(List.of(bucket(1, 5)), List.of()).quality(), EPS, "mature empty");
    assertEquals(0, QueryType.TIMESERIES.measure(List.of(), List.of(bucket(1, 5))).quality(), EPS, "online empty");
    assertEquals(1, QueryType.TIMESERIES.measure(List.of(bucket(1, 0)), List.of(bucket(1, 0))).quality(), EPS,
                 "zero values agree");
    assertEquals(0, QueryType.TIMESERIES.measure(List.of(bucket(1, 3)), List.of(bucket(1, 0))).quality(), EPS);
    assertEquals(1, QueryType.TIMESERIES.measure(List.of(bucket(1, Double.NaN)), List.of(bucket(1, Double.NaN)))
                                  .quality(), EPS, "NaN on both sides agrees");
    assertEquals(0, QueryType.TIMESERIES.measure(List.of(bucket(1, Double.NaN)), List.of(bucket(1, 4))).quality(),
                 EPS);
    // A null metric value reads as NaN; a metric only one side has is a wrong value.
    final Map<String, Double> withNull = new HashMap<>();
    withNull.put("count", null);
    final AnswerRow nullMetric = AnswerRow.of(Map.of("__time", 1L), withNull);
    assertEquals(1, QueryType.TIMESERIES.measure(List.of(nullMetric), List.of(bucket(1, Double.NaN))).quality(), EPS);
    final AnswerRow extraMetric = AnswerRow.of(Map.of("__time", 1L), Map.of("count", 4.0, "sum", 2.0));
    assertEquals(0.5, QueryType.TIMESERIES.measure(List.of(bucket(1, 4)), List.of(extraMetric)).quality(), EPS);
  }

  @Test
  void topNIsTheTopKOverlapTimesTheValueAccuracyOfTheOverlap()
  {
    final List<AnswerRow> mature = List.of(entry("a", 100), entry("b", 80), entry("c", 60), entry("d", 40));
    // The partial answer missed "c" (its rows were on a late segment) and undercounted "a".
    final List<AnswerRow> online = List.of(entry("a", 50), entry("b", 80), entry("d", 40), entry("e", 30));
    final AnswerQuality quality = QueryType.TOPN.measure(online, mature);
    assertEquals(0.75, quality.rowRecall(), EPS);
    assertEquals(1 - 0.5 / 3, quality.valueAccuracy(), EPS);
    assertEquals(0.75 * (1 - 0.5 / 3), quality.quality(), EPS);
    assertEquals(3, quality.matchedRows());
    // Rank order does not matter for overlap, only membership.
    final List<AnswerRow> reordered = new ArrayList<>(mature);
    java.util.Collections.reverse(reordered);
    assertEquals(1, QueryType.TOPN.measure(reordered, mature).quality(), EPS);
  }

  @Test
  void topNEntriesOfDifferentBucketsAreDifferentRows()
  {
    final AnswerRow early = AnswerRow.of(Map.of("__time", 0L, "page", "a"), Map.of("edits", 1.0));
    final AnswerRow late = AnswerRow.of(Map.of("__time", 1L, "page", "a"), Map.of("edits", 1.0));
    assertEquals(0.5, QueryType.TOPN.measure(List.of(early, early), List.of(early, late)).rowRecall(), EPS);
  }

  @Test
  void groupByIsTheGroupTruePositiveRateTimesValueAccuracy()
  {
    final List<AnswerRow> mature = List.of(group("fr", "paris", 10, 2), group("fr", null, 4, 1),
                                           group("de", "berlin", 6, 3));
    final List<AnswerRow> online = List.of(group("fr", "paris", 5, 2), group("fr", null, 4, 1));
    final AnswerQuality quality = QueryType.GROUP_BY.measure(online, mature);
    assertEquals(2.0 / 3, quality.rowRecall(), EPS, "null dimension values match each other");
    assertEquals(1 - 0.5 / 4, quality.valueAccuracy(), EPS);
    assertEquals(2.0 / 3 * (1 - 0.5 / 4), quality.quality(), EPS);
  }

  @Test
  void emptyAndDegenerateKeyedPairs()
  {
    for (QueryType type : new QueryType[]{QueryType.TOPN, QueryType.GROUP_BY}) {
      assertEquals(1, type.measure(List.of(), List.of()).quality(), EPS, type + " both empty");
      assertEquals(0, type.measure(List.of(entry("a", 1)), List.of()).quality(), EPS, type + " mature empty");
      assertEquals(0, type.measure(List.of(), List.of(entry("a", 1))).quality(), EPS, type + " online empty");
      final AnswerQuality disjoint = type.measure(List.of(entry("x", 1)), List.of(entry("a", 1)));
      assertEquals(0, disjoint.quality(), EPS, type + " disjoint");
      assertEquals(1, disjoint.valueAccuracy(), EPS, type + " nothing to compare");
      assertEquals(1, type.measure(List.of(entry("a", 0)), List.of(entry("a", 0))).quality(), EPS);
      assertEquals(0, type.measure(List.of(entry("a", 2)), List.of(entry("a", 0))).quality(), EPS);
      assertEquals(1, type.measure(List.of(entry("a", Double.NaN)), List.of(entry("a", Double.NaN))).quality(), EPS);
      assertEquals(0, type.measure(List.of(entry("a", Double.NaN)), List.of(entry("a", 2))).quality(), EPS);
    }
  }

  @Test
  void scanIsTheRowTruePositiveRateOverWholeRows()
  {
    final List<AnswerRow> mature = List.of(scanRow("id", 1, "x", "a"), scanRow("id", 2, "x", "b"),
                                           scanRow("id", 2, "x", "b"), scanRow("id", 3, "x", null));
    final List<AnswerRow> online = List.of(scanRow("id", 2, "x", "b"), scanRow("id", 3, "x", null),
                                           scanRow("id", 1, "x", "changed"));
    final AnswerQuality quality = QueryType.SCAN.measure(online, mature);
    assertEquals(0.5, quality.quality(), EPS, "one copy of the duplicate and the null row match; the changed row does not");
    assertEquals(1, quality.valueAccuracy(), EPS);
    assertEquals(1, QueryType.SCAN.measure(List.of(), List.of()).quality(), EPS);
    assertEquals(0, QueryType.SCAN.measure(List.of(scanRow("id", 1)), List.of()).quality(), EPS);
    assertEquals(0, QueryType.SCAN.measure(List.of(), List.of(scanRow("id", 1))).quality(), EPS);
  }

  @Test
  void scoresStayWithinZeroAndOneOnRandomAnswers()
  {
    final java.util.Random random = new java.util.Random(3);
    for (int trial = 0; trial < 500; trial++) {
      final List<AnswerRow> online = new ArrayList<>();
      final List<AnswerRow> mature = new ArrayList<>();
      for (int i = random.nextInt(6); i > 0; i--) {
        online.add(entry("k" + random.nextInt(5), random.nextInt(4) == 0 ? Double.NaN : random.nextGaussian() * 10));
      }
      for (int i = random.nextInt(6); i > 0; i--) {
        mature.add(entry("k" + random.nextInt(5), random.nextInt(4) == 0 ? 0 : random.nextGaussian() * 10));
      }
      for (QueryType type : QueryType.values()) {
        final AnswerQuality q = type.measure(online, mature);
        for (double score : new double[]{q.quality(), q.rowRecall(), q.valueAccuracy()}) {
          assertTrue(score >= 0 && score <= 1, type + " " + q);
        }
      }
    }
  }

  @Test
  void queryTypesByDruidName()
  {
    assertEquals(QueryType.TOPN, QueryType.fromDruidName("topN"));
    assertEquals(QueryType.GROUP_BY, QueryType.fromDruidName("groupBy"));
    assertTrue(QueryType.find("search").isEmpty());
    final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                                                        () -> QueryType.fromDruidName("search"));
    assertTrue(error.getMessage().contains("[search]") && error.getMessage().contains("timeseries"),
               error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> QueryType.fromDruidName(null));
  }

  @Test
  void rowsAreImmutableCopies()
  {
    final Map<String, Object> dims = new HashMap<>(Map.of("a", "x"));
    final AnswerRow row = AnswerRow.of(dims, Map.of("m", 1.0));
    dims.put("a", "y");
    assertEquals("x", row.dimensions().get("a"));
    assertThrows(UnsupportedOperationException.class, () -> row.dimensions().put("b", 1));
    assertTrue(Double.isNaN(row.metric("absent")));
  }
}
