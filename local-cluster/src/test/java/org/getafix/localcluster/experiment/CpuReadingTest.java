package org.getafix.localcluster.experiment;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CpuReadingTest
{
  @Test
  void theHistoricalsCpuIsTheSumOfEachOnesUseSince()
  {
    final CpuReading before = new CpuReading(List.of(1_000_000_000L, 5_000_000_000L, 0L), 7_000_000_000L);
    final CpuReading after = new CpuReading(List.of(3_500_000_000L, 5_250_000_000L, 100_000_000L), 7_400_000_000L);
    assertEquals(2.5 + 0.25 + 0.1, after.historicalSecondsSince(before), 1e-12);
    assertEquals(0.4, after.brokerSecondsSince(before), 1e-12);
  }

  @Test
  void readsOfDifferentClustersDoNotCompare()
  {
    assertThrows(
        IllegalArgumentException.class,
        () -> new CpuReading(List.of(1L, 2L), 0).historicalSecondsSince(new CpuReading(List.of(1L), 0))
    );
  }
}
