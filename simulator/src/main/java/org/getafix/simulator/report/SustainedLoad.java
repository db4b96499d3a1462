package org.getafix.simulator.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The budget paper's throughput comparison (§5.4: "to keep SEM ≤ 0.1, the queue-based approach sustains less than
 * 2.5 QPS while budget-based sustains more than 5"): per scheme of a load sweep, the highest offered load at which
 * the mean response time stays within the target (+5% for noise) and the mean quality at or above the quality
 * target, for that load and every lower one. Between the last load that passes and the first that fails on
 * quality, the crossing is interpolated linearly.
 *
 * @param loadFactor         the sustained load factor; 0 when even the lowest swept load fails
 * @param queriesPerSecond   offered queries per second at that load (interpolated the same way)
 * @param limitedBy          what the next load failed on: "quality", "response time", or "none" (the sweep's top)
 */
public record SustainedLoad(double loadFactor, double queriesPerSecond, String limitedBy)
{
  public static final double RESPONSE_TOLERANCE = 0.05;

  /** Per scheme, in the order the schemes first appear; runs without execution figures are left out. */
  public static Map<String, SustainedLoad> of(List<RunOutcome> outcomes, double qualityTarget)
  {
    final Map<String, List<ExecutionResult>> byScheme = new LinkedHashMap<>();
    for (RunOutcome o : outcomes) {
      final ExecutionResult e = o.result().execution();
      if (e != null && e.settlingIntervals() == null) {
        byScheme.computeIfAbsent(e.scheme(), s -> new ArrayList<>()).add(e);
      }
    }
    final Map<String, SustainedLoad> sustained = new LinkedHashMap<>();
    byScheme.forEach((scheme, points) -> sustained.put(scheme, ofSweep(points, qualityTarget)));
    return sustained;
  }

  static SustainedLoad ofSweep(List<ExecutionResult> points, double qualityTarget)
  {
    final List<ExecutionResult> sorted = new ArrayList<>(points);
    sorted.sort(Comparator.comparingDouble(ExecutionResult::loadFactor));
    ExecutionResult last = null;
    for (ExecutionResult p : sorted) {
      final boolean timely = p.meanResponseMillis() <= (1 + RESPONSE_TOLERANCE) * p.responseTargetMillis();
      final boolean good = p.meanQuality() >= qualityTarget;
      if (timely && good) {
        last = p;
        continue;
      }
      if (last == null) {
        return new SustainedLoad(0, 0, timely ? "quality" : "response time");
      }
      if (!timely) {
        return new SustainedLoad(last.loadFactor(), last.offeredQueriesPerSecond(), "response time");
      }
      final double t = (last.meanQuality() - qualityTarget) / (last.meanQuality() - p.meanQuality());
      return new SustainedLoad(
          last.loadFactor() + t * (p.loadFactor() - last.loadFactor()),
          last.offeredQueriesPerSecond() + t * (p.offeredQueriesPerSecond() - last.offeredQueriesPerSecond()),
          "quality"
      );
    }
    return last == null
           ? new SustainedLoad(0, 0, "none")
           : new SustainedLoad(last.loadFactor(), last.offeredQueriesPerSecond(), "none");
  }
}
