package org.getafix.localcluster.workload;

import org.getafix.localcluster.client.CoordinatorClient;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeoutException;

/**
 * A synthetic, wiki-edits-like datasource with one segment per hour: {@code hours} hourly CSV files of
 * {@code rowsPerHour} rows each, ingested by a native {@code index_parallel} task with a {@code local} input source.
 *
 * <p>Columns: {@code page} (1,000 values, Zipf-skewed), {@code country} (30 values, Zipf-skewed), {@code user}
 * (50,000 values, uniform); metrics {@code count}, {@code added} (long) and {@code delta} (double). Rollup is off, so
 * every segment holds exactly {@code rowsPerHour} rows and queries scan them all. The data is a pure function of the
 * seed.
 *
 * @param dataSource   datasource name
 * @param start        first hour (truncated to the hour)
 * @param hours        number of hourly segments
 * @param rowsPerHour  rows in each segment
 * @param seed         random seed of the data
 */
public record SyntheticDataset(String dataSource, Instant start, int hours, int rowsPerHour, long seed)
{
  public static final Instant DEFAULT_START = Instant.parse("2025-01-01T00:00:00Z");
  static final int PAGES = 1_000;
  static final int COUNTRIES = 30;
  static final int USERS = 50_000;

  public SyntheticDataset
  {
    if (dataSource == null || dataSource.isBlank()) {
      throw new IllegalArgumentException("dataSource must not be blank");
    }
    if (hours < 1 || rowsPerHour < 1) {
      throw new IllegalArgumentException("hours and rowsPerHour must be >= 1, got " + hours + " and " + rowsPerHour);
    }
    start = start.truncatedTo(ChronoUnit.HOURS);
  }

  public static SyntheticDataset hourly(String dataSource, int hours, int rowsPerHour)
  {
    return new SyntheticDataset(dataSource, DEFAULT_START, hours, rowsPerHour, 42L);
  }

  public Instant end()
  {
    return start.plus(hours, ChronoUnit.HOURS);
  }

  /**
   * The whole datasource as an ISO-8601 interval.
   */
  public String interval()
  {
    return start + "/" + end();
  }

  /**
   * Hours {@code [fromHour, toHourExclusive)} (0-based, relative to {@link #start()}) as an ISO-8601 interval.
   */
  public String interval(int fromHour, int toHourExclusive)
  {
    return start.plus(fromHour, ChronoUnit.HOURS) + "/" + start.plus(toHourExclusive, ChronoUnit.HOURS);
  }

  public long totalRows()
  {
    return (long) hours * rowsPerHour;
  }

  /**
   * Writes one CSV file per hour into {@code dir} (created if needed) and returns {@code dir}.
   */
  public Path writeFiles(Path dir) throws IOException
  {
    Files.createDirectories(dir);
    final Zipf pages = new Zipf(PAGES, 1.1);
    final Zipf countries = new Zipf(COUNTRIES, 1.0);
    final SplittableRandom random = new SplittableRandom(seed);
    final long hourMillis = Duration.ofHours(1).toMillis();
    for (int h = 0; h < hours; h++) {
      final long hourStart = start.toEpochMilli() + h * hourMillis;
      final Path file = dir.resolve(String.format(Locale.ROOT, "hour-%05d.csv", h));
      try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        for (int r = 0; r < rowsPerHour; r++) {
          out.write(Long.toString(hourStart + random.nextLong(hourMillis)));
          out.write(",page-");
          out.write(Integer.toString(pages.sample(random)));
          out.write(",c");
          out.write(Integer.toString(countries.sample(random)));
          out.write(",user-");
          out.write(Integer.toString(random.nextInt(USERS)));
          out.write(',');
          out.write(Integer.toString(random.nextInt(1000)));
          out.write(',');
          out.write(String.format(Locale.ROOT, "%.3f", random.nextDouble(-100, 100)));
          out.write('\n');
        }
      }
    }
    return dir;
  }

  /**
   * The native batch ingestion spec reading the files written by {@link #writeFiles(Path)} from {@code dir}.
   */
  public Map<String, Object> ingestionSpec(Path dir)
  {
    final Map<String, Object> ioConfig = map(
        "type", "index_parallel",
        "inputSource", map("type", "local", "baseDir", dir.toAbsolutePath().toString(), "filter", "hour-*.csv"),
        "inputFormat", map(
            "type", "csv",
            "findColumnsFromHeader", false,
            "columns", List.of("timestamp", "page", "country", "user", "added", "delta")
        ),
        "appendToExisting", false
    );
    final Map<String, Object> dataSchema = map(
        "dataSource", dataSource,
        "timestampSpec", map("column", "timestamp", "format", "millis"),
        "dimensionsSpec", map("dimensions", List.of("page", "country", "user")),
        "metricsSpec", List.of(
            map("type", "count", "name", "count"),
            map("type", "longSum", "name", "added", "fieldName", "added"),
            map("type", "doubleSum", "name", "delta", "fieldName", "delta")
        ),
        "granularitySpec", map(
            "type", "uniform",
            "segmentGranularity", "HOUR",
            "queryGranularity", "NONE",
            "rollup", false,
            "intervals", List.of(interval())
        )
    );
    final Map<String, Object> tuningConfig = map(
        "type", "index_parallel",
        "partitionsSpec", map("type", "dynamic"),
        // Sequential: one task JVM does everything, which is the fastest on a small machine.
        "maxNumConcurrentSubTasks", 1,
        "maxRowsInMemory", 250_000
    );
    return map(
        "type", "index_parallel",
        "spec", map("dataSchema", dataSchema, "ioConfig", ioConfig, "tuningConfig", tuningConfig)
    );
  }

  /**
   * Writes the files under {@code dir}, submits the ingestion task to the Overlord and waits for it to succeed.
   * Loading onto Historicals is not awaited (see {@link CoordinatorClient#awaitFullyLoaded}).
   */
  public Ingestion ingest(CoordinatorClient overlord, Path dir, Duration timeout) throws IOException, TimeoutException
  {
    final long t0 = System.nanoTime();
    writeFiles(dir);
    final long t1 = System.nanoTime();
    final String taskId = overlord.submitTask(ingestionSpec(dir));
    overlord.awaitTaskSuccess(taskId, timeout);
    return new Ingestion(taskId, Duration.ofNanos(t1 - t0), Duration.ofNanos(System.nanoTime() - t1));
  }

  /**
   * A finished ingestion: the task id, the time to write the input files and the time the task took.
   */
  public record Ingestion(String taskId, Duration writeTime, Duration taskTime)
  {
  }

  private static Map<String, Object> map(Object... keyValues)
  {
    final Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put((String) keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  /**
   * Zipf-distributed ranks 0..n-1 (rank 0 most frequent), sampled by binary search over the cumulative weights.
   */
  static final class Zipf
  {
    private final double[] cumulative;

    Zipf(int n, double exponent)
    {
      cumulative = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1.0 / Math.pow(i + 1, exponent);
        cumulative[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cumulative[i] /= sum;
      }
    }

    int sample(SplittableRandom random)
    {
      final double u = random.nextDouble();
      int lo = 0;
      int hi = cumulative.length - 1;
      while (lo < hi) {
        final int mid = (lo + hi) >>> 1;
        if (cumulative[mid] < u) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }
}
