package org.getafix.localcluster.experiment;

import org.getafix.localcluster.workload.SyntheticDataset;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaningWorkloadTest
{
  private static final SyntheticDataset DATASET = SyntheticDataset.hourly("ds", 100, 5_000);

  @Test
  void theConcaveWorkloadCyclesThroughOneQueryOfEachSize()
  {
    final int distinct = LaningWorkload.distinctQueries(DATASET);
    assertEquals(91, distinct, "10 to 100 hours");
    final Set<Object> intervals = new HashSet<>();
    for (long i = 0; i < distinct; i++) {
      intervals.add(LaningWorkload.CONCAVE.query(DATASET, i).get("intervals"));
    }
    assertEquals(distinct, intervals.size(), "each size once");
    assertEquals(LaningWorkload.CONCAVE.query(DATASET, 5), LaningWorkload.CONCAVE.query(DATASET, 5 + 3L * distinct));
    assertEquals(5, LaningWorkload.CONCAVE.firstAlike(DATASET, 5 + 3L * distinct));
    assertEquals(5 + 3L * distinct, LaningWorkload.HOURLY.firstAlike(DATASET, 5 + 3L * distinct), "does not cycle");
    assertNotEquals(
        LaningWorkload.HOURLY.query(DATASET, 5).get("intervals"),
        LaningWorkload.HOURLY.query(DATASET, 5 + distinct).get("intervals")
    );
  }

  @Test
  void theConcaveQueryIsOneBucketOfAMeanAndADistinctCount()
  {
    final Map<String, Object> query = LaningWorkload.CONCAVE.query(DATASET, 0);
    assertEquals("timeseries", query.get("queryType"));
    assertEquals("all", query.get("granularity"));
    assertEquals(
        List.of("doubleMean", "cardinality"),
        ((List<?>) query.get("aggregations")).stream().map(a -> ((Map<?, ?>) a).get("type")).toList()
    );
    assertEquals("hour", LaningWorkload.HOURLY.query(DATASET, 0).get("granularity"));
    assertTrue(LaningWorkload.CONCAVE.measuresAnswers());
    assertFalse(LaningWorkload.HOURLY.measuresAnswers());
  }
}
