package org.getafix.core.wire;

import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Whether a {@link HistoricalStatsReport} can be true: well-formed ({@link HistoricalStatsReport#problem()}) is not
 * enough, because one report of absurd but well-formed counters (a counter at {@code Long.MAX_VALUE}, CPU time that
 * would need a thousand cores, an uptime that jumped by years) turned into a delta rates its Historical as the
 * strongest of the tier, and, taken as the baseline, makes every later genuine report look as if it went backwards.
 *
 * <p>The bounds are physical, with room to spare, so that no genuine report fails them:
 * <ul>
 *   <li>on one report: {@code cpuCores} is 0 (not reported) or in [{@value #MIN_CPU_CORES},
 *   {@value #MAX_CPU_CORES}]; processing threads at most {@value #MAX_PROCESSING_THREADS}; no counter grew faster
 *   since the node started than {@value #MAX_CPU_CORES} cores, {@value #MAX_PROCESSING_THREADS} threads or
 *   {@value #MAX_EVENTS_PER_SECOND} events a second allow; a sum of durations is at most its count (plus the events
 *   in flight) × the uptime: no query or scan lasted longer than the node has been up;</li>
 *   <li>between a node's accepted report and the next of the same epoch: no counter went backwards; the node's
 *   uptime advanced about as much as the reader's clock ({@value #SLACK}× either way, plus the reader's pull
 *   deadline, within which either report may have been written); {@code cpuCores} did not rise by more than
 *   {@value #MAX_CORES_RISE}× (a cut of any size is genuine), nor stop being reported; the processing threads did
 *   not change; the process CPU delta is at most its cores × (the round + the deadline) × {@value #SLACK}; query
 *   CPU at most cores × (the round + {@value #COMPLETION_GRACE_MILLIS} ms) × {@value #SLACK}, and segment time, in
 *   total and summed over the segments, at most threads × the same, because Druid reports a query's CPU and a scan's time when it completes,
 *   so a round also carries the earlier part of the work that completed in it; event counts at most
 *   {@value #MAX_EVENTS_PER_SECOND} a second.</li>
 * </ul>
 * A bound that uses cores uses the larger {@code cpuCores} of the two reports, or the processing threads from a
 * Historical that does not report it. Pure functions; the reader keeps the baseline.
 */
public final class StatsPlausibility
{
  /** One millicore, the smallest CPU a Kubernetes limit or a cgroup v2 quota can give. */
  public static final double MIN_CPU_CORES = 0.001;
  /** More than any machine a Historical runs on has. */
  public static final double MAX_CPU_CORES = 4096;
  public static final int MAX_PROCESSING_THREADS = 4096;
  /** Scans, queries: a million a second is far beyond what one Historical serves. */
  public static final double MAX_EVENTS_PER_SECOND = 1e6;
  /**
   * A quota raised at runtime (say 0.25 → 1 core) is a genuine change; an order of magnitude at once is not. A cut
   * of any size is: a noisy neighbour's node cut to a twentieth of a core is exactly what the plan must see, and a
   * lower {@code cpuCores} only lowers what the node's counters may claim.
   */
  public static final double MAX_CORES_RISE = 10;
  /** Headroom over a physical bound: CFS burst, the instants counters and clocks are read at. */
  public static final double SLACK = 1.5;
  /** Work of queries that completed in a round but started before it, which Druid reports in that round. */
  public static final long COMPLETION_GRACE_MILLIS = 30_000;
  /** Longer than any Historical runs: a hundred years. */
  public static final long MAX_UPTIME_MILLIS = 100L * 365 * 24 * 3600 * 1000;

  private StatsPlausibility()
  {
  }

  /**
   * Why a report is implausible.
   *
   * @param field   the field at fault, e.g. {@code cpuTimeMicros}: a short stable name, for a metric dimension
   * @param message the exact reason, naming the values, for logs
   */
  public record Problem(String field, String message)
  {
    @Override
    public String toString()
    {
      return message;
    }
  }

  /**
   * The CPU, in cores, a node's round is measured against ({@code MeasuredRound}'s busy time is CPU time over it, so
   * the node's capacity follows it). A claim the node makes at its start, or a cut, is believed at once. A rise
   * within one process is believed only as far as the node shows it: up to {@value #SLACK}× the CPU it delivered in
   * the round. The bounds above let a quota rise up to {@value #MAX_CORES_RISE}× at once, because a quota raised at
   * runtime is genuine; but a 0.25-core Historical claiming 2.4 cores was then rated at 2.4 at once, though it never
   * delivered more than 0.25. A genuine rise shows as the node uses more than its old quota, and a restart (a new
   * epoch) has it believed at once.
   *
   * @param believedBefore the cores believed in the node's last accepted round of this process; 0 when there is none
   * @param claimed        the report's {@code cpuCores}; 0 when it does not say
   * @param deliveredCores the node's CPU time in the round over the round's wall time
   */
  public static double believedCores(double believedBefore, double claimed, double deliveredCores)
  {
    if (claimed <= 0 || believedBefore <= 0 || claimed <= believedBefore) {
      return claimed;
    }
    return Math.min(claimed, Math.max(believedBefore, SLACK * deliveredCores));
  }

  /**
   * Why {@code report}, a well-formed report ({@link HistoricalStatsReport#problem()} is null), cannot be true
   * whatever came before it; null when it can.
   */
  public static Problem problemOf(HistoricalStatsReport report)
  {
    final double cores = report.cpuCores();
    if (!Double.isFinite(cores) || cores < 0 || (cores > 0 && cores < MIN_CPU_CORES) || cores > MAX_CPU_CORES) {
      return new Problem("cpuCores", "cpuCores [" + cores + "] is not 0 (unknown) or in [" + MIN_CPU_CORES + ", "
                                     + MAX_CPU_CORES + "]");
    }
    if (report.numProcessingThreads() > MAX_PROCESSING_THREADS) {
      return new Problem("numProcessingThreads", "numProcessingThreads [" + report.numProcessingThreads()
                                                 + "] is above " + MAX_PROCESSING_THREADS);
    }
    final long uptime = report.uptimeMillis();
    if (uptime > MAX_UPTIME_MILLIS) {
      return new Problem("uptimeMillis", "uptimeMillis [" + uptime + "] is above " + MAX_UPTIME_MILLIS);
    }
    // Counters count from the same start as the uptime; the grace covers reading them at slightly different times.
    // A time sum may run ahead of its count by the events being recorded as the report is read, or by the scans
    // that have waited for a thread and not yet finished: at most one per processing thread (queries: per caller).
    final long threads = report.numProcessingThreads();
    final double upMillis = uptime + COMPLETION_GRACE_MILLIS;
    final Problem counts = firstOf(
        atMost("cpuTimeMicros", report.cpuTimeMicros(), MAX_CPU_CORES * upMillis * 1000, "cores × uptime"),
        atMost("segmentTimeMillis", report.segmentTimeMillis(), (double) MAX_PROCESSING_THREADS * upMillis,
               "threads × uptime"),
        atMost("queries", report.queries(), eventsIn(upMillis), "events a second × uptime"),
        atMost("segmentScans", report.segmentScans(), eventsIn(upMillis), "events a second × uptime"),
        atMost("queryTimes", report.queryTimes(), eventsIn(upMillis), "events a second × uptime"),
        atMost("waitTimeMillis", report.waitTimeMillis(), (double) (report.segmentScans() + threads) * upMillis,
               "(segmentScans + threads) × uptime"),
        atMost("queryTimeMillis", report.queryTimeMillis(),
               (double) (report.queryTimes() + MAX_PROCESSING_THREADS) * upMillis,
               "(queryTimes + " + MAX_PROCESSING_THREADS + ") × uptime"),
        atMost("stalledMillis", report.stalledMillis(), upMillis, "uptime")
    );
    if (counts != null) {
      return counts;
    }
    for (Map.Entry<String, HistoricalStatsReport.SegmentStats> e : report.segments().entrySet()) {
      final HistoricalStatsReport.SegmentStats s = e.getValue();
      final Problem segment = firstOf(
          atMost("scans", s.scans(), eventsIn(upMillis), "events a second × uptime"),
          atMost("timeMillis", s.timeMillis(), (double) (s.scans() + threads) * upMillis,
                 "(its scans + threads) × uptime")
      );
      if (segment != null) {
        return new Problem("segments", "segment [" + e.getKey() + "]: " + segment.message());
      }
    }
    return null;
  }

  /**
   * Why {@code current} cannot follow {@code previous}; null when it can. Both passed {@link #problemOf(
   * HistoricalStatsReport)}.
   *
   * @param previous      the node's last accepted report of the same epoch, or null when {@code current} is the
   *                      first of a new epoch, whose counters count from its start (then the uptime need only fit in
   *                      {@code elapsedMillis}: the node restarted after the last accepted report)
   * @param elapsedMillis time between the reader's receipt of {@code previous} (or of the last accepted report
   *                      before the restart) and of {@code current}, on the reader's monotonic clock
   * @param graceMillis   how far apart on the node's clock two reports received {@code elapsedMillis} apart can have
   *                      been written: the reader's pull deadline
   */
  public static Problem problemOf(
      HistoricalStatsReport previous,
      HistoricalStatsReport current,
      long elapsedMillis,
      long graceMillis
  )
  {
    final Problem regression = previous == null ? null : regressionOf(previous, current);
    if (regression != null) {
      return regression;
    }
    final long roundMillis = current.uptimeMillis() - (previous == null ? 0 : previous.uptimeMillis());
    final double latest = elapsedMillis * SLACK + graceMillis;
    final double earliest = previous == null ? 0 : elapsedMillis / SLACK - graceMillis;
    if (roundMillis > latest || roundMillis < earliest) {
      return new Problem("uptimeMillis", "uptimeMillis advanced by [" + roundMillis + "] ms while [" + elapsedMillis
                                         + "] ms passed between the pulls (allowed: " + (long) Math.max(0, earliest)
                                         + " to " + (long) latest + " ms)");
    }
    if (previous != null && previous.numProcessingThreads() != current.numProcessingThreads()) {
      // Druid sizes its processing pool once, at start.
      return new Problem("numProcessingThreads", "numProcessingThreads changed within one process ["
                                                 + previous.numProcessingThreads() + " -> "
                                                 + current.numProcessingThreads() + "]");
    }
    if (previous != null && previous.cpuCores() > 0 && current.cpuCores() == 0) {
      // Its readers would fall back to the processing threads, often many times the quota.
      return new Problem("cpuCores", "cpuCores stopped being reported within one process [" + previous.cpuCores()
                                     + " -> 0]");
    }
    if (previous != null && previous.cpuCores() > 0 && current.cpuCores() > MAX_CORES_RISE * previous.cpuCores()) {
      return new Problem("cpuCores", "cpuCores rose by more than " + MAX_CORES_RISE + "× at once ["
                                     + previous.cpuCores() + " -> " + current.cpuCores() + "]");
    }
    final double cores = Math.max(current.cpuCores(), previous == null ? 0 : previous.cpuCores());
    final double allowance = cores > 0 ? cores : current.numProcessingThreads();
    final double threads = current.numProcessingThreads();
    final double withGrace = roundMillis + COMPLETION_GRACE_MILLIS;
    final long processCpu = previous == null || previous.processCpuMicros() == 0 || current.processCpuMicros() == 0
                            ? 0
                            : current.processCpuMicros() - previous.processCpuMicros();
    final Problem deltas = firstOf(
        atMost("processCpuMicros", processCpu, allowance * (roundMillis + graceMillis) * 1000 * SLACK,
               "cores × (round + deadline)"),
        atMost("cpuTimeMicros", delta(previous, current, HistoricalStatsReport::cpuTimeMicros),
               allowance * withGrace * 1000 * SLACK, "cores × (round + grace)"),
        atMost("segmentTimeMillis", delta(previous, current, HistoricalStatsReport::segmentTimeMillis),
               threads * withGrace * SLACK, "threads × (round + grace)"),
        atMost("queries", delta(previous, current, HistoricalStatsReport::queries), eventsIn(withGrace),
               "events a second × (round + grace)"),
        atMost("segmentScans", delta(previous, current, HistoricalStatsReport::segmentScans), eventsIn(withGrace),
               "events a second × (round + grace)"),
        atMost("queryTimes", delta(previous, current, HistoricalStatsReport::queryTimes), eventsIn(withGrace),
               "events a second × (round + grace)"),
        atMost("segments", segmentTimeDelta(previous, current), threads * withGrace * SLACK,
               "threads × (round + grace)", "the segments' timeMillis grew by"),
        atMost("stalledMillis", delta(previous, current, HistoricalStatsReport::stalledMillis),
               (roundMillis + graceMillis) * SLACK, "round + deadline")
    );
    return deltas == null
           ? null
           : new Problem(deltas.field(), deltas.message() + " in a round of [" + roundMillis + "] ms");
  }

  private static Problem regressionOf(HistoricalStatsReport previous, HistoricalStatsReport current)
  {
    if (current.uptimeMillis() <= previous.uptimeMillis()) {
      return new Problem("uptimeMillis", "uptimeMillis did not advance [" + previous.uptimeMillis() + " -> "
                                         + current.uptimeMillis() + "]");
    }
    if (current.processCpuMicros() < previous.processCpuMicros() && current.processCpuMicros() > 0) {
      return backwards("processCpuMicros", previous.processCpuMicros(), current.processCpuMicros());
    }
    return firstOf(
        current.cpuTimeMicros() < previous.cpuTimeMicros()
        ? backwards("cpuTimeMicros", previous.cpuTimeMicros(), current.cpuTimeMicros()) : null,
        current.segmentTimeMillis() < previous.segmentTimeMillis()
        ? backwards("segmentTimeMillis", previous.segmentTimeMillis(), current.segmentTimeMillis()) : null,
        current.segmentScans() < previous.segmentScans()
        ? backwards("segmentScans", previous.segmentScans(), current.segmentScans()) : null,
        current.queries() < previous.queries()
        ? backwards("queries", previous.queries(), current.queries()) : null,
        current.waitTimeMillis() < previous.waitTimeMillis()
        ? backwards("waitTimeMillis", previous.waitTimeMillis(), current.waitTimeMillis()) : null,
        current.queryTimeMillis() < previous.queryTimeMillis()
        ? backwards("queryTimeMillis", previous.queryTimeMillis(), current.queryTimeMillis()) : null,
        current.queryTimes() < previous.queryTimes()
        ? backwards("queryTimes", previous.queryTimes(), current.queryTimes()) : null,
        current.stalledMillis() < previous.stalledMillis()
        ? backwards("stalledMillis", previous.stalledMillis(), current.stalledMillis()) : null
    );
  }

  /**
   * Sum over segments of the time scanned since {@code previous}; a segment whose counters restarted (evicted while
   * idle, scanned again) counts from 0, as the readers diff it.
   */
  private static long segmentTimeDelta(HistoricalStatsReport previous, HistoricalStatsReport current)
  {
    long sum = 0;
    for (Map.Entry<String, HistoricalStatsReport.SegmentStats> e : current.segments().entrySet()) {
      final HistoricalStatsReport.SegmentStats now = e.getValue();
      final HistoricalStatsReport.SegmentStats before = previous == null ? null : previous.segments().get(e.getKey());
      final long time = before == null || now.timeMillis() < before.timeMillis() || now.scans() < before.scans()
                        ? now.timeMillis()
                        : now.timeMillis() - before.timeMillis();
      // Saturates rather than overflows: each term passed the per-report bound, so the sum fits unless absurd.
      sum = sum > Long.MAX_VALUE - time ? Long.MAX_VALUE : sum + time;
    }
    return sum;
  }

  private static long delta(
      HistoricalStatsReport previous,
      HistoricalStatsReport current,
      ToLongFunction<HistoricalStatsReport> counter
  )
  {
    return counter.applyAsLong(current) - (previous == null ? 0 : counter.applyAsLong(previous));
  }

  private static double eventsIn(double millis)
  {
    return MAX_EVENTS_PER_SECOND * millis / 1000;
  }

  private static Problem atMost(String field, long value, double bound, String what)
  {
    return atMost(field, value, bound, what, field);
  }

  private static Problem atMost(String field, long value, double bound, String what, String label)
  {
    return value <= bound
           ? null
           : new Problem(field, label + " [" + value + "] is above " + what + " [" + (long) bound + "]");
  }

  private static Problem backwards(String field, long before, long after)
  {
    return new Problem(field, field + " went backwards [" + before + " -> " + after + "]");
  }

  private static Problem firstOf(Problem... problems)
  {
    for (Problem p : problems) {
      if (p != null) {
        return p;
      }
    }
    return null;
  }
}
