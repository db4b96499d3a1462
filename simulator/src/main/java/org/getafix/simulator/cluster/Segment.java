package org.getafix.simulator.cluster;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * One immutable Druid segment (an hour of data) and where its replicas are: loaded (serving), loading
 * (queued or in progress on a node's load queue) and wanted by the current plan.
 */
public final class Segment
{
  private final int index;
  private final String id;
  private final long sizeBytes;

  /** Nodes whose replica is in memory and serves queries. */
  final IntArrayList loaded = new IntArrayList(4);
  /** Nodes that will hold a replica once their load queue gets to it. */
  final IntArrayList loading = new IntArrayList(2);
  /** Nodes the latest plan wants; the segment is never left without a loaded replica to get there. */
  final IntOpenHashSet target = new IntOpenHashSet(4);

  double accessTimeThisRound;
  int inFlight;
  int peakInFlightThisRound;
  long accessesTotal;

  Segment(int index, String id, long sizeBytes)
  {
    this.index = index;
    this.id = id;
    this.sizeBytes = sizeBytes;
  }

  public int index()
  {
    return index;
  }

  public String id()
  {
    return id;
  }

  public long sizeBytes()
  {
    return sizeBytes;
  }

  /** The nodes that can serve this segment now. Read-only for callers. */
  public IntArrayList loadedHolders()
  {
    return loaded;
  }

  public boolean isQueryable()
  {
    return !loaded.isEmpty();
  }

  public long accessesTotal()
  {
    return accessesTotal;
  }
}
