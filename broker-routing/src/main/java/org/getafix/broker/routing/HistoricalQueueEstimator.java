package org.getafix.broker.routing;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns each Historical's stats report into a queue length for the routing policies, in units of "waiting work
 * per processing thread" (0 = nothing waits; 2 = two scans wait for every thread).
 *
 * <p>Preferred input is a gauge {@code pendingSegmentScans} (the processing pool's queue at report time, what Druid
 * emits as {@code segment/scan/pending}). Without it, the queue is derived from the report's monotonic counters by
 * Little's law: total time scans spent waiting ({@code waitTimeMillis}, the sum of {@code query/wait/time}) per
 * elapsed time ({@code uptimeMillis}) is the average number of scans waiting over the round. That needs two reports
 * of the same process ({@code epoch}); a restart or a counter going backwards restarts the baseline. Used by one
 * thread (the routing round).
 */
final class HistoricalQueueEstimator
{
  private final Map<String, Sample> previous = new HashMap<>();

  /** @return the queue length, or NaN when this report does not allow an estimate (yet) */
  double estimate(String nodeId, JsonNode report)
  {
    final double threads = Math.max(1, report.path("numProcessingThreads").asDouble(1));
    final JsonNode pending = report.path("pendingSegmentScans");
    if (pending.isNumber()) {
      return pending.asDouble() >= 0 ? pending.asDouble() / threads : Double.NaN;
    }
    final JsonNode epoch = report.path("epoch");
    final JsonNode uptime = report.path("uptimeMillis");
    final JsonNode waited = report.path("waitTimeMillis");
    if (!uptime.isNumber() || !waited.isNumber()) {
      return Double.NaN;
    }
    final Sample current = new Sample(epoch.asText(""), uptime.asLong(), waited.asLong());
    final Sample before = previous.put(nodeId, current);
    if (before == null || !before.epoch.equals(current.epoch)) {
      return Double.NaN;
    }
    final long elapsed = current.uptimeMillis - before.uptimeMillis;
    final long waitedMillis = current.waitTimeMillis - before.waitTimeMillis;
    if (elapsed <= 0 || waitedMillis < 0) {
      return Double.NaN;
    }
    return (double) waitedMillis / elapsed / threads;
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
