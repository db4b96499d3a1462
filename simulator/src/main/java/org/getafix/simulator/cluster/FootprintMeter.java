package org.getafix.simulator.cluster;

import org.getafix.simulator.engine.EventLoop;

/**
 * Memory, replica and segment counts integrated over the measured window [measureFrom, measureTo], each node's
 * peak bytes in it, and the loads started over the whole run.
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
  private long replicaLoads;

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

  void countLoad()
  {
    replicaLoads++;
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
    }
    lastAccounting = Math.max(lastAccounting, loop.now());
  }

  void openMeasurementWindow()
  {
    accountSegments();
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
    return new Cluster.Footprint(
        byteSeconds / window,
        peak,
        replicaSeconds / window,
        segmentSeconds / window,
        replicaLoads
    );
  }
}
