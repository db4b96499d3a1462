package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QualityConfigTest
{
  private static final ObjectMapper MAPPER = new DefaultObjectMapper();

  @Test
  void theDefaultsAreValid()
  {
    final QualityConfig config = QualityConfig.defaults().validate();
    assertEquals(0.1, config.getMatureSampleRate());
    assertEquals(300_000, config.getMaxBudgetMs());
    assertFalse(config.isHedging(), "hedging is off unless asked for");
    assertEquals(0.95, config.hedgeSettings().quantile());
    assertEquals(0.05, config.hedgeSettings().hedgeRatio());
  }

  @Test
  void aBadPropertyFailsStartupNamingIt()
  {
    final List<Map<String, Object>> bad = List.of(
        Map.of("maxBudgetMs", 0),
        Map.of("readerThreads", -1),
        Map.of("matureSampleRate", 1.5),
        Map.of("matureSampleRate", -0.1),
        Map.of("matureTimeoutMs", 0),
        Map.of("maxMatureRuns", 0),
        Map.of("memoMaxBytes", 0),
        Map.of("memoMaxEntries", 0),
        Map.of("memoTtl", "PT0S"),
        Map.of("hedgeQuantile", 1.0),
        Map.of("hedgeRatio", 0.0)
    );
    for (Map<String, Object> properties : bad) {
      final QualityConfig config = MAPPER.convertValue(properties, QualityConfig.class);
      final String name = properties.keySet().iterator().next();
      final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, config::validate, name);
      assertTrue(e.getMessage().contains(QualityConfig.PREFIX + "." + name), e.getMessage());
    }
  }

  @Test
  void theModuleHandsOutOnlyAValidatedConfig()
  {
    final QualityConfig bad = MAPPER.convertValue(Map.of("minBudgetMs", 20, "maxBudgetMs", 10), QualityConfig.class);
    final IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new GetafixQualityModule().qualityConfig(() -> bad));
    assertEquals(
        "druid.getafix.quality.maxBudgetMs must be >= druid.getafix.quality.minBudgetMs [20], got [10]",
        e.getMessage()
    );
  }
}
