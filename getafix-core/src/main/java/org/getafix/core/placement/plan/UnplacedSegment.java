package org.getafix.core.placement.plan;

/**
 * What a plan could not do for one segment, and why: the report of an infeasible input.
 *
 * @param segmentId      the segment
 * @param placedReplicas replicas the plan did give it
 * @param wantedReplicas replicas it needed (its floor, or what its load asked for)
 * @param reason         operator-readable cause, e.g. "no node has 2.1 GB free"
 */
public record UnplacedSegment(String segmentId, int placedReplicas, int wantedReplicas, String reason)
{
}
