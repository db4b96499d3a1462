package org.getafix.simulator.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The copies of one segment's share of a query, on different holders: the first to finish answers the share and
 * the others are cancelled, as a Broker takes the first complete answer of a redundant sub-query.
 */
final class Race
{
  /** When the share was first dispatched: a later hedge's answer still counts from here. */
  final double dispatchedAt;
  /** The first copy is the primary; hedges are appended. */
  final List<Task> copies = new ArrayList<>(2);
  boolean won;

  Race(double dispatchedAt)
  {
    this.dispatchedAt = dispatchedAt;
  }
}
