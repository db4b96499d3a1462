package org.getafix.core.routing;

import java.util.Arrays;

/**
 * A reusable, array-backed {@link CandidateView} for callers that know their candidates as node ids (the simulator,
 * tests, benchmarks). Refill it with {@link #reset} and {@link #add} before each pick; it grows once and then
 * allocates nothing. Not thread-safe: keep one per thread.
 */
public final class ArrayCandidateView implements CandidateView
{
  private String segmentId;
  private String[] nodeIds = new String[8];
  private int[] inFlight = new int[8];
  private int size;

  public ArrayCandidateView reset(String segmentId)
  {
    this.segmentId = segmentId;
    this.size = 0;
    return this;
  }

  public ArrayCandidateView add(String nodeId, int requestsInFlight)
  {
    if (size == nodeIds.length) {
      nodeIds = Arrays.copyOf(nodeIds, size * 2);
      inFlight = Arrays.copyOf(inFlight, size * 2);
    }
    nodeIds[size] = nodeId;
    inFlight[size] = requestsInFlight;
    size++;
    return this;
  }

  /** Updates the outstanding requests of the candidate at {@code index}. */
  public void setInFlight(int index, int requestsInFlight)
  {
    inFlight[index] = requestsInFlight;
  }

  @Override
  public int size()
  {
    return size;
  }

  @Override
  public String nodeId(int index)
  {
    return nodeIds[index];
  }

  @Override
  public int inFlight(int index)
  {
    return inFlight[index];
  }

  @Override
  public Object segmentKey()
  {
    return segmentId;
  }

  @Override
  public String segmentId()
  {
    return segmentId;
  }
}
