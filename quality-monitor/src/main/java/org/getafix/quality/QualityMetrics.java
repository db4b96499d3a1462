package org.getafix.quality;

import com.google.inject.Inject;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.java.util.emitter.service.ServiceMetricEvent;
import org.apache.druid.query.Query;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.control.EwmaResponseTime;
import org.getafix.core.quality.sampling.SampledQualityEstimate;
import org.getafix.core.redundancy.UpfrontRedundancy;
import org.getafix.core.wire.Coverage;
import org.getafix.core.wire.MatureRunReport;

import javax.annotation.Nullable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Broker's figures of budgeted queries and their mature runs: emitted as metrics (dimensions {@code dataSource}
 * and {@code type}) and counted for {@link QualityResource}, with the latest {@value #RECENT} measured mature runs.
 * The figures of a controller-set budget are the {@link BudgetControl}'s to emit.
 */
public class QualityMetrics implements BudgetedQuery.Listener
{
  private static final int RECENT = 50;

  private final ServiceEmitter emitter;
  private final EwmaResponseTime responseTime = new EwmaResponseTime(EwmaResponseTime.DEFAULT_ALPHA);
  private final Deque<MatureRunReport> recent = new ArrayDeque<>();
  private final AtomicLong budgeted = new AtomicLong();
  private final AtomicLong timedOut = new AtomicLong();
  private final AtomicLong started = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong replaysQueued = new AtomicLong();
  private final AtomicLong replaysUnneeded = new AtomicLong();
  private final AtomicLong replaysStarted = new AtomicLong();
  private final AtomicLong replaysCompleted = new AtomicLong();
  private final AtomicLong replaysFailed = new AtomicLong();
  private final Map<ReplayDrop, AtomicLong> replaysDropped = new EnumMap<>(ReplayDrop.class);
  private final AtomicLong evictions = new AtomicLong();
  private final AtomicLong hedgesSent = new AtomicLong();
  private final AtomicLong failoversSent = new AtomicLong();
  private final AtomicLong hedgesWon = new AtomicLong();
  private final AtomicLong hedgeable = new AtomicLong();
  private final AtomicLong copiesSent = new AtomicLong();
  private final AtomicLong copiesWon = new AtomicLong();
  private final AtomicLong subQueriesSplit = new AtomicLong();
  private final AtomicLong splitParts = new AtomicLong();
  /** The latest redundancy period's figures and the Broker's mode, null before the first period ends. */
  @Nullable
  private volatile RedundancyPeriod lastPeriod;
  private final Map<MatureRunFailure, AtomicLong> failures = new EnumMap<>(MatureRunFailure.class);
  /**
   * The mean quality of every sampled query, weighing each measured run for the skipped ones of its 10 s that were not
   * replayed. Its hour of buckets bounds {@code replayExpiration}.
   */
  private final SampledQualityEstimate sampledQuality = new SampledQualityEstimate(10_000, 360);

  @Inject
  public QualityMetrics(ServiceEmitter emitter)
  {
    this.emitter = emitter;
    for (MatureRunFailure failure : MatureRunFailure.values()) {
      failures.put(failure, new AtomicLong());
    }
    for (ReplayDrop drop : ReplayDrop.values()) {
      replaysDropped.put(drop, new AtomicLong());
    }
  }

  /** The dimensions of every metric of a query: its datasources and its type. */
  static ServiceMetricEvent.Builder dimensions(Query<?> query)
  {
    return ServiceMetricEvent.builder()
                             .setDimension(MetricDimension.DATA_SOURCE, String.join(",", query.getDataSource().getTableNames()))
                             .setDimension(MetricDimension.TYPE, query.getType());
  }

  @Override
  public void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
  {
    budgeted.incrementAndGet();
    final Coverage coverage = query.coverage();
    if (coverage.timedOut()) {
      timedOut.incrementAndGet();
    }
    final double meanResponseTime;
    synchronized (responseTime) {
      responseTime.record(elapsedMillis);
      meanResponseTime = responseTime.estimate();
    }
    emit(query.query(), GetafixMetric.QUALITY_COVERAGE, coverage.fraction());
    if (query.budget().setBy() == null) {
      emit(query.query(), GetafixMetric.BUDGET_MS, query.budget().millis());
      emit(query.query(), GetafixMetric.RESPONSE_TIME_MEAN, meanResponseTime);
    }
  }

  void matureStarted(Query<?> query, long startMillis)
  {
    sampledQuality.onSampled(startMillis, true);
    started.incrementAndGet();
    emit(query, GetafixMetric.MATURE_STARTED, 1);
  }

  void matureSkipped(Query<?> query, long startMillis)
  {
    sampledQuality.onSampled(startMillis, false);
    skipped.incrementAndGet();
    emit(query, GetafixMetric.MATURE_SKIPPED, 1);
  }

  void matureFailed(Query<?> query, MatureRunFailure reason)
  {
    failed.incrementAndGet();
    failures.get(reason).incrementAndGet();
    emitter.emit(dimensions(query).setDimension(MetricDimension.REASON, reason.dimension()).setMetric(GetafixMetric.MATURE_FAILED.metricName(), 1));
  }

  /** A mature run was measured; {@code quality} is null for a query type without a quality metric. */
  void matureCompleted(MatureRun run, Coverage coverage, @Nullable AnswerQuality quality, long matureMillis)
  {
    completed.incrementAndGet();
    emit(run.query, GetafixMetric.MATURE_COMPLETED, 1);
    measured(run.query, run.startMillis, coverage, quality, matureMillis, false);
  }

  /** A skipped sampled query was queued for a replay. */
  void replayQueued(Query<?> query)
  {
    replaysQueued.incrementAndGet();
    emit(query, GetafixMetric.REPLAY_QUEUED, 1);
  }

  /**
   * A skipped sampled query, started at {@code startMillis}, answered whole online: its mature answer would be its
   * online answer, so it is measured as such, without a replay, and counts as a sample measured after all.
   */
  void replayUnneeded(Query<?> query, long startMillis, Coverage coverage, AnswerQuality quality, long matureMillis)
  {
    replaysUnneeded.incrementAndGet();
    emit(query, GetafixMetric.REPLAY_UNNEEDED, 1);
    sampledQuality.onStartedLater(startMillis);
    measured(query, startMillis, coverage, quality, matureMillis, false);
  }

  /** The replay of a skipped sampled query, started at {@code startMillis}, began: a sample measured after all. */
  void replayStarted(Query<?> query, long startMillis)
  {
    replaysStarted.incrementAndGet();
    emit(query, GetafixMetric.REPLAY_STARTED, 1);
    sampledQuality.onStartedLater(startMillis);
  }

  /** A replay was measured; counted in the quality figures as a mature run, marked as replayed. */
  void replayCompleted(
      Query<?> query,
      long startMillis,
      Coverage coverage,
      @Nullable AnswerQuality quality,
      long matureMillis
  )
  {
    replaysCompleted.incrementAndGet();
    emit(query, GetafixMetric.REPLAY_COMPLETED, 1);
    measured(query, startMillis, coverage, quality, matureMillis, true);
  }

  void replayFailed(Query<?> query)
  {
    replaysFailed.incrementAndGet();
    emit(query, GetafixMetric.REPLAY_FAILED, 1);
  }

  void replayDropped(Query<?> query, ReplayDrop reason)
  {
    replaysDropped.get(reason).incrementAndGet();
    emitter.emit(dimensions(query).setDimension(MetricDimension.REASON, reason.dimension())
                                  .setMetric(GetafixMetric.REPLAY_DROPPED.metricName(), 1));
  }

  /**
   * The quality of the online answer of {@code query}, sampled at {@code startMillis}, was measured, by its mature run
   * or a replay: emitted, counted in the sampled-quality estimate and listed among the recent runs.
   */
  private void measured(
      Query<?> query,
      long startMillis,
      Coverage coverage,
      @Nullable AnswerQuality quality,
      long matureMillis,
      boolean replayed
  )
  {
    if (quality != null) {
      emit(query, GetafixMetric.QUALITY_ANSWER, quality.quality());
      sampledQuality.onMeasured(startMillis, quality.quality());
    }
    final MatureRunReport report = new MatureRunReport(
        query.getId(),
        query.getType(),
        String.join(",", query.getDataSource().getTableNames()),
        coverage,
        quality,
        matureMillis,
        replayed
    );
    synchronized (recent) {
      recent.addFirst(report);
      while (recent.size() > RECENT) {
        recent.removeLast();
      }
    }
  }

  void memoEvicted(Query<?> query, String cause)
  {
    evictions.incrementAndGet();
    emitter.emit(dimensions(query).setDimension(MetricDimension.CAUSE, StringUtils.toLowerCase(cause)).setMetric(GetafixMetric.MEMO_EVICTIONS.metricName(), 1));
  }

  void memoBytes(Query<?> query, long bytes)
  {
    emit(query, GetafixMetric.MEMO_BYTES, bytes);
  }

  /**
   * A hedge, copy or failover sub-query went out ({@link GetafixMetric#HEDGE_SENT}, {@code COPY_SENT}, {@code
   * FAILOVER_SENT}), or a sub-query's hedges or copies won ({@code HEDGE_WON}, {@code COPY_WON}).
   */
  void hedge(Query<?> query, GetafixMetric event)
  {
    switch (event) {
      case HEDGE_WON -> hedgesWon.incrementAndGet();
      case COPY_SENT -> copiesSent.incrementAndGet();
      case COPY_WON -> copiesWon.incrementAndGet();
      case FAILOVER_SENT -> failoversSent.incrementAndGet();
      default -> hedgesSent.incrementAndGet();
    }
    emit(query, event, 1);
  }

  /** A budgeted sub-query was sent to its Historical as {@code parts} sub-queries. */
  void split(Query<?> query, int parts)
  {
    subQueriesSplit.incrementAndGet();
    splitParts.addAndGet(parts);
    emit(query, GetafixMetric.SUBQUERY_SPLIT, parts);
  }

  /** A sub-query that could be hedged or copied (specific segments of one table, hedging on for it) was sent. */
  void hedgeable()
  {
    hedgeable.incrementAndGet();
  }

  /**
   * A redundancy period ended. Emitted only where the Broker's redundancy is on, or a query asked for it in the
   * period, so that a Broker without it emits nothing new.
   */
  void redundancy(UpfrontRedundancy.Mode configured, UpfrontRedundancy.PeriodReport period)
  {
    lastPeriod = new RedundancyPeriod(configured, period);
    if (configured == UpfrontRedundancy.Mode.OFF && period.copied() == 0 && period.judged() == 0) {
      return;
    }
    final String mode = StringUtils.toLowerCase(configured.name());
    emitPeriod(mode, GetafixMetric.REDUNDANCY_FACTOR, period.factor());
    if (period.primaries() > 0) {
      emitPeriod(mode, GetafixMetric.REDUNDANCY_COPIED, period.copied() / (double) period.primaries());
    }
    if (period.judged() > 0) {
      emitPeriod(mode, GetafixMetric.REDUNDANCY_PREDICTED, period.predicted());
      emitPeriod(mode, GetafixMetric.REDUNDANCY_MEASURED, period.measured());
    }
  }

  private void emitPeriod(String mode, GetafixMetric metric, double value)
  {
    emitter.emit(ServiceMetricEvent.builder()
                                   .setDimension(MetricDimension.MODE, mode)
                                   .setMetric(metric.metricName(), value));
  }

  private void emit(Query<?> query, GetafixMetric metric, Number value)
  {
    emitter.emit(dimensions(query).setMetric(metric.metricName(), value));
  }

  private static Double finiteOrNull(double value)
  {
    return Double.isFinite(value) ? value : null;
  }

  /** Counters of budgeted queries and mature runs, and the latest measured mature runs, newest first. */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("budgetedQueries", budgeted.get());
    state.put("timedOutQueries", timedOut.get());
    synchronized (responseTime) {
      state.put("meanResponseTimeMs", responseTime.estimate());
    }
    state.put("matureRunsStarted", started.get());
    state.put("matureRunsCompleted", completed.get());
    state.put("matureRunsFailed", failed.get());
    final Map<String, Long> byReason = new LinkedHashMap<>();
    failures.forEach((reason, count) -> byReason.put(reason.dimension(), count.get()));
    state.put("matureRunsFailedByReason", byReason);
    state.put("matureRunsSkipped", skipped.get());
    state.put("replaysQueued", replaysQueued.get());
    state.put("replaysUnneeded", replaysUnneeded.get());
    state.put("replaysStarted", replaysStarted.get());
    state.put("replaysCompleted", replaysCompleted.get());
    state.put("replaysFailed", replaysFailed.get());
    final Map<String, Long> dropped = new LinkedHashMap<>();
    replaysDropped.forEach((reason, count) -> dropped.put(reason.dimension(), count.get()));
    state.put("replaysDroppedByReason", dropped);
    state.put("memoEvictions", evictions.get());
    state.put("hedgeableSubQueries", hedgeable.get());
    state.put("hedgesSent", hedgesSent.get());
    state.put("hedgesWon", hedgesWon.get());
    state.put("copiesSent", copiesSent.get());
    state.put("copiesWon", copiesWon.get());
    state.put("failoversSent", failoversSent.get());
    state.put("subQueriesSplit", subQueriesSplit.get());
    state.put("splitParts", splitParts.get());
    final RedundancyPeriod last = lastPeriod;
    final Map<String, Object> redundancy = new LinkedHashMap<>();
    if (last != null) {
      final UpfrontRedundancy.PeriodReport period = last.report();
      redundancy.put("mode", last.mode().name());
      redundancy.put("factor", period.factor());
      redundancy.put("primaries", period.primaries());
      redundancy.put("copied", period.copied());
      redundancy.put("judged", period.judged());
      redundancy.put("predictedServiceLevel", finiteOrNull(period.predicted()));
      redundancy.put("measuredServiceLevel", finiteOrNull(period.measured()));
    }
    state.put("lastRedundancyPeriod", redundancy);
    final SampledQualityEstimate.Estimate estimate = sampledQuality.estimate();
    final Map<String, Object> measured = new LinkedHashMap<>();
    measured.put("meanQuality", finiteOrNull(estimate.meanQuality()));
    measured.put("confidence95", finiteOrNull(estimate.confidence95()));
    measured.put("measuredRuns", estimate.measuredRuns());
    measured.put("effectiveRuns", estimate.effectiveRuns());
    state.put("sampledQuality", measured);
    synchronized (recent) {
      state.put("recent", new ArrayList<>(recent));
    }
    return state;
  }

  private record RedundancyPeriod(UpfrontRedundancy.Mode mode, UpfrontRedundancy.PeriodReport report)
  {
  }
}
