package org.getafix.simulator.execution;

import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import org.getafix.core.quality.control.BudgetControlConfig;
import org.getafix.core.quality.control.BudgetController;
import org.getafix.core.quality.control.FeedbackBudgetController;
import org.getafix.core.quality.control.ResponseTimeEstimator;
import org.getafix.core.quality.split.EqResv;
import org.getafix.simulator.cluster.Cluster;
import org.getafix.simulator.cluster.Query;
import org.getafix.simulator.engine.EventLoop;
import org.getafix.simulator.report.ControlTrace;
import org.getafix.simulator.report.ExecutionResult;
import org.getafix.simulator.settings.ScenarioSettings;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The Broker's budgeted execution and admission control in front of the simulated cluster: every query passes here on arrival and when its
 * answer is taken. One instance stands for the quality monitor of one Broker fronting the whole cluster (the
 * budget paper controls one server with one queue); routing stays per client.
 * <ul>
 *   <li>{@code full}: every query runs to its last segment, no control (the reference).</li>
 *   <li>{@code budget-*}: getafix-core's {@link FeedbackBudgetController} (integral, adaptive or hybrid) holds the
 *   mean response time at the target by moving the budget B, the total time granted to the pending queries; a new
 *   query gets {@link EqResv}'s share max(B / qLen, B − (qLen − 1)·w̄) as its deadline, qLen the pending queries
 *   including it and w̄ the mean response time of the queries that completed in full. At the deadline the answer
 *   is taken with the segments done so far and the rest are cancelled, as Druid cancels a timed-out query on the
 *   Historicals (a queued scan leaves the queue, a running one frees its core), so a cut query stops loading the
 *   cluster at once. With {@code budgetAs = segments} the share is spent up front instead, the way the paper's
 *   requests receive a processing time: the query asks only for as many segments of its interval (evenly spaced) as the
 *   share pays for at its type's mean cost per segment (at least one), and its answer waits for them; w̄ is then the mean
 *   full cost of the arriving queries (clairvoyant, as for the paper's finance server).</li>
 *   <li>{@code queue-admission}: the paper's QueueIS, the same hybrid controller moving a limit on the pending
 *   queries instead; a query arriving with the limit reached is rejected (quality 0), the others run in full.</li>
 *   <li>{@code queue-static}: the same admission with a fixed limit, tuned so that the response time meets the
 *   target under overload (the paper's OriginalIS with a well-chosen queue length).</li>
 * </ul>
 * Quality of an answer = the scenario's profile of its query type at the completed fraction of its segments.
 */
public final class ExecutionControl implements Cluster.QueryListener
{
  /**
   * The settling band: ±10% of the target, on the mean of the last 100 readings (1,000 answers). The controller's
   * EWMA (α = 0.05) of a cluster's heavy-tailed response times swings by more than the ±5% of the core test's
   * plant, so a raw reading would never settle.
   */
  private static final double SETTLING_BAND = 0.10;
  private static final int SETTLING_READINGS = 100;

  private final String mode;
  private final ScenarioSettings.Execution settings;
  private final ScenarioSettings.Run run;
  private final EventLoop loop;
  private final Cluster cluster;
  private final Cluster.QueryListener downstream;
  private final double measureFrom;
  private final double measureTo;
  private final BudgetController controller;
  private final EqResv split = new EqResv(EqResv.DEFAULT_ALPHA);
  private final int controlInterval;
  private final boolean spendOnSegments;
  /** Queries answered over part of their interval by design ({@code budgetAs = segments}): their fraction. */
  private final Map<Query, Double> plannedFraction = new IdentityHashMap<>();

  private int pending;
  private long answers;

  private long offered;
  private long rejected;
  private long answered;
  private long partial;
  private double qualitySum;
  private double fractionSum;
  private double responseSum;
  private double controlSum;

  private final DoubleArrayList traceSeconds = new DoubleArrayList();
  private final DoubleArrayList traceResponse = new DoubleArrayList();
  private final DoubleArrayList traceControl = new DoubleArrayList();
  private double stepResponseSum;
  private long stepAnswers;

  public ExecutionControl(
      ScenarioSettings.Execution settings,
      ScenarioSettings.Run run,
      EventLoop loop,
      Cluster cluster,
      Cluster.QueryListener downstream,
      double measureFrom,
      double measureTo
  )
  {
    this.mode = run.execution();
    this.settings = settings;
    this.run = run;
    this.loop = loop;
    this.cluster = cluster;
    this.downstream = downstream;
    this.measureFrom = measureFrom;
    this.measureTo = measureTo;
    final double target = settings.rtTargetMillis();
    final BudgetControlConfig config = switch (mode) {
      case "full" -> null;
      case "budget-hybrid" -> budgetConfig(BudgetControlConfig.Mode.HYBRID);
      case "budget-integral" -> budgetConfig(BudgetControlConfig.Mode.INTEGRAL);
      case "budget-adaptive" -> budgetConfig(BudgetControlConfig.Mode.ADAPTIVE);
      case "queue-admission" -> BudgetControlConfig.of(
          BudgetControlConfig.Mode.HYBRID,
          ResponseTimeEstimator.Kind.MEAN,
          target,
          1,
          settings.maxQueueLimit(),
          settings.maxQueueLimit()
      ).withIntegralGain(settings.queueIntegralGain());
      case "queue-static" -> null;
      default -> throw new IllegalArgumentException("unknown execution [" + mode + "]");
    };
    this.controller = config == null ? null : new FeedbackBudgetController(config);
    this.controlInterval = config == null ? BudgetControlConfig.DEFAULT_ADAPTIVE_PERIOD : config.adaptivePeriod();
    this.spendOnSegments = mode.startsWith("budget-") && "segments".equals(run.budgetAs());
  }

  private BudgetControlConfig budgetConfig(BudgetControlConfig.Mode controlMode)
  {
    // Starts at the top: light load, every query runs in full until the response time says otherwise.
    return BudgetControlConfig.of(
        controlMode,
        ResponseTimeEstimator.Kind.MEAN,
        settings.rtTargetMillis(),
        settings.minBudgetMillis(),
        settings.maxBudgetMillis(),
        settings.maxBudgetMillis()
    ).withIntegralGain(settings.budgetIntegralGain());
  }

  private boolean measured(Query query)
  {
    return query.arrivalTime() >= measureFrom && query.arrivalTime() < measureTo;
  }

  /** A query arrives; false when admission control rejects it (it is then answered empty at once). */
  public boolean admit(Query query)
  {
    final boolean counted = measured(query);
    if (counted) {
      offered++;
      controlSum += "queue-static".equals(mode) ? queueLimit() : controller == null ? Double.NaN : controller.budget();
    }
    if (mode.startsWith("queue-") && pending >= queueLimit()) {
      if (counted) {
        rejected++;
      }
      return false;
    }
    pending++;
    return true;
  }

  private long queueLimit()
  {
    return "queue-static".equals(mode) ? settings.staticQueueLimit() : Math.max(1, Math.round(controller.budget()));
  }

  /**
   * How many of the {@code intervalSegments} segments of an admitted query to query: all, except when the budget
   * is spent on segments.
   */
  public int segmentsToQuery(Query query, int intervalSegments)
  {
    if (!spendOnSegments) {
      return intervalSegments;
    }
    final double perSegment = query.type().meanTaskMillis();
    split.recordDemand(intervalSegments * perSegment);
    final double share = split.share(controller.budget(), pending);
    final int segments = (int) Math.max(1, Math.min(intervalSegments, Math.floor(share / perSegment)));
    if (segments < intervalSegments) {
      plannedFraction.put(query, (double) segments / intervalSegments);
    }
    return segments;
  }

  /** The query's tasks are dispatched: a budgeted query gets its deadline. */
  public void dispatched(Query query)
  {
    if (!mode.startsWith("budget-") || spendOnSegments) {
      return;
    }
    final double shareMillis = split.share(controller.budget(), pending);
    loop.schedule(query.arrivalTime() + shareMillis / 1000, () -> deadline(query));
  }

  private void deadline(Query query)
  {
    if (query.completedFraction() < 1) {
      final double fraction = query.completedFraction();
      cluster.cancel(query);
      answer(query, fraction);
    }
  }

  @Override
  public void onQueryDone(Query query, double now)
  {
    if (spendOnSegments) {
      final Double fraction = plannedFraction.remove(query);
      answer(query, fraction == null ? 1 : fraction);
    } else {
      split.recordDemand((now - query.arrivalTime()) * 1000);
      answer(query, 1);
    }
  }

  private void answer(Query query, double fraction)
  {
    final double now = loop.now();
    final double responseMillis = (now - query.arrivalTime()) * 1000;
    pending--;
    if (controller != null) {
      controller.onResponse(responseMillis);
    }
    if (measured(query)) {
      answered++;
      partial += fraction < 1 ? 1 : 0;
      qualitySum += settings.profileOf(query.type().name()).quality(fraction);
      fractionSum += fraction;
      responseSum += responseMillis;
    }
    if (run.loadStep() != null && secondHalfAfterStep(query.arrivalTime())) {
      stepResponseSum += responseMillis;
      stepAnswers++;
    }
    if (++answers % controlInterval == 0 && controller != null) {
      traceSeconds.add(now);
      traceResponse.add(controller.responseTimeEstimate());
      traceControl.add(controller.budget());
    }
    downstream.onQueryDone(query, now);
  }

  private boolean secondHalfAfterStep(double arrival)
  {
    final double step = run.loadStep().atSeconds();
    return arrival >= step + (measureTo - step) / 2 && arrival < measureTo;
  }

  public ExecutionResult result()
  {
    final double window = measureTo - measureFrom;
    Integer settling = null;
    Integer reach = null;
    Double steadyError = null;
    if (run.loadStep() != null && controller != null) {
      final int[] afterStep = settling();
      settling = afterStep[0];
      reach = afterStep[1];
      steadyError = stepAnswers == 0
                    ? Double.NaN
                    : Math.abs(stepResponseSum / stepAnswers - settings.rtTargetMillis()) / settings.rtTargetMillis();
    }
    return new ExecutionResult(
        mode,
        run.scheme(),
        run.loadFactor(),
        offered / window,
        answered / window,
        offered == 0 ? 0 : (double) rejected / offered,
        offered == 0 ? 0 : (double) partial / offered,
        offered == 0 ? 0 : qualitySum / offered,
        offered == 0 ? 0 : fractionSum / offered,
        answered == 0 ? 0 : responseSum / answered,
        settings.rtTargetMillis(),
        offered == 0 ? Double.NaN : controlSum / offered,
        settling,
        reach,
        steadyError
    );
  }

  /**
   * Control intervals from the load step until the controlled mean, smoothed over {@link #SETTLING_READINGS}
   * readings, stays within {@link #SETTLING_BAND} of the target up to the end of injection (settling), and until
   * it first comes within it (reach); each is all the intervals after the step when it never does.
   */
  private int[] settling()
  {
    final double step = run.loadStep().atSeconds();
    final double target = settings.rtTargetMillis();
    int first = -1;
    int lastOutside = -1;
    int firstInside = -1;
    int last = -1;
    for (int i = 0; i < traceSeconds.size() && traceSeconds.getDouble(i) < measureTo; i++) {
      if (traceSeconds.getDouble(i) < step) {
        continue;
      }
      if (first < 0) {
        first = i;
      }
      double smoothed = 0;
      final int from = Math.max(0, i - SETTLING_READINGS + 1);
      for (int k = from; k <= i; k++) {
        smoothed += traceResponse.getDouble(k);
      }
      smoothed /= i - from + 1;
      if (Math.abs(smoothed - target) > SETTLING_BAND * target) {
        lastOutside = i;
      } else if (firstInside < 0) {
        firstInside = i;
      }
      last = i;
    }
    if (first < 0) {
      return new int[]{0, 0};
    }
    return new int[]{
        lastOutside < 0 ? 0 : lastOutside - first + 1,
        firstInside < 0 ? last - first + 1 : firstInside - first
    };
  }

  public ControlTrace trace()
  {
    return new ControlTrace(
        traceSeconds.toDoubleArray(),
        traceResponse.toDoubleArray(),
        traceControl.toDoubleArray(),
        run.loadStep() == null ? Double.NaN : run.loadStep().atSeconds()
    );
  }
}
