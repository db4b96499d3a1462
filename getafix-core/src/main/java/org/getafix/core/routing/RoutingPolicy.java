package org.getafix.core.routing;

/**
 * Chooses the replica of a segment that serves one request. Implementations are thread-safe and allocation-free
 * on {@link #pick}: the Broker calls it once per segment per query on query threads. A policy's name, traits and
 * defaults live in its {@link RoutingPolicies} entry.
 */
public interface RoutingPolicy
{
  /** Position in {@code candidates} of the chosen replica, or -1 iff there are no candidates. */
  int pick(CandidateView candidates);
}
