package org.getafix.demo;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Answer quality and coverage of a phase: how much of each budgeted answer its segments covered, how many answers
 * were partial, what the sampled mature runs measured, and how the straggler changed latency and partial answers.
 */
public final class QualityAnalysis
{
  /** Lower bounds of the coverage classes (answered share of the segments), highest first; the last class is the rest. */
  private static final double[] COVERAGE_FLOORS = {1.0, 0.9, 0.75, 0.5};
  private static final String[] COVERAGE_LABELS = {"1 (whole)", "[0.9, 1)", "[0.75, 0.9)", "[0.5, 0.75)", "< 0.5"};

  private QualityAnalysis()
  {
  }

  /**
   * The figures of one phase.
   *
   * @param budgeted         measured queries whose answer stated a coverage
   * @param partial          those the budget cut off (timedOut)
   * @param meanCoverage     mean answered share over the budgeted queries (NaN without any)
   * @param coverageClasses  class label → budgeted queries whose answered share falls in it, highest class first
   * @param matureRuns       measured quality samples
   * @param meanQuality      their mean (NaN without any)
   * @param p10Quality       their 10th percentile, nearest rank (NaN without any)
   */
  public record Figures(
      long budgeted,
      long partial,
      double meanCoverage,
      Map<String, Long> coverageClasses,
      long matureRuns,
      double meanQuality,
      double p10Quality
  )
  {
    public double partialFraction()
    {
      return budgeted == 0 ? Double.NaN : partial / (double) budgeted;
    }
  }

  /** Latency and partial answers of the queries sent in one part of the measurement. */
  public record Window(long queries, double p99Ms, long partial)
  {
    public double partialFraction()
    {
      return queries == 0 ? Double.NaN : partial / (double) queries;
    }
  }

  public static Figures figures(List<TimedQuery> timeline, List<Double> matureQualities)
  {
    final List<TimedQuery> budgeted = timeline.stream().filter(q -> q.coverage() != null).toList();
    final Map<String, Long> classes = new LinkedHashMap<>();
    for (String label : COVERAGE_LABELS) {
      classes.put(label, 0L);
    }
    for (TimedQuery q : budgeted) {
      classes.merge(COVERAGE_LABELS[coverageClass(q.coverage().fraction())], 1L, Long::sum);
    }
    final List<Double> qualities = matureQualities.stream().filter(Objects::nonNull).filter(d -> !d.isNaN()).sorted().toList();
    return new Figures(
        budgeted.size(),
        budgeted.stream().filter(TimedQuery::partial).count(),
        budgeted.stream().mapToDouble(q -> q.coverage().fraction()).average().orElse(Double.NaN),
        classes,
        qualities.size(),
        qualities.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
        qualities.isEmpty() ? Double.NaN : qualities.get((int) Math.floor(0.1 * (qualities.size() - 1)))
    );
  }

  static int coverageClass(double share)
  {
    for (int i = 0; i < COVERAGE_FLOORS.length; i++) {
      if (share >= COVERAGE_FLOORS[i]) {
        return i;
      }
    }
    return COVERAGE_FLOORS.length;
  }

  /** Queries sent before the straggler was throttled (all of them when there was no straggler). */
  public static Window beforeStraggler(PhaseRecord phase)
  {
    return window(phase.timeline(), q -> Double.isNaN(phase.stragglerAt()) || q.seconds() < phase.stragglerAt());
  }

  /** Queries sent once the straggler was throttled (none when there was no straggler). */
  public static Window afterStraggler(PhaseRecord phase)
  {
    return window(phase.timeline(), q -> !Double.isNaN(phase.stragglerAt()) && q.seconds() >= phase.stragglerAt());
  }

  static Window window(List<TimedQuery> timeline, Predicate<TimedQuery> in)
  {
    final Histogram latency = new Histogram(3);
    long partial = 0;
    for (TimedQuery q : timeline) {
      if (in.test(q)) {
        latency.recordValue(Math.max(1, Math.round(q.latencyMs() * 1000)));
        if (q.partial()) {
          partial++;
        }
      }
    }
    return new Window(
        latency.getTotalCount(),
        latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(99) / 1000.0,
        partial
    );
  }
}
