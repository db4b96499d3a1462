package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.getafix.core.quality.split.PendingQueriesSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    assertEquals(0, config.getReplayQueueSize(), "replays are off unless asked for");
    assertEquals(60_000, config.getReplayExpiration().toStandardDuration().getMillis());
    assertEquals(0, config.getReplayIdleQueries(), "idle as Ubora means it: nothing in flight");
  }

  @Test
  void replayBoundsReadAsTheOperatorWritesThem()
  {
    final QualityConfig variable = MAPPER.convertValue(Map.of("replayExpiration", "P1M"), QualityConfig.class);
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, variable::validate);
    assertEquals("druid.getafix.quality.replayExpiration must be a fixed-length period, got [P1M]", e.getMessage());
    final QualityConfig tooLong = MAPPER.convertValue(Map.of("replayExpiration", "PT31M"), QualityConfig.class);
    assertEquals(
        "druid.getafix.quality.replayExpiration must be in [PT1S, PT30M], got [PT31M]",
        assertThrows(IllegalArgumentException.class, tooLong::validate).getMessage()
    );
    final QualityConfig off =
        MAPPER.convertValue(Map.of("replayQueueSize", 0, "replayIdleQueries", 3), QualityConfig.class);
    assertEquals(0, off.validate().getReplayQueueSize(), "0 replays nothing");
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
        Map.of("hedgeRatio", 0.0),
        Map.of("replayQueueSize", -1),
        Map.of("replayQueueSize", 10_001),
        Map.of("replayExpiration", "PT0.5S"),
        Map.of("replayExpiration", "PT31M"),
        Map.of("replayExpiration", "P1M"),
        Map.of("memoTtl", "P1M"),
        Map.of("replayIdleQueries", -1),
        Map.of("profileFile", "profiles\0.json")
    );
    for (Map<String, Object> properties : bad) {
      final QualityConfig config = MAPPER.convertValue(properties, QualityConfig.class);
      final String name = properties.keySet().iterator().next();
      final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, config::validate, name);
      assertTrue(e.getMessage().contains(QualityConfig.PREFIX + "." + name), e.getMessage());
    }
  }

  @Test
  void theProfileFileIsAFileOrNothing(@TempDir Path directory)
  {
    assertNull(QualityConfig.defaults().validate().getProfileFile(), "profiles are kept in memory only by default");
    final File file = directory.resolve("quality-profiles.json").toFile();
    final QualityConfig kept = MAPPER.convertValue(Map.of("profileFile", file.getPath()), QualityConfig.class);
    assertEquals(file, kept.validate().getProfileFile(), "a file that is not there yet is fine");

    final QualityConfig onDirectory =
        MAPPER.convertValue(Map.of("profileFile", directory.toString()), QualityConfig.class);
    assertEquals(
        "druid.getafix.quality.profileFile must be a file, not a directory, got [" + directory + "]",
        assertThrows(IllegalArgumentException.class, onDirectory::validate).getMessage()
    );
    final QualityConfig unset = MAPPER.convertValue(Collections.singletonMap("profileFile", null), QualityConfig.class);
    assertEquals(
        "druid.getafix.quality.profileFile must be a file path, or empty, got [null]",
        assertThrows(IllegalArgumentException.class, unset::validate).getMessage()
    );
  }

  @Test
  void theBudgetSplitIsOffUnlessAskedFor()
  {
    assertNull(QualityConfig.defaults().validate().budgetSplit(), "every query gets its controller's budget");
    assertNull(MAPPER.convertValue(Map.of("budgetSplit", "NONE"), QualityConfig.class).validate().budgetSplit());
    final PendingQueriesSplit split =
        MAPPER.convertValue(Map.of("budgetSplit", "MAX_QUALITY"), QualityConfig.class).validate().budgetSplit();
    assertEquals(PendingQueriesSplit.Method.MAX_QUALITY, split.method());
    assertEquals(
        PendingQueriesSplit.Method.EQ_RESV,
        MAPPER.convertValue(Map.of("budgetSplit", "EQ_RESV"), QualityConfig.class).validate().budgetSplit().method()
    );
    final QualityConfig unset = MAPPER.convertValue(Collections.singletonMap("budgetSplit", null), QualityConfig.class);
    assertEquals(
        "druid.getafix.quality.budgetSplit must be set, got [null]",
        assertThrows(IllegalArgumentException.class, unset::validate).getMessage()
    );
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
