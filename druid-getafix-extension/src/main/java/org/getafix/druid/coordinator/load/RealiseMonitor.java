package org.getafix.druid.coordinator.load;

import com.google.inject.Inject;
import org.apache.druid.server.coordinator.CoordinatorConfigManager;
import org.apache.druid.server.coordinator.CoordinatorDynamicConfig;
import org.getafix.core.realise.Rollback;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;

/**
 * How the Coordinator's runs realise the plan, as the planner sees it: whether they can (the getafix strategy is
 * installed and Druid's dynamic config lets it choose), and the plan-driven churn they issued, both from
 * {@link GetafixRunHandoff}.
 */
public class RealiseMonitor
{
  private final CoordinatorConfigManager coordinatorConfigManager;
  private final GetafixRunHandoff handoff;

  @Inject
  public RealiseMonitor(CoordinatorConfigManager coordinatorConfigManager, GetafixRunHandoff handoff)
  {
    this.coordinatorConfigManager = coordinatorConfigManager;
    this.handoff = handoff;
  }

  /** Gives the getafix rule its view of who serves what; until then it behaves as a plain load rule. */
  public void install(ServedSegments servedSegments)
  {
    handoff.setServedSegments(servedSegments);
  }

  /** Why Getafix must not act with the Coordinator configured as it is; empty when all is well. */
  public List<String> problems()
  {
    final List<String> problems = new ArrayList<>();
    final CoordinatorDynamicConfig coordinatorConfig = coordinatorConfigManager.getCurrentDynamicConfig();
    if (coordinatorConfig.isSmartSegmentLoading()) {
      problems.add("Coordinator dynamic config has smartSegmentLoading=true: Druid then assigns loads round-robin"
                   + " and ignores the getafix strategy; set smartSegmentLoading=false");
    }
    if (coordinatorConfig.isUseRoundRobinSegmentAssignment()) {
      problems.add("Coordinator dynamic config has useRoundRobinSegmentAssignment=true: Druid then ignores the"
                   + " getafix strategy for loads; set useRoundRobinSegmentAssignment=false");
    }
    if (!handoff.isStrategyInstalled()) {
      problems.add("druid.coordinator.balancer.strategy is not [getafix]: nothing would load onto the plan");
    }
    return problems;
  }

  /** Where a rollback stood after the last Coordinator run; null when that run did not roll back. */
  @Nullable
  public Rollback.Progress rollbackProgress()
  {
    return handoff.rollbackProgress();
  }

  public long loadsIssued()
  {
    return handoff.loadsIssued();
  }

  public long loadBytesIssued()
  {
    return handoff.loadBytesIssued();
  }

  public long dropsIssued()
  {
    return handoff.dropsIssued();
  }
}
