package org.getafix.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Inject;
import org.apache.druid.guice.annotations.Json;
import org.apache.druid.java.util.common.FileUtils;
import org.apache.druid.java.util.common.concurrent.Execs;
import org.apache.druid.java.util.common.lifecycle.LifecycleStart;
import org.apache.druid.java.util.common.lifecycle.LifecycleStop;
import org.apache.druid.java.util.common.logger.Logger;
import org.apache.druid.query.Query;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.split.QualityProfile;
import org.getafix.core.quality.split.QualityProfileLearner;

import javax.annotation.Nullable;
import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Quality profiles learned on the Broker from mature runs: per datasource and query type, what share of its segments
 * a budgeted query must complete for what answer quality (the budget paper's request quality function, §2). Each
 * measured mature run adds its online answer's coverage and quality. {@link QualityResource} shows them; they are the
 * input a budget split by quality (EqResv, MaxQuality) needs.
 *
 * <p>With {@code profileFile} set, what was learned outlives the Broker: it is read back at start, and written every
 * minute in which a run was measured, and at stop, each time whole into a temporary file that then replaces the last
 * one. A file that cannot be read is logged and left to be replaced; the Broker starts learning anew rather than not
 * at all.
 */
public class QualityProfiles implements BudgetedQuery.Listener
{
  private static final Logger log = new Logger(QualityProfiles.class);
  /** How often the profiles are saved if a run was measured since: a Broker killed unstopped loses this much at most. */
  private static final long SAVE_PERIOD_MILLIS = 60_000;

  private final QualityProfileLearner learner = new QualityProfileLearner();
  /** Null: the profiles are kept in memory only. */
  @Nullable
  private final File file;
  private final ObjectMapper jsonMapper;
  /** A run was measured since the last save. */
  private final AtomicBoolean changed = new AtomicBoolean();
  /** The file the profiles were restored from at start and the query classes it held; null if none were. */
  @Nullable
  private volatile Map<String, Object> restoredFrom;
  @Nullable
  private ScheduledExecutorService saver;

  @Inject
  public QualityProfiles(QualityConfig config, @Json ObjectMapper jsonMapper)
  {
    this(config.getProfileFile(), jsonMapper);
  }

  /** Profiles kept in memory only. */
  QualityProfiles()
  {
    this((File) null, null);
  }

  QualityProfiles(@Nullable File file, ObjectMapper jsonMapper)
  {
    // Absolute: the atomic write syncs the file's directory, which a bare file name has none of.
    this.file = file == null ? null : file.getAbsoluteFile();
    this.jsonMapper = jsonMapper;
  }

  @LifecycleStart
  public void start()
  {
    if (file != null) {
      restore();
      saver = Execs.scheduledSingleThreaded("getafix-quality-profiles-%d");
      saver.scheduleWithFixedDelay(this::saveIfChanged, SAVE_PERIOD_MILLIS, SAVE_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  @LifecycleStop
  public void stop()
  {
    if (saver != null) {
      // Not shutdownNow: a save under way is not interrupted, and the last one below waits for it.
      saver.shutdown();
      saveIfChanged();
    }
  }

  /** A query's class: its datasources and its type, e.g. {@code wikipedia/topN}. */
  static String queryClass(Query<?> query)
  {
    return String.join(",", query.getDataSource().getTableNames()) + "/" + query.getType();
  }

  @Override
  public void onQualityMeasured(BudgetedQuery<?> query, AnswerQuality quality)
  {
    learner.record(queryClass(query.query()), query.coverage().fraction(), quality.quality());
    changed.set(true);
  }

  /** The profile of {@code queryClass}: linear until enough mature runs shaped it. */
  QualityProfile profile(String queryClass)
  {
    return learner.profile(queryClass);
  }

  /** Per query class, the learned profile's knots: completed fractions and the qualities there. */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    for (String queryClass : new TreeSet<>(learner.queryClasses())) {
      final QualityProfile profile = learner.profile(queryClass);
      state.put(queryClass, Map.of("fractions", profile.fractions(), "qualities", profile.qualities()));
    }
    return state;
  }

  /** The {@code file} the profiles were restored from at start and how many {@code queryClasses} it held, or null. */
  @Nullable
  Map<String, Object> restoredFrom()
  {
    return restoredFrom;
  }

  /** Adds what {@link #file} holds, if it is there and readable; logs why not otherwise. */
  private void restore()
  {
    if (!file.exists()) {
      log.info("No quality profiles saved in [%s] yet: learning them from mature runs anew", file);
      return;
    }
    try {
      final QualityProfileLearner.Snapshot snapshot = jsonMapper.readValue(file, QualityProfileLearner.Snapshot.class);
      learner.restore(snapshot);
      restoredFrom = Map.of("file", file.getPath(), "queryClasses", snapshot.classes().size());
      log.info("Restored the quality profiles of [%d] query classes from [%s]", snapshot.classes().size(), file);
    }
    catch (IOException | RuntimeException e) {
      log.warn(
          "Cannot restore the quality profiles from [%s], learning them anew (the file is replaced at the next save): %s",
          file,
          e.getMessage()
      );
    }
  }

  /**
   * Writes the profiles to {@link #file} if a run was measured since the last save. Never throws: it runs on the
   * saver's thread, which a throw would stop, and at the Broker's stop. A failed save is logged and tried again at
   * the next one. Synchronized, so that the save at stop waits for one under way.
   */
  synchronized void saveIfChanged()
  {
    if (file == null || !changed.getAndSet(false)) {
      return;
    }
    try {
      final QualityProfileLearner.Snapshot snapshot = learner.snapshot();
      FileUtils.mkdirp(file.getParentFile());
      FileUtils.writeAtomically(file, out -> {
        jsonMapper.writeValue(out, snapshot);
        return null;
      });
    }
    catch (IOException | RuntimeException e) {
      changed.set(true);
      log.warn("Cannot save the quality profiles to [%s], trying again at the next save: %s", file, e.toString());
    }
  }
}
