package org.getafix.druid.coordinator.config;

import com.google.inject.Provider;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.getafix.core.placement.packing.SplitPolicy;
import org.getafix.druid.coordinator.GetafixCoordinatorModule;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runtime properties as Druid's JsonConfigProvider binds them (druid.getafix.* → Jackson). */
class GetafixConfigTest
{
  private static GetafixConfig read(String json) throws Exception
  {
    return new DefaultObjectMapper().readValue(json, GetafixConfig.class);
  }

  @Test
  void splitDefaultsToEvenAndAcceptsThesis() throws Exception
  {
    assertEquals(SplitPolicy.EVEN, new GetafixConfig().getSplitPolicy());
    assertEquals(SplitPolicy.EVEN, read("{\"planning\": {}}").getSplitPolicy());
    assertEquals(SplitPolicy.THESIS, read("{\"planning\": {\"split\": \"thesis\"}}").getSplitPolicy());
    assertEquals(SplitPolicy.EVEN, read("{\"planning\": {\"split\": \"EVEN\"}}").getSplitPolicy());
  }

  @Test
  void anUnknownSplitIsAnErrorNamingTheValue() throws Exception
  {
    final GetafixConfig config = read("{\"planning\": {\"split\": \"halves\"}}");
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, config::getSplitPolicy);
    assertTrue(e.getMessage().contains("druid.getafix.planning.split"), e.getMessage());
    assertTrue(e.getMessage().contains("[halves]"), e.getMessage());
  }

  @Test
  void estimatorsGoByTheirRegistryNames() throws Exception
  {
    assertEquals("throughput", new GetafixConfig().getCapacityEstimator());
    assertEquals("cpu-time", read("{\"capacity\": {\"estimator\": \"cpu-time\"}}").getCapacityEstimator());
    final GetafixConfig old = read("{\"capacity\": {\"estimator\": \"cpuTime\"}}");
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, old::getCapacityEstimator);
    assertEquals(
        "druid.getafix.capacity.estimator must be one of [cpu-time, throughput], got [cpuTime]",
        e.getMessage()
    );
  }

  private static Provider<GetafixConfig> provider(GetafixConfig config)
  {
    return () -> config;
  }

  @Test
  void theModuleStopsTheCoordinatorOnTheFirstBadPropertyNamingIt() throws Exception
  {
    final GetafixCoordinatorModule module = new GetafixCoordinatorModule();
    assertEquals(SplitPolicy.EVEN, module.getafixConfig(provider(read("{}"))).getSplitPolicy());
    for (String bad : new String[]{
        "{\"popularity\": {\"decay\": 1.5}}",
        "{\"capacity\": {\"smoothing\": 0}}",
        "{\"round\": {\"period\": \"PT0.1S\"}}",
        "{\"stats\": {\"timeout\": \"PT0S\"}}",
        "{\"planning\": {\"split\": \"halves\"}}"
    }) {
      final IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> module.getafixConfig(provider(read(bad))), bad);
      assertTrue(e.getMessage().startsWith("druid.getafix."), e.getMessage());
    }
  }
}
