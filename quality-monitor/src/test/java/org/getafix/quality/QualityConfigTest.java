package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.Provider;
import com.google.inject.name.Names;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.guice.StartupInjectorBuilder;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.getafix.core.quality.split.PendingQueriesSplit;
import org.getafix.core.redundancy.SubQuerySplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

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
  void subQueriesAreSplitWhenLateUnlessAskedToSplitAlways()
  {
    assertEquals(SubQuerySplit.Trigger.LATE, QualityConfig.defaults().validate().getSplitWhen());
    assertEquals(
        SubQuerySplit.Trigger.ALWAYS,
        MAPPER.convertValue(Map.of("splitWhen", "ALWAYS"), QualityConfig.class).validate().getSplitWhen()
    );
    final QualityConfig unset = MAPPER.convertValue(Collections.singletonMap("splitWhen", null), QualityConfig.class);
    assertEquals(
        "druid.getafix.quality.splitWhen must be set, got [null]",
        assertThrows(IllegalArgumentException.class, unset::validate).getMessage()
    );
  }

  /**
   * Bound by Druid's own JsonConfigurator, as on a Broker: an unknown trigger stops the Broker at start, and the log
   * says which value was refused and which are known.
   */
  @Test
  void anUnknownSplitTriggerStopsTheBrokerNamingTheChoices()
  {
    final Properties properties = new Properties();
    properties.setProperty(QualityConfig.PREFIX + ".splitWhen", "SOMETIMES");
    final Injector injector = new StartupInjectorBuilder().withProperties(properties).forTests().build()
        .createChildInjector(binder -> JsonConfigProvider.bind(
            binder, QualityConfig.PREFIX, QualityConfig.class, Names.named("asBound")
        ));
    final Provider<QualityConfig> asBound = injector.getProvider(Key.get(QualityConfig.class, Names.named("asBound")));
    final List<String> errors = new CopyOnWriteArrayList<>();
    try (LogCapture ignored = new LogCapture(GetafixQualityModule.class, errors)) {
      assertThrows(RuntimeException.class, () -> new GetafixQualityModule().qualityConfig(asBound));
    }
    assertEquals(1, errors.size(), errors.toString());
    final String error = errors.get(0);
    assertTrue(error.startsWith("Invalid quality-monitor configuration, the Broker stops: "), error);
    assertTrue(error.contains(QualityConfig.PREFIX) && error.contains("\"SOMETIMES\""), error);
    assertTrue(error.contains("LATE") && error.contains("ALWAYS"), error);
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
