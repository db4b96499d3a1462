package org.getafix.druid.coordinator.stats;

import org.getafix.core.wire.HistoricalStatsReport;
import org.getafix.core.wire.StatsPlausibility;

import javax.annotation.Nullable;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns the monotonic counters each Historical reports into per-round deltas. Keeps, per node, the last report it
 * accepted and when it received it. A report that is implausible ({@link StatsPlausibility}: on its own, or after
 * the accepted one, e.g. counters that went backwards or grew faster than the node's cores allow) is rejected with a
 * reason naming the value and leaves that baseline alone, so one absurd report neither becomes a delta nor the
 * baseline the next genuine report is diffed against, and the next good report's delta covers the lost round(s).
 * Only when {@value #REBASE_AFTER} reports in a row fail against the baseline (though each is plausible on its own),
 * the counters really moved, e.g. a restart that kept its epoch: the last of them becomes the new baseline, without a
 * delta, rather than the node being rejected for ever. A rise of a node's {@code cpuCores} within one process is
 * believed only as the node delivers it ({@link StatsPlausibility#believedCores}), so the deltas carry the cores
 * believed, not those claimed. Not thread-safe: used by the planner thread only.
 */
public final class NodeStatsTracker
{
  /** Consecutive reports that must fail against the baseline before the last of them replaces it. */
  static final int REBASE_AFTER = 3;

  private final long graceMillis;
  private final Map<String, Baseline> lastGood = new HashMap<>();
  private final Map<String, Integer> implausibleInARow = new HashMap<>();

  /**
   * @param graceMillis the pull deadline: how much earlier than its receipt a report may have been written
   */
  public NodeStatsTracker(long graceMillis)
  {
    this.graceMillis = graceMillis;
  }

  /**
   * @param believedCores the cores the node's rounds are measured against ({@link StatsPlausibility#believedCores})
   */
  private record Baseline(HistoricalStatsReport report, long receivedMillis, double believedCores)
  {
  }

  /**
   * What one node's report gave this round: a delta, nothing yet (first report of a node or of this leader: it only
   * sets the baseline), or a problem.
   *
   * @param delta            the round's counters, or null
   * @param problem          why the report was not used, or null
   * @param implausibleField the field at fault when the report was received but is implausible (see
   *                         {@link StatsPlausibility.Problem#field()}), else null
   */
  public record Outcome(@Nullable NodeDelta delta, @Nullable String problem, @Nullable String implausibleField)
  {
    static Outcome baseline()
    {
      return new Outcome(null, null, null);
    }

    static Outcome rejected(String problem)
    {
      return new Outcome(null, problem, null);
    }

    static Outcome implausible(StatsPlausibility.Problem problem, String consequence)
    {
      return new Outcome(null, problem.message() + consequence, problem.field());
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
   * @param cpuCores             CPU the node may use, in cores, as it reported last, but a rise within one process
   *                             only as far as the node showed it ({@link StatsPlausibility#believedCores}); 0 when
   *                             it does not say
   * @param processCpuMicros     CPU time of the whole Historical process; 0 when unknown: the node does not report
   *                             it, or the round starts at the node's start, whose start-up CPU is no query's cost
   * @param stalledMillis        time the node's process could not run when it should have; 0 when it does not say
   */
  public record NodeDelta(
      long wallMillis,
      int numProcessingThreads,
      long cpuTimeMicros,
      long segmentTimeMillis,
      long segmentScans,
      Map<String, HistoricalStatsReport.SegmentStats> segments,
      double cpuCores,
      long processCpuMicros,
      long stalledMillis
  )
  {
  }

  /**
   * @param report         a report without {@link HistoricalStatsReport#problem()}, as {@link StatsPuller} passes
   *                       them on
   * @param receivedMillis when the report arrived, on the reader's monotonic clock
   */
  public Outcome observe(String node, HistoricalStatsReport report, long receivedMillis)
  {
    final StatsPlausibility.Problem absurd = StatsPlausibility.problemOf(report);
    if (absurd != null) {
      return Outcome.implausible(absurd, "; the report is ignored");
    }
    final Baseline previous = lastGood.get(node);
    if (previous == null) {
      accept(node, report, receivedMillis, report.cpuCores());
      return Outcome.baseline();
    }
    // A new epoch: the Historical restarted, its counters count from its start.
    final boolean restarted = !previous.report().epoch().equals(report.epoch());
    final StatsPlausibility.Problem problem = StatsPlausibility.problemOf(
        restarted ? null : previous.report(),
        report,
        receivedMillis - previous.receivedMillis(),
        graceMillis
    );
    if (problem != null) {
      final int inARow = implausibleInARow.merge(node, 1, Integer::sum);
      if (inARow < REBASE_AFTER) {
        return Outcome.implausible(problem, "; diffing the next report against the last accepted one");
      }
      // Counters that moved for good say nothing about the CPU the node delivered.
      final double believed = StatsPlausibility.believedCores(previous.believedCores(), report.cpuCores(), 0);
      accept(node, report, receivedMillis, believed);
      return Outcome.implausible(
          problem,
          "; after " + inARow + " implausible reports in a row, this one is the new baseline"
      );
    }
    if (restarted) {
      accept(node, report, receivedMillis, report.cpuCores());
      return report.uptimeMillis() > 0
             ? new Outcome(deltaOf(null, report, report.cpuCores()), null, null)
             : Outcome.baseline();
    }
    final double believed = StatsPlausibility.believedCores(
        previous.believedCores(),
        report.cpuCores(),
        deliveredCores(previous.report(), report)
    );
    accept(node, report, receivedMillis, believed);
    return new Outcome(deltaOf(previous.report(), report, believed), null, null);
  }

  /** CPU time over wall time between two reports of one process: the process CPU, or the query CPU without it. */
  private static double deliveredCores(HistoricalStatsReport previous, HistoricalStatsReport current)
  {
    final long wallMillis = current.uptimeMillis() - previous.uptimeMillis();
    if (wallMillis <= 0) {
      return 0;
    }
    final long cpuMicros = Math.max(
        current.cpuTimeMicros() - previous.cpuTimeMicros(),
        current.processCpuMicros() - previous.processCpuMicros()
    );
    return cpuMicros / 1000.0 / wallMillis;
  }

  /** Forgets a node that left: if it comes back, its first report is a new baseline. */
  public void forget(String node)
  {
    lastGood.remove(node);
    implausibleInARow.remove(node);
  }

  public void clear()
  {
    lastGood.clear();
    implausibleInARow.clear();
  }

  private void accept(String node, HistoricalStatsReport report, long receivedMillis, double believedCores)
  {
    lastGood.put(node, new Baseline(report, receivedMillis, believedCores));
    implausibleInARow.remove(node);
  }

  private static NodeDelta deltaOf(
      @Nullable HistoricalStatsReport previous,
      HistoricalStatsReport current,
      double believedCores
  )
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
        believedCores,
        previous == null || previous.processCpuMicros() == 0 || current.processCpuMicros() == 0
        ? 0
        : current.processCpuMicros() - previous.processCpuMicros(),
        current.stalledMillis() - (previous == null ? 0 : previous.stalledMillis())
    );
  }
}
