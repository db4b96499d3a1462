package org.getafix.localcluster.workload;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryMixTest
{
  private final SyntheticDataset dataset = SyntheticDataset.hourly("ds", 100, 10);

  @Test
  void queriesStayInsideTheDatasetAndFavourRecentHours()
  {
    final QueryMix mix = QueryMix.defaultMix(dataset);
    final SplittableRandom random = new SplittableRandom(1);
    final int[] endsPerQuarter = new int[4];
    for (int i = 0; i < 10_000; i++) {
      final WorkloadQuery q = mix.next(random);
      assertTrue(q.fromHour() >= 0 && q.fromHour() < q.toHourExclusive() && q.toHourExclusive() <= 100, q.toString());
      assertEquals(List.of(dataset.interval(q.fromHour(), q.toHourExclusive())), q.intervals());
      assertEquals(q.intervals(), q.query().get("intervals"));
      endsPerQuarter[(q.toHourExclusive() - 1) / 25]++;
    }
    // Exponential recency with a 12-hour mean: ~88% of queries end in the newest quarter, very few in the oldest.
    assertTrue(endsPerQuarter[3] > 8_000, "newest quarter: " + endsPerQuarter[3]);
    assertTrue(endsPerQuarter[0] < 100, "oldest quarter: " + endsPerQuarter[0]);
  }

  @Test
  void kindsFollowTheWeights()
  {
    final QueryMix mix = new QueryMix(dataset, 12, 0.6, 0.3, 0.1, 0);
    final SplittableRandom random = new SplittableRandom(2);
    final Map<QueryKind, Integer> counts = new EnumMap<>(QueryKind.class);
    for (int i = 0; i < 10_000; i++) {
      final WorkloadQuery q = mix.next(random);
      counts.merge(q.kind(), 1, Integer::sum);
      final String expectedType = switch (q.kind()) {
        case TIMESERIES -> "timeseries";
        case TOPN -> "topN";
        case GROUP_BY -> "groupBy";
      };
      assertEquals(expectedType, q.query().get("queryType"));
      assertTrue(!q.query().containsKey("filter"), "filterProbability 0 but got a filter");
    }
    assertEquals(0.6, counts.get(QueryKind.TIMESERIES) / 10_000.0, 0.03);
    assertEquals(0.3, counts.get(QueryKind.TOPN) / 10_000.0, 0.03);
    assertEquals(0.1, counts.get(QueryKind.GROUP_BY) / 10_000.0, 0.03);
  }

  @Test
  void rejectsBadParameters()
  {
    assertThrows(IllegalArgumentException.class, () -> new QueryMix(dataset, Double.NaN, 1, 1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new QueryMix(dataset, 12, -1, 1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new QueryMix(dataset, 12, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new QueryMix(dataset, 12, 1, 1, 1, 1.5));
  }
}
