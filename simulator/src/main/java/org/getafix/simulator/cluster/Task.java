package org.getafix.simulator.cluster;

/**
 * One segment's share of a query, run on one core of one Historical. {@code work} is the scan's CPU seconds at
 * speed 1, {@code overhead} the per query work a Historical does for a query besides its scans (HTTP, merging,
 * serialising; see {@link QueryDispatcher}), carried by the query's first task on the node. A node at speed
 * {@code f} takes {@code (work + overhead) / f} wall seconds on a core. With a {@link RedundancyPolicy}, a segment's
 * share may run as several tasks on different holders, a {@link Race} the first to finish wins.
 */
public final class Task
{
  final Query query;
  final Segment segment;
  final int node;
  final double work;
  final double overhead;
  final double enqueuedAt;
  double startedAt;
  /** The speed it runs at, fixed when it starts: its node's, less what the node's loads take then. */
  double speed;
  boolean running;
  /** Finished or cancelled: its completion event, if one is scheduled, does nothing. */
  boolean over;
  /** The copies of this segment's share racing this one; null when the cluster runs without redundancy. */
  Race race;
  /** Holds a token of its node in the redundancy policy's arbiter, to hand back when it finishes or is cancelled. */
  boolean token;
  /** Sent at its race's hedge point, after the first copy was late. */
  boolean hedge;

  Task(Query query, Segment segment, int node, double work, double overhead, double enqueuedAt)
  {
    this.overhead = overhead;
    this.query = query;
    this.segment = segment;
    this.node = node;
    this.work = work;
    this.enqueuedAt = enqueuedAt;
  }
}
