package org.getafix.quality;

import com.google.inject.Inject;
import org.apache.druid.java.util.common.StringUtils;
import org.apache.druid.java.util.emitter.service.ServiceEmitter;
import org.apache.druid.query.Query;
import org.apache.druid.query.QueryCapacityExceededException;
import org.apache.druid.query.QueryException;
import org.getafix.core.contract.GetafixMetric;
import org.getafix.core.contract.MetricDimension;
import org.getafix.core.quality.admission.AdmissionConfig;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.admission.AdmissionController;

import javax.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admission control on the Broker (Ubora §8), off unless {@code druid.getafix.quality.admission} is set: an
 * {@link AdmissionController} watches high-priority queries (their mature-run answer quality, or their timeout
 * rate as the baseline) and sheds low-priority ones while that signal is below target. A shed query fails with
 * HTTP 429 as when Druid's own query scheduler turns a query away ({@link QueryCapacityExceededException}), so
 * clients that retry on Druid's capacity errors retry these too.
 *
 * <p>Priority is Druid's query context {@code priority}; below {@code lowPriorityBelow} (default 0, as in Druid's
 * {@code hilo} laning) a query is low-priority.
 */
public class Admission implements BudgetedQuery.Listener
{
  @Nullable
  private final AdmissionController controller;
  private final AdmissionConfig admissionConfig;
  private final int lowPriorityBelow;
  private final ServiceEmitter emitter;
  private final AtomicLong shed = new AtomicLong();
  private final AtomicLong admittedLowPriority = new AtomicLong();

  @Inject
  public Admission(QualityConfig config, ServiceEmitter emitter)
  {
    this.admissionConfig = config.admissionConfig();
    this.controller = admissionConfig == null ? null : AdmissionController.of(admissionConfig);
    this.lowPriorityBelow = config.getLowPriorityBelow();
    this.emitter = emitter;
  }

  boolean isEnabled()
  {
    return controller != null;
  }

  boolean isHighPriority(Query<?> query)
  {
    return query.context().getPriority() >= lowPriorityBelow;
  }

  /**
   * Counts the query and, if it is low-priority and the controller admits none now, sheds it.
   *
   * @throws QueryCapacityExceededException (HTTP 429) for a shed query
   */
  void admit(Query<?> query)
  {
    if (controller == null) {
      return;
    }
    controller.onRequest();
    if (isHighPriority(query)) {
      return;
    }
    if (controller.admitLowPriority()) {
      admittedLowPriority.incrementAndGet();
      return;
    }
    shed.incrementAndGet();
    emitter.emit(
        QualityMetrics.dimensions(query)
                      .setDimension(MetricDimension.SIGNAL, admissionConfig.signal().name())
                      .setMetric(GetafixMetric.QUERY_SHED.metricName(), 1)
    );
    throw new QueryCapacityExceededException(
        QueryException.QUERY_CAPACITY_EXCEEDED_ERROR_CODE,
        StringUtils.format(
            "Query shed by Getafix admission control: its priority [%d] is below [%d], and only %.0f%% of such "
            + "queries are admitted while high-priority queries' %s is below its target [%s]. "
            + "Please try your query again later.",
            query.context().getPriority(),
            lowPriorityBelow,
            100 * controller.lowPriorityAdmitFraction(),
            admissionConfig.signal() == AdmissionConfig.Signal.ANSWER_QUALITY ? "answer quality" : "non-timeout rate",
            admissionConfig.target()
        ),
        QueryCapacityExceededException.class.getName(),
        null
    );
  }

  @Override
  public void onAnswered(BudgetedQuery<?> query, List<?> rows, long elapsedMillis)
  {
    completed(query.query(), query.coverage().timedOut());
  }

  @Override
  public void onFailed(BudgetedQuery<?> query, Throwable cause)
  {
    completed(query.query(), Timeouts.isTimeout(cause));
  }

  @Override
  public void onQualityMeasured(BudgetedQuery<?> query, AnswerQuality quality)
  {
    if (controller != null && isHighPriority(query.query())) {
      controller.onHighPriorityQuality(quality.quality());
    }
  }

  /** {@code query} completed; {@code timedOut}: a budget cut its answer short, or it failed on its timeout. */
  void completed(Query<?> query, boolean timedOut)
  {
    if (controller != null && isHighPriority(query)) {
      controller.onHighPriorityCompleted(timedOut);
    }
  }

  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    state.put("enabled", controller != null);
    if (controller != null) {
      state.put("signal", admissionConfig.signal());
      state.put("target", admissionConfig.target());
      final double signal = controller.signal();
      state.put("highPrioritySignal", Double.isFinite(signal) ? signal : null);
      state.put("lowPriorityAdmitFraction", controller.lowPriorityAdmitFraction());
      state.put("lowPriorityBelow", lowPriorityBelow);
      state.put("admittedLowPriorityQueries", admittedLowPriority.get());
      state.put("shedQueries", shed.get());
    }
    return state;
  }
}
