package org.getafix.druid.coordinator.stats;

import org.getafix.core.wire.HistoricalStatsReport;

import javax.annotation.Nullable;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns the monotonic counters each Historical reports into per-round deltas. Keeps, per node, the last report it
 * accepted; a report whose counters go backwards is rejected with a reason naming the value and leaves that baseline
 * alone, so the next good report's delta covers the lost round(s). Not thread-safe: used by the planner thread only.
 */
public final class NodeStatsTracker
{
  private final Map<String, HistoricalStatsReport> lastGood = new HashMap<>();

  /**
   * What one node's report gave this round: a delta, nothing yet (first report of a node or of this leader: it only
   * sets the baseline), or a problem.
   *
   * @param delta   the round's counters, or null
   * @param problem why the report was rejected, or null
   */
  public record Outcome(@Nullable NodeDelta delta, @Nullable String problem)
  {
    static Outcome baseline()
    {
      return new Outcome(null, null);
    }

    static Outcome rejected(String problem)
    {
      return new Outcome(null, problem);
    }
  }

  /**
   * One node's counters for one round.
   *
   * @param wallMillis           length of the round on the node's monotonic clock
   * @param numProcessingThreads processing threads of the node
   * @param cpuTimeMicros        query CPU time
   * @param segmentTimeMillis    sum of segment scan times
   * @param segmentScans         number of segment scans
   * @param segments             segment id → its counters this round (only segments scanned in the round)
   * @param cpuCores             CPU the node may use, in cores, as it reported last; 0 when it does not say
   * @param processCpuMicros     CPU time of the whole Historical process; 0 when unknown: the node does not report
   *                             it, or the round starts at the node's start, whose start-up CPU is no query's cost
   */
  public record NodeDelta(
      long wallMillis,
      int numProcessingThreads,
      long cpuTimeMicros,
      long segmentTimeMillis,
      long segmentScans,
      Map<String, HistoricalStatsReport.SegmentStats> segments,
      double cpuCores,
      long processCpuMicros
  )
  {
  }

  /**
   * @param report a report without {@link HistoricalStatsReport#problem()}, as {@link StatsPuller} passes them on
   */
  public Outcome observe(String node, HistoricalStatsReport report)
  {
    final HistoricalStatsReport previous = lastGood.get(node);
    if (previous == null) {
      lastGood.put(node, report);
      return Outcome.baseline();
    }
    if (!previous.epoch().equals(report.epoch())) {
      // The Historical restarted: its counters count from its start.
      lastGood.put(node, report);
      return report.uptimeMillis() > 0 ? new Outcome(deltaOf(null, report), null) : Outcome.baseline();
    }
    final String regression = regressionOf(previous, report);
    if (regression != null) {
      return Outcome.rejected(regression);
    }
    lastGood.put(node, report);
    return new Outcome(deltaOf(previous, report), null);
  }

  /** Forgets a node that left: if it comes back, its first report is a new baseline. */
  public void forget(String node)
  {
    lastGood.remove(node);
  }

  public void clear()
  {
    lastGood.clear();
  }

  @Nullable
  private static String regressionOf(HistoricalStatsReport previous, HistoricalStatsReport current)
  {
    if (current.uptimeMillis() <= previous.uptimeMillis()) {
      return "uptimeMillis did not advance [" + previous.uptimeMillis() + " -> " + current.uptimeMillis() + "]";
    }
    if (current.cpuTimeMicros() < previous.cpuTimeMicros()) {
      return "cpuTimeMicros went backwards [" + previous.cpuTimeMicros() + " -> " + current.cpuTimeMicros() + "]";
    }
    if (current.processCpuMicros() < previous.processCpuMicros() && current.processCpuMicros() > 0) {
      return "processCpuMicros went backwards [" + previous.processCpuMicros() + " -> "
             + current.processCpuMicros() + "]";
    }
    if (current.segmentTimeMillis() < previous.segmentTimeMillis()) {
      return "segmentTimeMillis went backwards [" + previous.segmentTimeMillis() + " -> "
             + current.segmentTimeMillis() + "]";
    }
    if (current.segmentScans() < previous.segmentScans()) {
      return "segmentScans went backwards [" + previous.segmentScans() + " -> " + current.segmentScans() + "]";
    }
    if (current.queryTimeMillis() < previous.queryTimeMillis() || current.queryTimes() < previous.queryTimes()) {
      return "query time counters went backwards";
    }
    return null;
  }

  private static NodeDelta deltaOf(@Nullable HistoricalStatsReport previous, HistoricalStatsReport current)
  {
    final Map<String, HistoricalStatsReport.SegmentStats> segments = new HashMap<>();
    for (Map.Entry<String, HistoricalStatsReport.SegmentStats> e : current.segments().entrySet()) {
      final HistoricalStatsReport.SegmentStats now = e.getValue();
      final HistoricalStatsReport.SegmentStats before = previous == null ? null : previous.segments().get(e.getKey());
      final HistoricalStatsReport.SegmentStats delta;
      if (before == null || now.scans() < before.scans() || now.timeMillis() < before.timeMillis()) {
        // New, or evicted while idle and counting again from zero.
        delta = now;
      } else {
        delta = new HistoricalStatsReport.SegmentStats(now.timeMillis() - before.timeMillis(),
                                                       now.scans() - before.scans());
      }
      if (delta.scans() > 0 || delta.timeMillis() > 0) {
        segments.put(e.getKey(), delta);
      }
    }
    return new NodeDelta(
        previous == null ? current.uptimeMillis() : current.uptimeMillis() - previous.uptimeMillis(),
        current.numProcessingThreads(),
        current.cpuTimeMicros() - (previous == null ? 0 : previous.cpuTimeMicros()),
        current.segmentTimeMillis() - (previous == null ? 0 : previous.segmentTimeMillis()),
        current.segmentScans() - (previous == null ? 0 : previous.segmentScans()),
        segments,
        current.cpuCores(),
        previous == null || previous.processCpuMicros() == 0 || current.processCpuMicros() == 0
        ? 0
        : current.processCpuMicros() - previous.processCpuMicros()
    );
  }
}
