package org.getafix.localcluster.experiment;

import java.util.Comparator;
import java.util.List;

/**
 * The budget paper's throughput comparison (§5.4) on a live sweep: the highest offered load that keeps the
 * {@link LoadTarget} at it and at every lower load of the sweep. Between the last step that keeps it and the first that
 * misses it on quality alone, the crossing is interpolated linearly (quality falls steadily with load, and the steps
 * are coarse); a step that misses the response time ends the sustained load at the step before it, as in the
 * simulator's {@code SustainedLoad}.
 *
 * @param queriesPerSecond the sustained load in offered queries per second; 0 when even the lowest step misses
 * @param loadFactor       the same over the sweep's reference rate
 * @param limitedBy        what the next step missed: {@link #QUALITY}, {@link #RESPONSE_TIME}, or {@link #NONE} when
 *                         the sweep's highest step kept both, so that the figure is a lower bound
 */
public record SustainedLoad(double queriesPerSecond, double loadFactor, String limitedBy)
{
  public static final String QUALITY = "quality";
  public static final String RESPONSE_TIME = "response time";
  public static final String NONE = "none";

  public static SustainedLoad of(List<LoadStep> steps, LoadTarget target)
  {
    final List<LoadStep> sorted = steps.stream()
                                       .sorted(Comparator.comparingDouble(LoadStep::offeredPerSecond))
                                       .toList();
    LoadStep last = null;
    for (LoadStep step : sorted) {
      final boolean timely = target.timely(step.meanMillis());
      if (timely && target.good(step.meanQuality())) {
        last = step;
        continue;
      }
      if (last == null) {
        return new SustainedLoad(0, 0, timely ? QUALITY : RESPONSE_TIME);
      }
      if (!timely) {
        return new SustainedLoad(last.offeredPerSecond(), last.loadFactor(), RESPONSE_TIME);
      }
      // Timely but below the quality target, so it answered something, and its quality is below the last step's.
      final double t = (last.meanQuality() - target.qualityTarget()) / (last.meanQuality() - step.meanQuality());
      return new SustainedLoad(
          last.offeredPerSecond() + t * (step.offeredPerSecond() - last.offeredPerSecond()),
          last.loadFactor() + t * (step.loadFactor() - last.loadFactor()),
          QUALITY
      );
    }
    return last == null
           ? new SustainedLoad(0, 0, NONE)
           : new SustainedLoad(last.offeredPerSecond(), last.loadFactor(), NONE);
  }
}
