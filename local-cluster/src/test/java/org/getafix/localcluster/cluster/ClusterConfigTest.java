package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ClusterConfigTest
{
  private static ClusterConfig.Builder base()
  {
    return ClusterConfig.builder().workDir(Path.of("/tmp/w")).druidLibDir(Path.of("/tmp/lib")).historicals(3);
  }

  @Test
  void equalConfigsAreEqualSoASharedClusterIsReused()
  {
    final ClusterConfig a = base().cpuQuotas(1.0, 0.5, 0.25).property(DruidRole.BROKER, "k", "v").build();
    final ClusterConfig b = base().cpuQuotas(1.0, 0.5, 0.25).property(DruidRole.BROKER, "k", "v").build();
    assertEquals(a, b);
    assertEquals(a, a.toBuilder().build());
    assertNotEquals(a, a.toBuilder().historicalProperty(2, "druid.processing.numThreads", "1").build());
    assertNotEquals(a, a.toBuilder().commonProperty("druid.emitter", "logging").build());
  }

  @Test
  void rejectsQuotasThatDoNotMatchTheHistoricals()
  {
    assertThrows(IllegalArgumentException.class, () -> base().cpuQuotas(1.0, 0.5).build());
    assertThrows(IllegalArgumentException.class, () -> base().cpuQuotas(1.0, Double.NaN, 0.5).build());
    assertThrows(IllegalArgumentException.class, () -> base().historicals(0).cpuQuotas(List.of()).build());
    assertThrows(IllegalArgumentException.class, () -> base().historicalProperty(3, "k", "v").build());
  }

  @Test
  void fallbackThreadsFollowTheQuota()
  {
    assertEquals(4, LocalDruidCluster.fallbackProcessingThreads(1.0));
    assertEquals(2, LocalDruidCluster.fallbackProcessingThreads(0.5));
    assertEquals(1, LocalDruidCluster.fallbackProcessingThreads(0.25));
    assertEquals(1, LocalDruidCluster.fallbackProcessingThreads(0.05));
    assertEquals(4, LocalDruidCluster.fallbackProcessingThreads(-1));
  }
}
