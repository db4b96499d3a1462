package org.getafix.localcluster.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.getafix.localcluster.experiment.BudgetExperiment.INTERVAL;

/**
 * One run of {@link BudgetExperiment#controlRun}: a control mode through the load step, per control interval (in
 * {@code figures}) and summarised. Settling is counted in control intervals after the step, until the controlled
 * statistic (the controller's EWMA of response time, read at the end of each interval) stays within ±5% (and,
 * separately, ±10%) of the target to the end of the run; the steady-state error is the mean response time of the
 * second half of each phase's intervals against the target.
 *
 * @param figures           everything measured, per interval and summarised, for a report
 * @param failed            queries not answered with HTTP 200
 * @param unbudgeted        answered queries without coverage, i.e. not budgeted by the controller
 * @param intervalsBefore   complete control intervals before the step
 * @param intervalsAfter    complete control intervals after it
 * @param budgetBefore      the controller's mean budget over the late half of the intervals before the step
 * @param budgetAfter       the same after the step
 * @param rtErrorAfter      the mean response time of the late half of the intervals after the step over the target,
 *                          minus 1
 * @param settlingIntervals intervals after the step until the controlled statistic stays within {@link #SETTLE_BAND};
 *                          null when it is outside the band at the end of the run, i.e. did not settle
 */
public record ControlResult(
    Map<String, Object> figures,
    long failed,
    long unbudgeted,
    int intervalsBefore,
    int intervalsAfter,
    double budgetBefore,
    double budgetAfter,
    double rtErrorAfter,
    Integer settlingIntervals
)
{
  public static final double SETTLE_BAND = 0.05;
  /** A second, wider band: how noisy the controlled statistic itself is on this plant decides which one is met. */
  public static final double WIDE_SETTLE_BAND = 0.10;

  static ControlResult of(String mode, BudgetLoad run, int stepIndex, long targetMs)
  {
    final List<BudgetLoad.Outcome> outcomes = run.outcomes(o -> true);
    final Map<Integer, BudgetLoad.Snapshot> snapshots = run.snapshots()
                                                           .stream()
                                                           .collect(Collectors.toMap(
                                                               BudgetLoad.Snapshot::index,
                                                               s -> s,
                                                               (a, b) -> a
                                                           ));
    // Interval k holds completions k·10+1 … k·10+10; it is after the step if it ends after the step.
    final List<Map<String, Object>> intervals = new ArrayList<>();
    final List<double[]> before = new ArrayList<>();
    final List<double[]> after = new ArrayList<>();
    for (int k = 0; (k + 1) * INTERVAL <= outcomes.size(); k++) {
      final List<BudgetLoad.Outcome> in = outcomes.subList(k * INTERVAL, (k + 1) * INTERVAL);
      final double meanRt = in.stream().mapToLong(BudgetLoad.Outcome::millis).average().orElse(Double.NaN);
      final double share = in.stream()
                             .mapToDouble(BudgetLoad.Outcome::answeredShare)
                             .filter(Double::isFinite)
                             .average()
                             .orElse(Double.NaN);
      final BudgetLoad.Snapshot snapshot = snapshots.get((k + 1) * INTERVAL);
      final boolean isAfter = (k + 1) * INTERVAL > stepIndex;
      final double budget = snapshot == null ? Double.NaN : snapshot.values()[0];
      final double estimate = snapshot == null ? Double.NaN : snapshot.values()[1];
      final Map<String, Object> interval = new LinkedHashMap<>();
      interval.put("interval", k + 1);
      interval.put("afterStep", isAfter);
      interval.put("meanRtMs", Math.round(meanRt));
      interval.put("budgetMs", Math.round(budget));
      interval.put("rtEstimateMs", Math.round(estimate));
      interval.put("answeredShare", Math.round(share * 1000) / 1000.0);
      intervals.add(interval);
      (isAfter ? after : before).add(new double[]{meanRt, budget, estimate, share});
    }
    final List<double[]> lateBefore = before.subList(before.size() / 2, before.size());
    final List<double[]> lateAfter = after.subList(after.size() / 2, after.size());
    final double rtBefore = column(lateBefore, 0);
    final double rtAfter = column(lateAfter, 0);
    final double budgetBefore = column(lateBefore, 1);
    final double budgetAfter = column(lateAfter, 1);
    final Integer settle = settlingIntervals(after, SETTLE_BAND, targetMs);
    final Integer settleWide = settlingIntervals(after, WIDE_SETTLE_BAND, targetMs);

    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("mode", mode);
    figures.put("queries", outcomes.size());
    figures.put("stepAtQuery", stepIndex);
    figures.put("durationMs", run.durationMillis());
    figures.put("intervalsBeforeStep", before.size());
    figures.put("intervalsAfterStep", after.size());
    figures.put("lateMeanRtBeforeMs", rtBefore);
    figures.put("lateMeanRtAfterMs", rtAfter);
    figures.put("rtErrorBefore", rtBefore / targetMs - 1);
    figures.put("rtErrorAfter", rtAfter / targetMs - 1);
    figures.put("estimateErrorBefore", column(lateBefore, 2) / targetMs - 1);
    figures.put("estimateErrorAfter", column(lateAfter, 2) / targetMs - 1);
    figures.put("settlingIntervalsAfterStep", settle);
    figures.put("settlingIntervalsAfterStepWithin10Percent", settleWide);
    figures.put("lateEstimateSdOverTarget", sd(lateAfter, 2) / targetMs);
    figures.put("lateBudgetBeforeMs", budgetBefore);
    figures.put("lateBudgetAfterMs", budgetAfter);
    figures.put("budgetRatioAfterOverBefore", budgetAfter / budgetBefore);
    figures.put("lateAnsweredShareBefore", column(lateBefore, 3));
    figures.put("lateAnsweredShareAfter", column(lateAfter, 3));
    figures.put("intervals", intervals);
    figures.put("errors", run.errors());
    return new ControlResult(
        figures,
        outcomes.stream().filter(o -> o.status() != 200).count(),
        outcomes.stream().filter(o -> o.status() == 200 && Double.isNaN(o.answeredShare())).count(),
        before.size(),
        after.size(),
        budgetBefore,
        budgetAfter,
        rtAfter / targetMs - 1,
        settle
    );
  }

  /**
   * Intervals after the step until the controlled statistic (column 2 of {@code after}) is within ±{@code band} of
   * the target for good (0 if it never left the band); null if it is outside the band at the end of the run, i.e. did
   * not settle.
   */
  static Integer settlingIntervals(List<double[]> after, double band, long targetMs)
  {
    int lastOutside = -1;
    for (int k = 0; k < after.size(); k++) {
      final double estimate = after.get(k)[2];
      if (!(Math.abs(estimate / targetMs - 1) <= band)) {
        lastOutside = k;
      }
    }
    return lastOutside == after.size() - 1 ? null : lastOutside + 1;
  }

  private static double column(List<double[]> rows, int column)
  {
    return rows.stream().mapToDouble(r -> r[column]).filter(Double::isFinite).average().orElse(Double.NaN);
  }

  private static double sd(List<double[]> rows, int column)
  {
    final double mean = column(rows, column);
    return Math.sqrt(rows.stream()
                         .mapToDouble(r -> r[column])
                         .filter(Double::isFinite)
                         .map(v -> (v - mean) * (v - mean))
                         .average()
                         .orElse(Double.NaN));
  }
}
