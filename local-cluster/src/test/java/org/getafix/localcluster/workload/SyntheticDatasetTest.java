package org.getafix.localcluster.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyntheticDatasetTest
{
  @Test
  void writesOneFileOfRowsPerHourWithTimestampsInsideTheHour(@TempDir Path dir) throws Exception
  {
    final SyntheticDataset dataset = SyntheticDataset.hourly("ds", 3, 50);
    dataset.writeFiles(dir);
    for (int h = 0; h < 3; h++) {
      final List<String> lines = Files.readAllLines(dir.resolve(String.format("hour-%05d.csv", h)));
      assertEquals(50, lines.size());
      final long hourStart = dataset.start().toEpochMilli() + h * 3_600_000L;
      for (String line : lines) {
        final String[] cols = line.split(",");
        assertEquals(6, cols.length, line);
        final long ts = Long.parseLong(cols[0]);
        assertTrue(ts >= hourStart && ts < hourStart + 3_600_000L, line);
      }
    }
  }

  @Test
  void sameSeedSameData(@TempDir Path a, @TempDir Path b) throws Exception
  {
    final SyntheticDataset dataset = SyntheticDataset.hourly("ds", 2, 100);
    dataset.writeFiles(a);
    dataset.writeFiles(b);
    assertEquals(Files.readString(a.resolve("hour-00001.csv")), Files.readString(b.resolve("hour-00001.csv")));
  }

  @Test
  void ingestionSpecMakesHourlySegmentsWithoutRollup(@TempDir Path dir)
  {
    final SyntheticDataset dataset = new SyntheticDataset("wiki", Instant.parse("2025-03-01T10:17:00Z"), 24, 10, 1);
    assertEquals("2025-03-01T10:00:00Z/2025-03-02T10:00:00Z", dataset.interval());
    final Map<?, ?> spec = dataset.ingestionSpec(dir);
    assertEquals("index_parallel", spec.get("type"));
    final Map<?, ?> dataSchema = (Map<?, ?>) ((Map<?, ?>) spec.get("spec")).get("dataSchema");
    final Map<?, ?> granularity = (Map<?, ?>) dataSchema.get("granularitySpec");
    assertEquals("HOUR", granularity.get("segmentGranularity"));
    assertEquals(false, granularity.get("rollup"));
    assertEquals(List.of(dataset.interval()), granularity.get("intervals"));
  }

  @Test
  void zipfFavoursLowRanks()
  {
    final SyntheticDataset.Zipf zipf = new SyntheticDataset.Zipf(30, 1.0);
    final SplittableRandom random = new SplittableRandom(3);
    final Map<Integer, Integer> counts = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      final int rank = zipf.sample(random);
      assertTrue(rank >= 0 && rank < 30);
      counts.merge(rank, 1, Integer::sum);
    }
    assertTrue(counts.get(0) > 3 * counts.getOrDefault(10, 0), counts.toString());
  }

  @Test
  void rejectsEmptyDatasets()
  {
    assertThrows(IllegalArgumentException.class, () -> SyntheticDataset.hourly("ds", 0, 10));
    assertThrows(IllegalArgumentException.class, () -> SyntheticDataset.hourly(" ", 1, 10));
  }
}
