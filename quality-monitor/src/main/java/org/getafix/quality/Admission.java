package org.getafix.quality;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.inject.Inject;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryCapacityExceededException;
import org.apache.druid.query.QueryException;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.admission.AdmissionConfig;
import org.getafix.core.quality.admission.AdmissionController;

import javax.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Admission control on the Broker (Ubora §8), off unless {@code druid.getafix.quality.admission} is set. Either an
 * {@link AdmissionController} watches high-priority queries (their mature-run answer quality, with a sample skipped
 * for want of room counted at the quality the learned profile gives its coverage; or every answer's quality as that
 * profile predicts it from its coverage, counted as it leaves ({@code PREDICTED_QUALITY}); or their timeout rate as
 * the baseline) over time windows and sheds low-priority ones while that signal is below target, or
 * ({@code GRADIENT2}) a {@link GradientAdmission} sheds low-priority queries beyond the concurrency limit Gradient2
 * sets from the queries' round-trip times. A shed query fails with HTTP 429 as when Druid's own query scheduler turns
 * a query away ({@link QueryCapacityExceededException}), so clients that retry on Druid's capacity errors retry these
 * too.
 *
 * <p>Priority is Druid's query context {@code priority}; below {@code lowPriorityBelow} (default 0, as in Druid's
 * {@code hilo} laning) a query is low-priority.
 */
public class Admission implements BudgetedQuery.Listener
{
  @Nullable
  private final AdmissionController controller;
  @Nullable
  private final AdmissionConfig admissionConfig;
  @Nullable
  private final GradientAdmission gradient;
  /**
   * The GRADIENT2 mode's admitted queries, by identity; weak keys, so that a query dropped before it ended (its
   * runner never run) gives its place in the limit back once collected instead of holding it for good.
   */
  @Nullable
  private final Cache<Query<?>, GradientAdmission.Ticket> tickets;
  private final QualityConfig.AdmissionMode mode;
  private final int lowPriorityBelow;
  private final ServiceEmitter emitter;
  private final LongSupplier millisClock;
  private final AtomicLong shed = new AtomicLong();
  private final AtomicLong admittedLowPriority = new AtomicLong();
  private final QualityProfiles profiles;
  private final AtomicLong skippedSamplesCounted = new AtomicLong();

  @Inject
  public Admission(QualityConfig config, ServiceEmitter emitter, QualityProfiles profiles)
  {
    this(config, emitter, profiles, System::currentTimeMillis, System::nanoTime);
  }

  Admission(
      QualityConfig config,
      ServiceEmitter emitter,
      QualityProfiles profiles,
      LongSupplier millisClock,
      LongSupplier nanoClock
  )
  {
    this.mode = config.getAdmission() == null ? QualityConfig.AdmissionMode.OFF : config.getAdmission();
    this.admissionConfig = config.admissionConfig();
    this.controller = admissionConfig == null ? null : AdmissionController.of(admissionConfig);
    if (mode == QualityConfig.AdmissionMode.GRADIENT2) {
      this.gradient = new GradientAdmission(config.getAdmissionGradientInitialLimit(),
                                            config.getAdmissionGradientQueueSize(), nanoClock);
      this.tickets = Caffeine.newBuilder()
                             .weakKeys()
                             .<Query<?>, GradientAdmission.Ticket>removalListener((query, ticket, cause) -> {
                               if (ticket != null && cause.wasEvicted()) {
                                 ticket.released();
                               }
                             })
                             .build();
    } else {
      this.gradient = null;
      this.tickets = null;
    }
    this.lowPriorityBelow = config.getLowPriorityBelow();
    this.emitter = emitter;
    this.profiles = profiles;
    this.millisClock = millisClock;
  }

  boolean isEnabled()
  {
    return controller != null || gradient != null;
  }

  boolean isHighPriority(Query<?> query)
  {
    return query.context().getPriority() >= lowPriorityBelow;
  }

  /** Whether {@link #completed} must hear of {@code query}'s end: every query's under GRADIENT2, else high-priority. */
  boolean watchesEnd(Query<?> query)
  {
    return gradient != null || (controller != null && isHighPriority(query));
  }

  /**
   * Admits the query or, if it is low-priority and the controller admits none now, sheds it.
   *
   * @throws QueryCapacityExceededException (HTTP 429) for a shed query
   */
  void admit(Query<?> query)
  {
    if (gradient != null) {
      final GradientAdmission.Ticket ticket = gradient.start(isHighPriority(query));
      if (ticket != null) {
        tickets.put(query, ticket);
        if (!isHighPriority(query)) {
          admittedLowPriority.incrementAndGet();
        }
        return;
      }
      throw shed(query, StringUtils.format(
          "its priority [%d] is below [%d], and [%d] queries are in flight against the limit [%d] that Gradient2 "
          + "sets from their round-trip times",
          query.context().getPriority(), lowPriorityBelow, gradient.inFlight(), gradient.limit()
      ));
    }
    if (controller == null || isHighPriority(query)) {
      return;
    }
    if (controller.admitLowPriority(millisClock.getAsLong())) {
      admittedLowPriority.incrementAndGet();
      return;
    }
    throw shed(query, StringUtils.format(
        "its priority [%d] is below [%d], and only %.0f%% of such queries are admitted while high-priority "
        + "queries' %s is below its target [%s]",
        query.context().getPriority(),
        lowPriorityBelow,
        100 * controller.lowPriorityAdmitFraction(),
        admissionConfig.signal() == AdmissionConfig.Signal.ANSWER_QUALITY ? "answer quality" : "non-timeout rate",
        admissionConfig.target()
    ));
  }

