package org.getafix.localcluster.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  void aStockBrokerIsOffByDefaultAndPartOfTheConfigsValue()
  {
    assertNull(base().build().stockBroker(), "existing clusters are unchanged");
    final ClusterConfig withStock = base()
        .extension(Path.of("/ext/druid-getafix-extension"))
        .extension(Path.of("/ext/getafix-quality-monitor"))
        .stockBroker(new ClusterConfig.StockBroker(List.of("getafix-quality-monitor"), Map.of("k", "v")))
        .build();
    assertEquals(withStock, withStock.toBuilder().build());
    assertNotEquals(withStock, withStock.toBuilder().stockBroker(null).build());
    assertEquals(List.of("getafix-quality-monitor"), withStock.stockBroker().withoutExtensions());
  }

  @Test
  void aStockBrokerLeavesOutOnlyExtensionsThatAreInstalled()
  {
    final IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> base().extension(Path.of("/ext/getafix-quality-monitor"))
                    .stockBroker(new ClusterConfig.StockBroker(List.of("getafix-quality-monitr"), Map.of()))
                    .build()
    );
    assertTrue(e.getMessage().contains("getafix-quality-monitr"), e.getMessage());
  }

  @Test
  void theStockBrokerHasTheBrokersPropertiesOnItsOwnPortWithoutTheExtensionsItLeavesOut()
  {
    final Map<String, String> broker = Map.of(
        "druid.plaintextPort", "8082",
        "druid.extensions.loadList", "[\"a\",\"quality\",\"c\"]",
        "druid.broker.balancer.type", "getafixAbr",
        "druid.server.http.numThreads", "16"
    );
    final Map<String, String> stock = LocalDruidCluster.stockBrokerProperties(
        broker,
        List.of("a", "quality", "c"),
        new ClusterConfig.StockBroker(List.of("quality"), Map.of("druid.server.http.numThreads", "8")),
        9000
    );
    assertEquals("9000", stock.get("druid.plaintextPort"));
    assertEquals("[\"a\",\"c\"]", stock.get("druid.extensions.loadList"));
    assertEquals("getafixAbr", stock.get("druid.broker.balancer.type"), "otherwise the Broker's own");
    assertEquals("8", stock.get("druid.server.http.numThreads"), "its own properties last");
    assertEquals(4, stock.size());
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
