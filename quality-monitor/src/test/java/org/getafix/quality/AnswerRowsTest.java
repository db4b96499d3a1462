package org.getafix.quality;

import org.apache.druid.java.util.common.DateTimes;
import org.apache.druid.java.util.common.granularity.Granularities;
import org.apache.druid.java.util.common.granularity.Granularity;
import org.apache.druid.query.Result;
import org.apache.druid.query.aggregation.LongSumAggregatorFactory;
import org.apache.druid.query.topn.TopNQuery;
import org.apache.druid.query.topn.TopNQueryBuilder;
import org.apache.druid.query.topn.TopNResultValue;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.QueryType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AnswerRowsTest
{
  private static TopNQuery topN(Granularity granularity)
  {
    return new TopNQueryBuilder().dataSource("ds")
                                 .intervals("2025-01-01/2025-01-02")
                                 .granularity(granularity)
                                 .dimension("page")
                                 .metric("edits")
                                 .threshold(2)
                                 .aggregators(new LongSumAggregatorFactory("edits", "edits"))
                                 .build();
  }

  private static Result<TopNResultValue> at(String time, long a, long b)
  {
    return new Result<>(
        DateTimes.of(time),
        TopNResultValue.create(List.of(Map.of("page", "a", "edits", a), Map.of("page", "b", "edits", b)))
    );
  }

  private static AnswerQuality quality(TopNQuery query, List<?> online, List<?> mature)
  {
    return QueryType.find(query.getType())
                    .orElseThrow()
                    .measure(AnswerRows.of(query, online), AnswerRows.of(query, mature));
  }

  @Test
  void aTopNOverAllTimeIsScoredOnWhatItHoldsWhenItsEarliestHourWasLate()
  {
    final TopNQuery query = topN(Granularities.ALL);
    // Druid stamps the single bucket with the earliest data read: 01:00 when the 00:00 segment was late.
    final AnswerQuality partial = quality(query, List.of(at("2025-01-01T01", 9, 5)), List.of(at("2025-01-01T00", 10, 5)));
    assertEquals(1.0, partial.rowRecall(), 1e-9, "both pages are there: " + partial);
    assertEquals(2, partial.matchedRows());
  }

  @Test
  void hourlyBucketsStillTellHoursApart()
  {
    final TopNQuery query = topN(Granularities.HOUR);
    final AnswerQuality quality = quality(query, List.of(at("2025-01-01T01", 10, 5)), List.of(at("2025-01-01T00", 10, 5)));
    assertEquals(0.0, quality.rowRecall(), 1e-9, "another hour's rows are not this hour's: " + quality);
  }
}
