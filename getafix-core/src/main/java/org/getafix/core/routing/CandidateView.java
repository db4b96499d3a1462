package org.getafix.core.routing;

/**
 * The replica holders of one segment, as a router sees them at one pick, addressed by position. Callers keep one
 * reusable view per thread and refill it before each pick, so a pick allocates nothing. A view is only read
 * during {@link RoutingPolicy#pick}; policies never keep it.
 */
public interface CandidateView
{
  /** Number of candidates; positions are {@code 0 .. size() - 1}. */
  int size();

  /** Node id of the candidate at {@code index}: the Druid server name (host:port), as in the routing table. */
  String nodeId(int index);

  /** Requests this router currently has outstanding at the candidate (Druid: the client's open connections). */
  int inFlight(int index);

  /**
   * Identity of the segment being routed, used as a cache key for per-segment lookups: two views routing the
   * same segment return equal keys (Druid: the {@code SegmentId}; the simulator: the segment id string).
   */
  Object segmentKey();

  /** Segment id as the routing table spells it. Only read on a cache miss, so it may allocate. */
  String segmentId();
}
