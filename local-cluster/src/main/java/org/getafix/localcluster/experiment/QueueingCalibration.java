package org.getafix.localcluster.experiment;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queueing plant's load and target, from whole answers at 1, 2, 3, ... closed-loop clients
 * ({@link ConcurrencyProbe}): T is {@link ConcurrencyProbe#TARGET_FACTOR} times the mean whole answer alone, the
 * capacity the most whole answers per second any level got, and the load before the step λ a share of that capacity
 * such that 2λ exceeds it. Past capacity a queue of whole answers grows without bound, so after the step whole answers
 * would wait longer and longer, past T within seconds: the controller holds T only by cutting answers.
 *
 * @param targetMillis      T
 * @param aloneMillis       the mean whole answer of one client
 * @param capacityPerSecond whole answers per second at the best probe level: the cluster's capacity for them
 * @param ratePerSecond     λ, the Poisson arrival rate before the step
 */
public record QueueingCalibration(long targetMillis, double aloneMillis, double capacityPerSecond, double ratePerSecond)
{
  /**
   * λ over the capacity: 2λ is then 1.3× the capacity, a queue of whole answers growing by 0.3 of the capacity each
   * second, with room for the probe to have underestimated the capacity (its levels stop once one misses T, a little
   * short of saturation at most); and before the step the Historicals are idle a third of the time.
   */
  public static final double LOAD_BEFORE_STEP = 0.65;

  public static QueueingCalibration of(ConcurrencyProbe probe)
  {
    final ConcurrencyProbe.Level alone = probe.levels().get(0);
    final double capacity = probe.levels()
                                 .stream()
                                 .mapToDouble(ConcurrencyProbe.Level::perSecond)
                                 .filter(Double::isFinite)
                                 .max()
                                 .orElse(Double.NaN);
    return new QueueingCalibration(
        ConcurrencyProbe.targetMillis(alone),
        alone.meanMillis(),
        capacity,
        LOAD_BEFORE_STEP * capacity
    );
  }

  /** 2λ: the arrival rate after the step. */
  public double rateAfterStep()
  {
    return ArrivalSchedule.STEP_FACTOR * ratePerSecond;
  }

  /** 2λ over the capacity: above 1, whole answers would queue without bound after the step. */
  public double loadAfterStep()
  {
    return rateAfterStep() / capacityPerSecond;
  }

  /**
   * The wait a whole answer would have on top of its own time {@code secondsAfterStep} after the step, had nothing been
   * cut: the backlog grows by 2λ − capacity a second and drains at the capacity. 0 when 2λ is within capacity.
   */
  public double wholeAnswerQueueMillis(double secondsAfterStep)
  {
    return Math.max(0, rateAfterStep() - capacityPerSecond) * secondsAfterStep / capacityPerSecond * 1000;
  }

  /** Seconds after the step until a whole answer's wait alone would reach T; infinite when 2λ is within capacity. */
  public double secondsUntilWholeAnswersWaitTarget()
  {
    final double growth = rateAfterStep() - capacityPerSecond;
    return growth > 0 ? targetMillis / 1000.0 * capacityPerSecond / growth : Double.POSITIVE_INFINITY;
  }

  /**
   * Queries in flight at T after the step (2λ × T, Little's law): each budgeted query holds one of the Broker's
   * connections to every Historical until its deadline, and past {@link LaningExperiment#MAX_IN_FLIGHT} sub-queries
   * would wait for a connection, which measures the Broker's pools rather than the Historicals' queues.
   */
  public double inFlightAtTargetAfterStep()
  {
    return rateAfterStep() * targetMillis / 1000;
  }

  /** Whether the plant is the one meant: overloaded for whole answers after the step, within the Broker's pools. */
  public boolean valid()
  {
    return loadAfterStep() > 1 && inFlightAtTargetAfterStep() <= LaningExperiment.MAX_IN_FLIGHT;
  }

  /** Everything, for a report; {@code afterStepSeconds} is how long the load runs after the step. */
  public Map<String, Object> figures(double afterStepSeconds)
  {
    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("targetMs", targetMillis);
    figures.put("wholeAloneMeanMs", aloneMillis);
    figures.put("wholeCapacityPerSecond", capacityPerSecond);
    figures.put("loadBeforeStep", LOAD_BEFORE_STEP);
    figures.put("ratePerSecondBeforeStep", ratePerSecond);
    figures.put("ratePerSecondAfterStep", rateAfterStep());
    figures.put("loadAfterStep", loadAfterStep());
    figures.put("secondsUntilWholeAnswersWaitTarget", secondsUntilWholeAnswersWaitTarget());
    figures.put("wholeAnswerQueueMsAtEnd", wholeAnswerQueueMillis(afterStepSeconds));
    figures.put("inFlightAtTargetAfterStep", inFlightAtTargetAfterStep());
    figures.put("valid", valid());
    return figures;
  }
}
