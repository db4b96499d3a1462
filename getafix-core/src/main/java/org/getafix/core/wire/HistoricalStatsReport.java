package org.getafix.core.wire;

import java.util.Map;

/**
 * What a Historical serves at {@value #PATH}: monotonic query counters since the process started. The Coordinator
 * diffs two reports per round for popularity and capacity; the Broker derives each Historical's queue from the wait
 * time. Counters only grow, so a lost or late pull loses nothing and a second reader never steals the first one's
 * deltas.
 *
 * @param epoch                changes on every process start; counters of different epochs are not comparable
 * @param uptimeMillis         monotonic clock of the Historical; readers diff it for the elapsed wall time
 * @param numProcessingThreads {@code druid.processing.numThreads}, to turn thread-busy time into utilisation
 * @param cpuTimeMicros        sum of {@code query/cpu/time}
 * @param queries              number of {@code query/cpu/time} events (one per query per node)
 * @param segmentTimeMillis    sum of {@code query/segmentAndCache/time} (scans answered from the segment cache too)
 * @param segmentScans         number of {@code query/segmentAndCache/time} events
 * @param waitTimeMillis       sum of {@code query/wait/time}: time segment scans waited for a processing thread
 * @param queryTimeMillis      sum of {@code query/time}: wall time of the queries this node served
 * @param queryTimes           number of {@code query/time} events (one per query)
 * @param segments             segment id → its scan counters
 * @param cpuCores             the CPU the node may use, in cores: its cgroup quota, or the machine's cores; 0 from
 *                             a Historical that does not report it (readers then use numProcessingThreads)
 * @param processCpuMicros     CPU time of the whole Historical process since it started: query CPU plus what
 *                             {@code query/cpu/time} does not count (HTTP, merging and serialising results, GC);
 *                             0 from a Historical that does not report it
 * @param stalledMillis        time the Historical process could not run when it should have, since it started
 *                             (its threads woke late: a CPU quota exhausted, a neighbour on the cores, a
 *                             stop-the-world pause); 0 from a Historical that does not report it
 */
public record HistoricalStatsReport(
    String epoch,
    long uptimeMillis,
    int numProcessingThreads,
    long cpuTimeMicros,
    long queries,
    long segmentTimeMillis,
    long segmentScans,
    long waitTimeMillis,
    long queryTimeMillis,
    long queryTimes,
    Map<String, SegmentStats> segments,
    double cpuCores,
    long processCpuMicros,
    long stalledMillis
)
{
  public static final String PATH = "/druid/historical/v1/getafix/stats";

  public HistoricalStatsReport
  {
    segments = segments == null ? Map.of() : segments;
  }

  /** A report without {@code cpuCores}, {@code processCpuMicros} and {@code stalledMillis}, as older ones send it. */
  public HistoricalStatsReport(
      String epoch,
      long uptimeMillis,
      int numProcessingThreads,
      long cpuTimeMicros,
      long queries,
      long segmentTimeMillis,
      long segmentScans,
      long waitTimeMillis,
      long queryTimeMillis,
      long queryTimes,
      Map<String, SegmentStats> segments
  )
  {
    this(epoch, uptimeMillis, numProcessingThreads, cpuTimeMicros, queries, segmentTimeMillis, segmentScans,
         waitTimeMillis, queryTimeMillis, queryTimes, segments, 0, 0, 0);
  }

  /**
   * @param timeMillis sum of {@code query/segmentAndCache/time} of this segment
   * @param scans      number of scans of this segment
   */
  public record SegmentStats(long timeMillis, long scans)
  {
  }

  /**
   * Why a reader must not use this report, naming the bad value; null when it is well-formed. A Historical of
   * another version may send anything, so every reader checks this before using any field.
   */
  public String problem()
  {
    if (epoch == null || epoch.isBlank()) {
      return "epoch is missing";
    }
    if (uptimeMillis < 0) {
      return "uptimeMillis [" + uptimeMillis + "] is negative";
    }
    if (numProcessingThreads < 1) {
      return "numProcessingThreads [" + numProcessingThreads + "] is not >= 1";
    }
    if (stalledMillis < 0) {
      return "stalledMillis [" + stalledMillis + "] is negative";
    }
    if (processCpuMicros < 0) {
      return "processCpuMicros [" + processCpuMicros + "] is negative";
    }
    if (cpuTimeMicros < 0) {
      return "cpuTimeMicros [" + cpuTimeMicros + "] is negative";
    }
    if (queries < 0) {
      return "queries [" + queries + "] is negative";
    }
    if (segmentTimeMillis < 0) {
      return "segmentTimeMillis [" + segmentTimeMillis + "] is negative";
    }
    if (segmentScans < 0) {
      return "segmentScans [" + segmentScans + "] is negative";
    }
    if (waitTimeMillis < 0) {
      return "waitTimeMillis [" + waitTimeMillis + "] is negative";
    }
    if (queryTimeMillis < 0 || queryTimes < 0) {
      return "query time counters [" + queryTimeMillis + " ms, " + queryTimes + " queries] are negative";
    }
    for (Map.Entry<String, SegmentStats> e : segments.entrySet()) {
      if (e.getKey() == null || e.getKey().isBlank()) {
        return "a segment id is empty";
      }
      final SegmentStats s = e.getValue();
      if (s == null) {
        return "segment [" + e.getKey() + "] has no counters";
      }
      if (s.timeMillis() < 0 || s.scans() < 0) {
        return "segment [" + e.getKey() + "] has negative counters [timeMillis=" + s.timeMillis()
               + ", scans=" + s.scans() + "]";
      }
    }
    return null;
  }
}
