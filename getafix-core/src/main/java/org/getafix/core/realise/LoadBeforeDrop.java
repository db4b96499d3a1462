package org.getafix.core.realise;

/**
 * When a replica the plan no longer wants may leave. Either way a replica the plan wants is never dropped, and a
 * segment keeps at least as many loaded replicas as the plan asks for (so never loses its last one).
 */
public enum LoadBeforeDrop
{
  /**
   * Only once every planned holder serves the segment: until then it wants |loaded ∪ planned| replicas, afterwards
   * |planned|. What the getafix rule asks of Druid, whose load queues cannot tell a replica that is leaving from
   * one that stays.
   */
  ALL_PLANNED_LOADED,
  /**
   * While more replicas serve than the plan asks for, even if a planned holder is still loading: the segment keeps
   * the plan's replica count serving, but a replica that is moving away may leave before its replacement serves.
   */
  PLANNED_COUNT_SERVING
}