  private QueryCapacityExceededException shed(Query<?> query, String why)
  {
    shed.incrementAndGet();
    emitter.emit(
        QualityMetrics.dimensions(query)
                      .setDimension(MetricDimension.SIGNAL, mode.name())
                      .setMetric(GetafixMetric.QUERY_SHED.metricName(), 1)
    );
    return new QueryCapacityExceededException(
        QueryException.QUERY_CAPACITY_EXCEEDED_ERROR_CODE,
        "Query shed by Getafix admission control: " + why + ". Please try your query again later.",
        QueryCapacityExceededException.class.getName(),
        null
    );
  }

  @Override
  public void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
  {
    completed(query.query(), query.coverage().timedOut());
    if (mode == QualityConfig.AdmissionMode.PREDICTED_QUALITY && isHighPriority(query.query())) {
      // A mature run measures an answer only once its late sub-queries are done, seconds after it left under a slow
      // Historical: steered by those, the controller acts on the load of seconds ago, admits on into a backlog and
      // sheds on after it has cleared. Every answer's coverage is known as it leaves, and the profile the mature runs
      // teach turns it into quality.
      controller.onHighPriorityQuality(predictedQuality(query), millisClock.getAsLong());
    } else if (mode == QualityConfig.AdmissionMode.ANSWER_QUALITY && query.skippedSample() && isHighPriority(query.query())) {
      // A sample is skipped when the mature runs have no room, i.e. when late sub-queries pile up on a slow
      // Historical and answers are worst: left out, it would leave its window to the samples of better moments, and
      // the controller would admit the more, the worse it gets. It counts at once, with the quality its class's
      // profile, learned from the mature runs, gives its coverage.
      skippedSamplesCounted.incrementAndGet();
      controller.onHighPriorityQuality(predictedQuality(query), millisClock.getAsLong());
    }
  }

  /** The quality its class's learned profile gives the answer's coverage. */
  private double predictedQuality(BudgetedQuery<?> query)
  {
    return profiles.profile(QualityProfiles.queryClass(query.query())).quality(query.coverage().fraction());
  }

  @Override
  public void onFailed(BudgetedQuery<?> query, Throwable cause)
  {
    failed(query.query(), cause);
  }

  @Override
  public void onQualityMeasured(BudgetedQuery<?> query, AnswerQuality quality)
  {
    // A skipped sample that a replay measures later counted when it answered.
    if (mode == QualityConfig.AdmissionMode.ANSWER_QUALITY && isHighPriority(query.query()) && !query.skippedSample()) {
      controller.onHighPriorityQuality(quality.quality(), millisClock.getAsLong());
    }
  }

  /** {@code query} completed; {@code timedOut}: a budget cut its answer short, or it failed on its timeout. */
  void completed(Query<?> query, boolean timedOut)
  {
    if (gradient != null) {
      final GradientAdmission.Ticket ticket = tickets.asMap().remove(query);
      if (ticket != null) {
        ticket.completed(timedOut);
      }
    } else if (controller != null && isHighPriority(query)) {
      controller.onHighPriorityCompleted(timedOut, millisClock.getAsLong());
    }
  }

  /**
   * {@code query} failed. A timeout is a completion that timed out; under GRADIENT2 another failure leaves the limit
   * without a round-trip time, which would say nothing about load, while the PID controllers count it as a
   * high-priority query that did not time out.
   */
  void failed(Query<?> query, Throwable cause)
  {
    final boolean timedOut = Timeouts.isTimeout(cause);
    if (gradient != null && !timedOut) {
      abandoned(query);
    } else {
      completed(query, timedOut);
    }
  }

  /** {@code query} was closed before it ended: under GRADIENT2 it gives its place back, with no round-trip time. */
  void abandoned(Query<?> query)
  {
    if (gradient != null) {
      final GradientAdmission.Ticket ticket = tickets.asMap().remove(query);
      if (ticket != null) {
        ticket.released();
      }
    }
  }

  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("enabled", isEnabled());
    if (!isEnabled()) {
      return state;
    }
    state.put("signal", mode.name());
    if (controller != null) {
      state.put("target", admissionConfig.target());
      state.put("windowMs", admissionConfig.windowMillis());
      final double signal = controller.signal();
      state.put("highPrioritySignal", Double.isFinite(signal) ? signal : null);
      state.put("lowPriorityAdmitFraction", controller.lowPriorityAdmitFraction());
      state.put("skippedSamplesCounted", skippedSamplesCounted.get());
    } else {
      state.put("limit", gradient.limit());
      state.put("inFlight", gradient.inFlight());
    }
    state.put("lowPriorityBelow", lowPriorityBelow);
    state.put("admittedLowPriorityQueries", admittedLowPriority.get());
    state.put("shedQueries", shed.get());
    return state;
  }
}
