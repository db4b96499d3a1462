package org.getafix.simulator.cluster;

import org.getafix.simulator.engine.EventLoop;

import java.util.BitSet;

/**
 * Memory, replica and segment counts integrated over the measured window [measureFrom, measureTo], each node's
 * peak bytes in it, the loads started over the whole run, and the churn in the window: loads of the segments that
 * were served when the window opened. New segments' loads, their first replicas and those that follow them while they
 * are the hottest, are ingestion, which every strategy pays; loads of the data already served move bytes from deep
 * storage for the placement's sake.
 */
final class FootprintMeter
{
  private final EventLoop loop;
  private final Historical[] nodes;
  private final SegmentCatalog segments;
  private final double measureFrom;
  private final double measureTo;
  private long totalBytes;
  private int totalReplicas;
  private double lastAccounting;
  private double byteSeconds;
  private double replicaSeconds;
  private double segmentSeconds;
  private double dataByteSeconds;
  private long replicaLoads;
  private long movedLoads;
  private long movedBytes;
  /** Indexes of the segments served when the window opened; null before. */
  private BitSet servedAtOpen;

  FootprintMeter(EventLoop loop, Historical[] nodes, SegmentCatalog segments, double measureFrom, double measureTo)
  {
    this.loop = loop;
    this.nodes = nodes;
    this.segments = segments;
    this.measureFrom = measureFrom;
    this.measureTo = measureTo;
  }

  /** A replica started loading (it takes memory from now on) or was dropped. */
  void changeMemory(int node, long deltaBytes, int deltaReplicas)
  {
    accountSegments();
    totalBytes += deltaBytes;
    totalReplicas += deltaReplicas;
    final Historical h = nodes[node];
    h.bytesHeld += deltaBytes;
    if (loop.now() >= measureFrom && h.bytesHeld > h.peakBytes) {
      h.peakBytes = h.bytesHeld;
    }
  }

  /** A load of {@code segment} started. */
  void countLoad(Segment segment)
  {
    replicaLoads++;
    if (servedAtOpen != null && servedAtOpen.get(segment.index()) && loop.now() <= measureTo) {
      movedLoads++;
      movedBytes += segment.sizeBytes();
    }
  }

  /** Integrates memory, replicas and segment count up to now, inside the measured window. */
  void accountSegments()
  {
    final double now = Math.min(loop.now(), measureTo);
    final double from = Math.max(lastAccounting, measureFrom);
    if (now > from) {
      byteSeconds += totalBytes * (now - from);
      replicaSeconds += totalReplicas * (now - from);
      segmentSeconds += segments.size() * (now - from);
      dataByteSeconds += segments.bytes() * (now - from);
    }
    lastAccounting = Math.max(lastAccounting, loop.now());
  }

  void openMeasurementWindow()
  {
    accountSegments();
    servedAtOpen = new BitSet(segments.size());
    for (Segment segment : segments.all()) {
      if (segment.isQueryable()) {
        servedAtOpen.set(segment.index());
      }
    }
    for (Historical h : nodes) {
      h.peakBytes = Math.max(h.peakBytes, h.bytesHeld);
    }
  }

  Cluster.Footprint footprint()
  {
    accountSegments();
    final double window = measureTo - measureFrom;
    long peak = 0;
    for (Historical h : nodes) {
      peak = Math.max(peak, h.peakBytes);
    }
    final double meanDataBytes = dataByteSeconds / window;
    return new Cluster.Footprint(
        byteSeconds / window,
        peak,
        replicaSeconds / window,
        segmentSeconds / window,
        replicaLoads,
        movedLoads,
        meanDataBytes > 0 ? movedBytes / meanDataBytes / (window / 3600) : 0
    );
  }
}
