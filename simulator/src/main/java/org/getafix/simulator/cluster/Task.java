package org.getafix.simulator.cluster;

/**
 * One segment's share of a query, run on one core of one Historical. {@code work} is CPU seconds at speed 1;
 * a node at speed {@code f} takes {@code work / f} wall seconds on a core.
 */
public final class Task
{
  final Query query;
  final Segment segment;
  final int node;
  final double work;
  final double enqueuedAt;
  double startedAt;
  boolean running;
  /** Finished or cancelled: its completion event, if one is scheduled, does nothing. */
  boolean over;

  Task(Query query, Segment segment, int node, double work, double enqueuedAt)
  {
    this.query = query;
    this.segment = segment;
    this.node = node;
    this.work = work;
    this.enqueuedAt = enqueuedAt;
  }
}
