package org.getafix.localcluster.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import org.getafix.core.wire.MatureRunReport;
import org.getafix.localcluster.client.BrokerFormats;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One run of {@link BudgetExperiment#admissionRun}: high-priority closed-loop clients and open-loop low-priority
 * arrivals under one admission signal. The quality of an hourly timeseries answer is its answered share of segments,
 * so every high-priority query's quality is measured, not only the sampled ones'.
 *
 * @param figures                  everything measured, for a report
 * @param highPriorityShed         high-priority queries shed (HTTP 429)
 * @param highPriorityFailed       high-priority queries not answered with HTTP 200, shed ones included
 * @param lowPriorityShed          low-priority queries shed
 * @param lowPriorityAdmitted      low-priority queries answered
 * @param shedByBroker             what the Broker's admission controller counts as shed; -1 when it does not say
 * @param lowPriorityPerSecond     low-priority queries answered per second of the run
 * @param lowPriorityPerSecondLate the same over the late half of the run, once the controller has had time to act
 * @param highPriorityMeanMillis   high-priority queries' mean response time
 * @param highPriorityMeanQuality  the mean answered share of the high-priority queries answered
 * @param windows                  the run in {@link BudgetExperiment#ADMISSION_COMPARISON_WINDOW} windows, to compare
 *                                 policies at equal high-priority quality
 */
public record AdmissionResult(
    Map<String, Object> figures,
    long highPriorityShed,
    long highPriorityFailed,
    long lowPriorityShed,
    long lowPriorityAdmitted,
    long shedByBroker,
    double lowPriorityPerSecond,
    double lowPriorityPerSecondLate,
    double highPriorityMeanMillis,
    double highPriorityMeanQuality,
    AdmissionWindows windows
)
{
  static AdmissionResult of(String signal, BudgetLoad run, JsonNode state, String queryIdPrefix)
  {
    final List<BudgetLoad.Outcome> high = run.outcomes(BudgetLoad.Outcome::highPriority);
    final List<BudgetLoad.Outcome> low = run.outcomes(o -> !o.highPriority());
    final long seconds = run.durationMillis();
    final long half = seconds / 2;
    final long lowAdmitted = low.stream().filter(o -> o.status() == 200).count();
    final long lowAdmittedLate = low.stream().filter(o -> o.status() == 200 && o.endMillis() >= half).count();
    final long lowShed = low.stream().filter(o -> o.status() == 429).count();
    final long highShed = high.stream().filter(o -> o.status() == 429).count();
    final long highFailed = high.stream().filter(o -> o.status() != 200).count();
    final double highMillis = high.stream().mapToLong(BudgetLoad.Outcome::millis).average().orElse(Double.NaN);
    final double highQuality = high.stream()
                                   .filter(o -> o.status() == 200)
                                   .mapToDouble(BudgetLoad.Outcome::answeredShare)
                                   .average()
                                   .orElse(Double.NaN);
    final double highQualityLate = high.stream()
                                       .filter(o -> o.status() == 200 && o.endMillis() >= half)
                                       .mapToDouble(BudgetLoad.Outcome::answeredShare)
                                       .average()
                                       .orElse(Double.NaN);
    final double highWholeShare = high.stream().filter(o -> o.status() == 200).filter(o -> o.answeredShare() >= 1).count()
                                  / (double) Math.max(1, high.size() - highFailed);
    final double[] matureQualities = BrokerFormats.recentMatureRuns(state)
                                                  .stream()
                                                  .filter(r -> r.queryId().startsWith(queryIdPrefix + "high-"))
                                                  .mapToDouble(MatureRunReport::measuredQuality)
                                                  .filter(Double::isFinite)
                                                  .toArray();
    final JsonNode admission = state.path("admission");
    final AdmissionWindows windows = AdmissionWindows.of(
        run.outcomes(o -> true), seconds, BudgetExperiment.ADMISSION_COMPARISON_WINDOW.toMillis()
    );

    final Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("signal", signal);
    figures.put("durationMs", seconds);
    figures.put("highPriorityQueries", high.size());
    figures.put("highPriorityMeanMs", highMillis);
    figures.put("highPriorityMeanQuality", highQuality);
    figures.put("highPriorityMeanQualityLateHalf", highQualityLate);
    figures.put("highPriorityWholeShare", highWholeShare);
    figures.put("highPriorityMatureRuns", matureQualities.length);
    figures.put("highPriorityMeanMatureQuality", BudgetExperiment.mean(matureQualities));
    figures.put("highPriorityShed", highShed);
    figures.put("highPriorityFailed", highFailed);
    figures.put("lowPriorityArrivals", low.size());
    figures.put("lowPriorityAdmitted", lowAdmitted);
    figures.put("lowPriorityShed", lowShed);
    figures.put("lowPriorityPerSecond", lowAdmitted * 1000.0 / seconds);
    figures.put("lowPriorityPerSecondLateHalf", lowAdmittedLate * 1000.0 / (seconds - half));
    figures.put("highPriorityPerSecond", (high.size() - highFailed) * 1000.0 / seconds);
    figures.put("admission", admission);
    figures.put("windowMs", windows.windowMillis());
    figures.put("highPriorityTargetMetShare", windows.targetMetShare(BudgetExperiment.ADMISSION_TARGET));
    // Per window: low-priority answered, high-priority answered, their mean quality (null when none was answered).
    figures.put("windows", windows.windows()
                                  .stream()
                                  .map(w -> Arrays.asList(
                                      w.lowPriorityAnswered(),
                                      w.highPriorityAnswered(),
                                      w.highPriorityAnswered() == 0 ? null : round3(w.highPriorityMeanQuality())
                                  ))
                                  .collect(Collectors.toList()));
    // Every 10 completed queries: seconds into the run, the admitted low-priority share (GRADIENT2: the limit), the
    // signal (GRADIENT2: the queries in flight).
    figures.put("admissionSeries", run.snapshots()
                                      .stream()
                                      .map(x -> List.of(x.atMillis() / 1000.0, round3(x.values()[0]), round3(x.values()[1])))
                                      .collect(Collectors.toList()));
    figures.put("errors", run.errors());
    return new AdmissionResult(
        figures,
        highShed,
        highFailed,
        lowShed,
        lowAdmitted,
        admission.path("shedQueries").asLong(-1),
        lowAdmitted * 1000.0 / seconds,
        lowAdmittedLate * 1000.0 / (seconds - half),
        highMillis,
        highQuality,
        windows
    );
  }

  private static double round3(double value)
  {
    return Math.round(value * 1000) / 1000.0;
  }
}
