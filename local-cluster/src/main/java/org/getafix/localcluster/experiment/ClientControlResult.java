package org.getafix.localcluster.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.getafix.localcluster.experiment.BudgetExperiment.INTERVAL;

/**
 * One run of {@link QueueingControlExperiment#controlRun}, judged on response times as the clients saw them, not on
 * the controller's own estimate. The queries that arrived before the step and those that arrived after it are each
 * taken in completion order and cut into control intervals of {@link BudgetExperiment#INTERVAL} answers, the
 * controller's adaptive period; a partial last interval is left out. An interval's figure is its answers' mean
 * response time.
 *
 * <p>Settling: the intervals after the step until the mean over the last {@link #SETTLE_WINDOW} intervals (fewer at the
 * start, only intervals after the step) stays within {@link ControlResult#SETTLE_BAND} of T to the end of the run. A
 * window, since the mean of 10 answers alone is noisier than the band: the controller smooths its response time too.
 * The error is the mean response time over the late half of the intervals after the step against T.
 *
 * @param intervalsBefore   mean response time (ms) of each control interval before the step
 * @param intervalsAfter    the same after it
 * @param targetMillis      T
 * @param rtErrorAfter      late-half mean after the step over T, minus 1; NaN without intervals after the step
 * @param settlingIntervals intervals after the step until the windowed mean stays within the band; null if it is
 *                          outside the band at the end of the run, i.e. did not settle
 * @param windowNoise       the standard error of a settling window's mean, as a share of T, from the spread of the
 *                          answers in the late half after the step, as if they were independent: how far the windowed
 *                          mean would wander with the true mean held exactly. A floor beside the band: a window is
 *                          outside it by chance 5% of the time at a noise of half the band, a third of the time at the
 *                          band's width, and settling ends only after the last window outside, of some 80 in a run.
 *                          Under queueing consecutive answers are alike, and the windows spread more
 * @param budgetBefore      the controller's mean budget over the late half of the time before the step; NaN unread
 * @param budgetAfter       the same after the step
 * @param estimateAfter     the controller's own response-time estimate (ms), its mean over the late half of the time
 *                          after the step; NaN unread. Beside the clients' mean it tells a controller that misses its
 *                          own estimate from time the Broker does not measure
 * @param failed            queries not answered with HTTP 200, left out of the response times
 */
