package org.getafix.druid.coordinator.plan;

/** What Getafix does right now, as published with every plan snapshot and shown by the status endpoint. */
public enum Mode
{
  /** This Coordinator is not the leader: it plans nothing. */
  NOT_LEADER,
  /** {@code enabled=false}: the getafix rule behaves as a plain load rule with its floor replica counts. */
  DISABLED,
  /** Waiting for one full round of stats after a (re)start or leader change: nothing is dropped. */
  WARMING_UP,
  /** The Coordinator's configuration prevents Getafix from acting safely (see the problems): nothing changes. */
  REFUSED,
  /** The plan is computed and published, but no load or drop is issued for it. */
  DRY_RUN,
  /** The plan is realised by the getafix rule and balancer strategy. */
  ACTIVE
}
