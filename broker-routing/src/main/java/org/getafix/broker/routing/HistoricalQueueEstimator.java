package org.getafix.broker.routing;

import org.getafix.core.wire.HistoricalStatsReport;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns each Historical's stats report into a queue length for the routing policies, in units of "waiting work
 * per processing thread" (0 = nothing waits; 2 = two scans wait for every thread).
 *
 * <p>The queue is derived from the report's monotonic counters by Little's law: total time scans spent waiting for
 * a processing thread ({@code waitTimeMillis}, the sum of {@code query/wait/time}) per elapsed time
 * ({@code uptimeMillis}) is the average number of scans waiting over the round. That needs two reports of the same
 * process ({@code epoch}); a restart or a counter going backwards restarts the baseline. Used by one thread (the
 * routing round).
 */
final class HistoricalQueueEstimator
{
  private final Map<String, Sample> previous = new HashMap<>();

  /**
   * @param report a report without {@link HistoricalStatsReport#problem()}
   * @return the queue length, or NaN when this report does not allow an estimate (yet)
   */
  double estimate(String nodeId, HistoricalStatsReport report)
  {
    final Sample current = new Sample(report.epoch(), report.uptimeMillis(), report.waitTimeMillis());
    final Sample before = previous.put(nodeId, current);
    if (before == null || !before.epoch.equals(current.epoch)) {
      return Double.NaN;
    }
    final long elapsed = current.uptimeMillis - before.uptimeMillis;
    final long waitedMillis = current.waitTimeMillis - before.waitTimeMillis;
    if (elapsed <= 0 || waitedMillis < 0) {
      return Double.NaN;
    }
    return (double) waitedMillis / elapsed / report.numProcessingThreads();
  }

  /** Forgets Historicals that are gone. */
  void retain(Set<String> nodeIds)
  {
    previous.keySet().retainAll(nodeIds);
  }

  private record Sample(String epoch, long uptimeMillis, long waitTimeMillis)
  {
  }
}
