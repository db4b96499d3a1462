package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.druid.jackson.DefaultObjectMapper;
import org.apache.druid.query.Druids;
import org.apache.druid.query.aggregation.CountAggregatorFactory;
import org.apache.druid.query.timeseries.TimeseriesQuery;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.split.QualityProfileLearner;
import org.getafix.core.wire.QueryContextKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QualityProfilesTest
{
  /** Druid's mapper as the Broker configures it, with this extension's Jackson module. */
  private static final ObjectMapper MAPPER = new DefaultObjectMapper().registerModule(new QualityJsonModule());

  @TempDir
  Path directory;

  private static BudgetedQuery<?> answeredHalf(QualityProfiles profiles)
  {
    final TimeseriesQuery query = Druids.newTimeseriesQueryBuilder()
                                        .dataSource("ds")
                                        .intervals("2025-01-01/2025-01-02")
                                        .aggregators(new CountAggregatorFactory("rows"))
                                        .context(Map.of(QueryContextKeys.BUDGET_MS, 100))
                                        .build();
    final BudgetedQuery<?> budgeted = new BudgetedQuery<>(
        query, "ref", QueryBudget.askedIn(query.context(), 1000), 0, 0, true, null, false, List.of(profiles)
    );
    budgeted.answeredInTime(1);
    budgeted.late(List.of("2025-01-01T00:00:00.000Z/2025-01-01T01:00:00.000Z"));
    return budgeted;
  }

  private static void measureHalfAt90(QualityProfiles profiles, int runs)
  {
    for (int i = 0; i < runs; i++) {
      answeredHalf(profiles).measured(new AnswerQuality(0.9, 0.9, 1, 9, 10, 9));
    }
  }

  @Test
  void measuredRunsShapeTheirQueryClassProfile()
  {
    final QualityProfiles profiles = new QualityProfiles();
    measureHalfAt90(profiles, 10);
    assertEquals(0.9, profiles.profile("ds/timeseries").quality(0.5), 1e-9, "half the segments gave 0.9");
    assertTrue(profiles.profile("ds/timeseries").quality(0.25) > 0.25, "concave: above linear below the knot");
    assertEquals(List.of("ds/timeseries"), List.copyOf(profiles.state().keySet()));
  }

  @Test
  void profilesOutliveARestartInTheirFile()
  {
    final File file = directory.resolve("profiles/quality-profiles.json").toFile();
    final QualityProfiles before = new QualityProfiles(file, MAPPER);
    before.start();
    measureHalfAt90(before, 10);
    before.stop();
    assertTrue(file.isFile(), "saved at stop, its directory made");

    final QualityProfiles after = new QualityProfiles(file, MAPPER);
    after.start();
    try {
      assertEquals(List.of("ds/timeseries"), List.copyOf(after.state().keySet()));
      assertArrayEquals(
          before.profile("ds/timeseries").fractions(),
          after.profile("ds/timeseries").fractions()
      );
      assertArrayEquals(
          before.profile("ds/timeseries").qualities(),
          after.profile("ds/timeseries").qualities()
      );
      assertEquals(Map.of("file", file.getPath(), "queryClasses", 1), after.restoredFrom());
    }
    finally {
      after.stop();
    }
  }

  @Test
  void aMissingFileStartsEmptyAndIsWrittenOnlyOnceSomethingWasLearned()
  {
    final File file = directory.resolve("quality-profiles.json").toFile();
    final List<String> warnings = new CopyOnWriteArrayList<>();
    final QualityProfiles profiles = new QualityProfiles(file, MAPPER);
    try (LogCapture ignored = new LogCapture(QualityProfiles.class, warnings)) {
      profiles.start();
      profiles.saveIfChanged();
      assertFalse(file.exists(), "nothing learned, nothing written");
      measureHalfAt90(profiles, 1);
      profiles.saveIfChanged();
      assertTrue(file.isFile());
      profiles.stop();
    }
    assertEquals(List.of(), warnings);
    assertNull(profiles.restoredFrom());
  }

  @Test
  void anUnreadableFileIsWarnedOfAndTheBrokerLearnsAnew() throws IOException
  {
    final List<String> contents = List.of(
        "{not json",
        "",
        "null",
        "{\"bins\":10,\"classes\":{\"ds/timeseries\":{\"counts\":[-1],\"fractionSums\":[0],\"qualitySums\":[0]}}}",
        "{\"bins\":10,\"classes\":{\"ds/timeseries\":{\"counts\":[1],\"fractionSums\":[\"NaN\"],\"qualitySums\":[0]}}}",
        "{\"bins\":20,\"classes\":{}}"
    );
    final File file = directory.resolve("quality-profiles.json").toFile();
    for (String content : contents) {
      Files.writeString(file.toPath(), content, StandardCharsets.UTF_8);
      final List<String> warnings = new CopyOnWriteArrayList<>();
      final QualityProfiles profiles = new QualityProfiles(file, MAPPER);
      try (LogCapture ignored = new LogCapture(QualityProfiles.class, warnings)) {
        profiles.start();
      }
      finally {
        profiles.stop();
      }
      assertEquals(1, warnings.size(), content + ": " + warnings);
      assertTrue(
          warnings.get(0).startsWith("Cannot restore the quality profiles from [" + file.getPath() + "], learning "
                                     + "them anew (the file is replaced at the next save): "),
          warnings.get(0)
      );
      assertEquals(Map.of(), profiles.state(), content);
      assertNull(profiles.restoredFrom(), content);
    }
  }

  @Test
  void aSaveReplacesTheFileWholeAndLeavesNoTemporaryFileBehind() throws IOException
  {
    final File file = directory.resolve("quality-profiles.json").toFile();
    final QualityProfiles profiles = new QualityProfiles(file, MAPPER);
    profiles.start();
    for (int save = 0; save < 3; save++) {
      measureHalfAt90(profiles, 5);
      profiles.saveIfChanged();
    }
    profiles.stop();
    final List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      files.forEach(path -> names.add(path.getFileName().toString()));
    }
    assertEquals(List.of("quality-profiles.json"), names);
    assertEquals(
        List.of(0L, 0L, 0L, 0L, 0L, 15L, 0L, 0L, 0L, 0L),
        MAPPER.readValue(file, QualityProfileLearner.Snapshot.class).classes().get("ds/timeseries").counts(),
        "the last save holds every run"
    );
  }
}
