package org.getafix.druid.coordinator.load;

import com.google.common.collect.Iterators;
import org.apache.druid.server.coordinator.ServerHolder;
import org.apache.druid.server.coordinator.balancer.BalancerStrategy;
import org.apache.druid.server.coordinator.stats.CoordinatorRunStats;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.realise.PlannedMoves;
import org.getafix.core.realise.ReplicaTarget;
import org.getafix.druid.coordinator.plan.Mode;
import org.getafix.druid.coordinator.plan.PlanSnapshot;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Balancer strategy {@code getafix}: realises the plan of the current Coordinator run for the segments the getafix
 * rule acts on, and leaves every other decision (segments the plan does not know, other tiers, warm-up, dry run) to
 * Druid's own cost-based strategy. While the rule rolls back to its stock counts, the delegate chooses and the run's
 * churn budget paces the loads and drops.
 *
 * <ul>
 *   <li>Load: in getafix-core's {@link ReplicaTarget#loadOrder} (P \ L, largest planned share first), within the
 *   run's load budget. Loads that restore the rule's floor are never throttled, and fall back to the delegate's
 *   order once P \ L is exhausted.</li>
 *   <li>Drop: getafix-core's {@link ReplicaTarget#dropOrder} (servers outside the plan), in the delegate's order,
 *   within the run's drop budget. Druid itself never drops below the rule's count (which is at least the
 *   floor).</li>
 *   <li>Move (Druid's balancer duty): as getafix-core's {@link PlannedMoves} decides, within the run's load
 *   budget.</li>
 * </ul>
 */
public class GetafixBalancerStrategy implements BalancerStrategy
{
  private final CoordinatorRun run;
  private final GetafixRunHandoff handoff;
  private final BalancerStrategy delegate;

  public GetafixBalancerStrategy(CoordinatorRun run, GetafixRunHandoff handoff, BalancerStrategy delegate)
  {
    this.run = run;
    this.handoff = handoff;
    this.delegate = delegate;
  }

  @Override
  public Iterator<ServerHolder> findServersToLoadSegment(DataSegment segment, List<ServerHolder> servers)
  {
    final ReplicaTarget target = targetOnPlannedTier(segment, servers);
    if (target == null || !target.acting()) {
      final Iterator<ServerHolder> chosen = delegate.findServersToLoadSegment(segment, servers);
      return target != null && rollingBack()
             ? run.budget().admitLoads(chosen, target.floorDeficit(), segment.getSize())
             : chosen;
    }
    final PlanSnapshot plan = run.snapshot();
    final List<ServerHolder> plannedNew = target.loadOrder(
        servers,
        GetafixBalancerStrategy::name,
        server -> plan.share(target.segmentId(), server)
    );
    final Iterator<ServerHolder> planned =
        run.budget().admitLoads(plannedNew.iterator(), target.floorDeficit(), segment.getSize());
    if (target.floorDeficit() <= plannedNew.size()) {
      return planned;
    }
    // Not enough planned servers can take it to restore the floor: let the delegate place the rest.
    final List<ServerHolder> others = new ArrayList<>(servers);
    others.removeIf(plannedNew::contains);
    return others.isEmpty() ? planned : Iterators.concat(planned, delegate.findServersToLoadSegment(segment, others));
  }

  @Override
  public Iterator<ServerHolder> findServersToDropSegment(DataSegment segment, List<ServerHolder> servers)
  {
    final ReplicaTarget target = targetOnPlannedTier(segment, servers);
    if (target == null || !target.acting()) {
      final Iterator<ServerHolder> chosen = delegate.findServersToDropSegment(segment, servers);
      return target != null && rollingBack() ? run.budget().admitDrops(chosen) : chosen;
    }
    final List<ServerHolder> unplanned = target.dropOrder(servers, GetafixBalancerStrategy::name);
    if (unplanned.isEmpty()) {
      return unplanned.iterator();
    }
    return run.budget().admitDrops(delegate.findServersToDropSegment(segment, unplanned));
  }

  @Nullable
  @Override
  public ServerHolder findDestinationServerToMoveSegment(
      DataSegment segment,
      ServerHolder source,
      List<ServerHolder> destinations
  )
  {
    final PlanSnapshot plan = run.snapshot();
    final String segmentId = segment.getId().toString();
    final Set<String> planned = plan.plannedHolders(segmentId);
    if (!plan.isActive() || planned.isEmpty() || !plan.tier().equals(source.getServer().getTier())) {
      return delegate.findDestinationServerToMoveSegment(segment, source, destinations);
    }
    if (!PlannedMoves.shouldMove(planned, name(source), source.isDecommissioning())) {
      return null;
    }
    final List<ServerHolder> eligible = new ArrayList<>();
    for (ServerHolder candidate : destinations) {
      if (candidate != source && !candidate.isServingSegment(segment) && candidate.canLoadSegment(segment)) {
        eligible.add(candidate);
      }
    }
    final ServerHolder best = PlannedMoves.destination(
        planned,
        eligible,
        GetafixBalancerStrategy::name,
        server -> plan.share(segmentId, server)
    );
    return best != null && run.budget().tryLoad(segment.getSize()) ? best : null;
  }

  /**
   * The rule's decision for this segment if these servers are of the planned tier (Druid asks tier by tier); null
   * when the rule left none.
   */
  @Nullable
  private ReplicaTarget targetOnPlannedTier(DataSegment segment, List<ServerHolder> servers)
  {
    final ReplicaTarget target = handoff.currentTargetFor(segment.getId().toString());
    if (target == null || servers.isEmpty()
        || !run.snapshot().tier().equals(servers.get(0).getServer().getTier())) {
      return null;
    }
    return target;
  }

  /** Whether the rule walks segments back to its stock counts: the delegate places, this run's budget paces. */
  private boolean rollingBack()
  {
    return run.snapshot().mode() == Mode.ROLLING_BACK;
  }

  private static String name(ServerHolder server)
  {
    return server.getServer().getName();
  }

  @Override
  public CoordinatorRunStats getStats()
  {
    return delegate.getStats();
  }
}
