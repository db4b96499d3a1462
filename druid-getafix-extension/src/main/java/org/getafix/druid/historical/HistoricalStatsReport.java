package org.getafix.druid.historical;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/**
 * What {@code GET /druid/historical/v1/getafix/stats} returns: monotonic counters since the process started (see
 * {@link QueryStatsCollector} for why monotonic). Also the wire format the Coordinator parses, so every field is
 * explicit and validated there, not here: a Historical of another version may send anything.
 *
 * @param epoch                changes on every process start; counters of different epochs are not comparable
 * @param uptimeMillis         monotonic clock of the Historical; the Coordinator diffs it for the round's wall time
 * @param numProcessingThreads {@code druid.processing.numThreads}, to turn thread-busy time into utilisation
 * @param cpuTimeMicros        sum of {@code query/cpu/time}
 * @param queries              number of {@code query/cpu/time} events (one per query per node)
 * @param segmentTimeMillis    sum of {@code query/segment/time}
 * @param segmentScans         number of {@code query/segment/time} events
 * @param waitTimeMillis       sum of {@code query/wait/time}
 * @param queryTimeMillis      sum of {@code query/time}: wall time of the queries this node served
 * @param queryTimes           number of {@code query/time} events (one per query)
 * @param segments             segment id → its scan counters
 */
public record HistoricalStatsReport(
    @JsonProperty("epoch") String epoch,
    @JsonProperty("uptimeMillis") long uptimeMillis,
    @JsonProperty("numProcessingThreads") int numProcessingThreads,
    @JsonProperty("cpuTimeMicros") long cpuTimeMicros,
    @JsonProperty("queries") long queries,
    @JsonProperty("segmentTimeMillis") long segmentTimeMillis,
    @JsonProperty("segmentScans") long segmentScans,
    @JsonProperty("waitTimeMillis") long waitTimeMillis,
    @JsonProperty("queryTimeMillis") long queryTimeMillis,
    @JsonProperty("queryTimes") long queryTimes,
    @JsonProperty("segments") Map<String, SegmentStats> segments
)
{
  @JsonCreator
  public HistoricalStatsReport
  {
    segments = segments == null ? Map.of() : segments;
  }

  /**
   * @param timeMillis sum of {@code query/segment/time} of this segment
   * @param scans      number of scans of this segment
   */
  public record SegmentStats(@JsonProperty("timeMillis") long timeMillis, @JsonProperty("scans") long scans)
  {
    @JsonCreator
    public SegmentStats
    {
    }
  }
}