public record ClientControlResult(
    List<Double> intervalsBefore,
    List<Double> intervalsAfter,
    long targetMillis,
    double rtErrorAfter,
    Integer settlingIntervals,
    double windowNoise,
    double budgetBefore,
    double budgetAfter,
    double estimateAfter,
    long failed
)
{
  /** Control intervals over which settling smooths the clients' mean response time: 50 answers. */
  public static final int SETTLE_WINDOW = 5;
  /** Where {@link BudgetExperiment#budgetAndEstimate} puts the budget and the estimate. */
  private static final int BUDGET = 0;
  private static final int ESTIMATE = 1;
  private static final int OK = 200;

  public ClientControlResult
  {
    intervalsBefore = List.copyOf(intervalsBefore);
    intervalsAfter = List.copyOf(intervalsAfter);
  }

  /**
   * The run over {@code outcomes}, the load stepping up at {@code stepMillis} and ending at {@code endMillis}, and the
   * controller's budget read along the way in {@code budgets}.
   */
  public static ClientControlResult of(
      List<BudgetLoad.Outcome> outcomes,
      List<BudgetLoad.Snapshot> budgets,
      long stepMillis,
      long endMillis,
      long targetMillis
  )
  {
    final List<BudgetLoad.Outcome> answered = outcomes.stream().filter(o -> o.status() == OK).toList();
    final List<Double> before = intervalMeans(answered.stream().filter(o -> startMillis(o) < stepMillis).toList());
    final List<BudgetLoad.Outcome> afterStep = answered.stream().filter(o -> startMillis(o) >= stepMillis).toList();
    final List<Double> after = intervalMeans(afterStep);
    final List<BudgetLoad.Outcome> lateAnswers =
        byCompletion(afterStep).subList(after.size() / 2 * INTERVAL, after.size() * INTERVAL);
    return new ClientControlResult(
        before,
        after,
        targetMillis,
        mean(after.subList(after.size() / 2, after.size())) / targetMillis - 1,
        settlingIntervals(after, targetMillis),
        standardDeviation(lateAnswers) / Math.sqrt(SETTLE_WINDOW * INTERVAL) / targetMillis,
        meanRead(budgets, BUDGET, stepMillis / 2, stepMillis),
        meanRead(budgets, BUDGET, (stepMillis + endMillis) / 2, endMillis),
        meanRead(budgets, ESTIMATE, (stepMillis + endMillis) / 2, endMillis),
        outcomes.size() - answered.size()
    );
  }

  /** When a query was sent: its completion less its response time, both as the client measured them. */
  static long startMillis(BudgetLoad.Outcome outcome)
  {
    return outcome.endMillis() - outcome.millis();
  }

  /** Mean response time of each whole interval of {@link BudgetExperiment#INTERVAL} answers, in completion order. */
  static List<Double> intervalMeans(List<BudgetLoad.Outcome> answered)
  {
    final List<BudgetLoad.Outcome> byCompletion = byCompletion(answered);
    final List<Double> means = new ArrayList<>();
    for (int k = 0; (k + 1) * INTERVAL <= byCompletion.size(); k++) {
      means.add(byCompletion.subList(k * INTERVAL, (k + 1) * INTERVAL)
                            .stream()
                            .mapToLong(BudgetLoad.Outcome::millis)
                            .average()
                            .orElseThrow());
    }
    return means;
  }

  private static List<BudgetLoad.Outcome> byCompletion(List<BudgetLoad.Outcome> answered)
  {
    return answered.stream().sorted((a, b) -> Integer.compare(a.index(), b.index())).toList();
  }

  /** The sample standard deviation of the answers' response times; NaN for fewer than two. */
  private static double standardDeviation(List<BudgetLoad.Outcome> answers)
  {
    final double mean = answers.stream().mapToLong(BudgetLoad.Outcome::millis).average().orElse(Double.NaN);
    final double squares = answers.stream().mapToDouble(o -> (o.millis() - mean) * (o.millis() - mean)).sum();
    return answers.size() < 2 ? Double.NaN : Math.sqrt(squares / (answers.size() - 1));
  }

  /**
   * Intervals after the step until the mean of the last {@link #SETTLE_WINDOW} interval means is within the band of
   * {@code targetMillis} for good (0 if it never left it); null if it is outside at the end, or there is no interval.
   * The intervals hold equally many answers, so the mean of their means is the mean of their answers.
   */
  static Integer settlingIntervals(List<Double> after, long targetMillis)
  {
    int lastOutside = -1;
    for (int k = 0; k < after.size(); k++) {
      final double windowed = mean(after.subList(Math.max(0, k + 1 - SETTLE_WINDOW), k + 1));
      if (!(Math.abs(windowed / targetMillis - 1) <= ControlResult.SETTLE_BAND)) {
        lastOutside = k;
      }
    }
    return lastOutside == after.size() - 1 ? null : lastOutside + 1;
  }

  /** The mean of the {@code index}th value read ({@link BudgetExperiment#budgetAndEstimate}) in [from, to). */
  private static double meanRead(List<BudgetLoad.Snapshot> budgets, int index, long fromMillis, long toMillis)
  {
    return budgets.stream()
                  .filter(s -> s.atMillis() >= fromMillis && s.atMillis() < toMillis)
                  .mapToDouble(s -> s.values()[index])
                  .filter(Double::isFinite)
                  .average()
                  .orElse(Double.NaN);
  }

  private static double mean(List<Double> values)
  {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** The controller's late budget after the step over before it: below 1 when it cut budgets to hold T. */
  public double budgetRatio()
  {
    return budgetAfter / budgetBefore;
  }

  /** Everything, for a report. */
  public Map<String, Object> figures()
  {
    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("targetMs", targetMillis);
    figures.put("intervalsBeforeStep", intervalsBefore.size());
    figures.put("intervalsAfterStep", intervalsAfter.size());
    figures.put("rtErrorAfter", rtErrorAfter);
    figures.put("settlingIntervalsAfterStep", settlingIntervals);
    figures.put("settleWindowNoise", windowNoise);
    figures.put("lateBudgetBeforeMs", budgetBefore);
    figures.put("lateBudgetAfterMs", budgetAfter);
    figures.put("lateControllerEstimateAfterMs", estimateAfter);
    figures.put("failed", failed);
    figures.put("meanRtMsBeforeStep", intervalsBefore.stream().map(Math::round).toList());
    figures.put("meanRtMsAfterStep", intervalsAfter.stream().map(Math::round).toList());
    return figures;
  }
}
