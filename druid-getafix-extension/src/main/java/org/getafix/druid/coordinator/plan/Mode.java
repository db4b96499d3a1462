package org.getafix.druid.coordinator.plan;

/** What Getafix does right now, as published with every plan snapshot and shown by the status endpoint. */
public enum Mode
{
  /** This Coordinator is not the leader: it plans nothing. */
  NOT_LEADER,
  /** {@code enabled=false}: the getafix rule behaves as the stock rule it replaced ({@code stockReplicants}). */
  DISABLED,
  /** Waiting for one full round of stats after a (re)start or leader change: nothing is dropped. */
  WARMING_UP,
  /** The Coordinator's configuration prevents Getafix from acting safely (see the problems): nothing changes. */
  REFUSED,
  /**
   * The plan is computed and published, but the getafix rule behaves as the stock rule it replaced
   * ({@code stockReplicants}), as it does in every mode while {@code dryRun} is set.
   */
  DRY_RUN,
  /**
   * {@code rollback=true}: no plan; the getafix rule walks every segment back to its {@code stockReplicants}, loading
   * before dropping, within the churn budget of each Coordinator run. The status endpoint says when it is done.
   */
  ROLLING_BACK,
  /** The plan is realised by the getafix rule and balancer strategy. */
  ACTIVE
}
