package org.getafix.druid.coordinator;

import com.google.common.collect.Iterators;
import org.apache.druid.server.coordinator.ServerHolder;
import org.apache.druid.server.coordinator.balancer.BalancerStrategy;
import org.apache.druid.server.coordinator.stats.CoordinatorRunStats;
import org.apache.druid.timeline.DataSegment;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Balancer strategy {@code getafix}: realises the plan of the current Coordinator run for the segments the getafix
 * rule acts on, and leaves every other decision (segments the plan does not know, other tiers, warm-up, dry run) to
 * Druid's own cost-based strategy.
 *
 * <ul>
 *   <li>Load: only onto planned servers that do not serve the segment yet (P \ L), largest planned share first,
 *   within the run's load budget. Loads that restore the rule's floor are never throttled, and fall back to the
 *   delegate's order once P \ L is exhausted.</li>
 *   <li>Drop: only servers outside the plan, in the delegate's order, within the run's drop budget. Planned servers
 *   are never offered, and Druid itself never drops below the rule's count (which is at least the floor).</li>
 *   <li>Move (Druid's balancer duty): a replica on an unplanned server moves to a planned one; a replica on a
 *   planned server stays. Druid moves load before they drop, so this is load-before-drop too.</li>
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
    final ReplicaTarget target = actingTarget(segment, servers);
    if (target == null) {
      return delegate.findServersToLoadSegment(segment, servers);
    }
    final String segmentId = target.segmentId();
    final PlanSnapshot plan = run.snapshot();
    final List<ServerHolder> plannedNew = new ArrayList<>();
    final List<ServerHolder> others = new ArrayList<>();
    for (ServerHolder server : servers) {
      final String name = server.getServer().getName();
      if (target.planned().contains(name) && !target.loaded().contains(name)) {
        plannedNew.add(server);
      } else {
        others.add(server);
      }
    }
    plannedNew.sort(
        Comparator.comparingDouble((ServerHolder s) -> -plan.share(segmentId, s.getServer().getName()))
                  .thenComparing(s -> s.getServer().getName())
    );

    // The first floorDeficit loads restore the floor: always allowed, anywhere. Further ones follow the plan and
    // spend the run's load budget.
    final int[] unbudgeted = {target.floorDeficit()};
    final Iterator<ServerHolder> planned = Iterators.filter(
        plannedNew.iterator(),
        server -> unbudgeted[0]-- > 0 || run.tryLoad()
    );
    if (target.floorDeficit() <= plannedNew.size() || others.isEmpty()) {
      return planned;
    }
    // Not enough planned servers can take it to restore the floor: let the delegate place the rest.
    return Iterators.concat(planned, delegate.findServersToLoadSegment(segment, others));
  }

  @Override
  public Iterator<ServerHolder> findServersToDropSegment(DataSegment segment, List<ServerHolder> servers)
  {
    final ReplicaTarget target = actingTarget(segment, servers);
    if (target == null) {
      return delegate.findServersToDropSegment(segment, servers);
    }
    final Set<String> planned = target.planned();
    final List<ServerHolder> unplanned = new ArrayList<>();
    for (ServerHolder server : servers) {
      if (!planned.contains(server.getServer().getName())) {
        unplanned.add(server);
      }
    }
    if (unplanned.isEmpty()) {
      return unplanned.iterator();
    }
    return Iterators.filter(delegate.findServersToDropSegment(segment, unplanned), server -> run.tryDrop());
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
    if (planned.contains(source.getServer().getName()) && !source.isDecommissioning()) {
      return null;
    }
    ServerHolder best = null;
    for (ServerHolder candidate : destinations) {
      final String name = candidate.getServer().getName();
      if (candidate == source || !planned.contains(name) || candidate.isServingSegment(segment)
          || !candidate.canLoadSegment(segment)) {
        continue;
      }
      if (best == null || plan.share(segmentId, name) > plan.share(segmentId, best.getServer().getName())) {
        best = candidate;
      }
    }
    return best != null && run.tryLoad() ? best : null;
  }

  /**
   * The rule's decision for this segment if it acts on the plan and these servers are of the planned tier (Druid
   * asks tier by tier); null when the delegate decides.
   */
  @Nullable
  private ReplicaTarget actingTarget(DataSegment segment, List<ServerHolder> servers)
  {
    final ReplicaTarget target = handoff.currentTargetFor(segment.getId().toString());
    if (target == null || !target.acting() || servers.isEmpty()
        || !run.snapshot().tier().equals(servers.get(0).getServer().getTier())) {
      return null;
    }
    return target;
  }

  @Override
  public CoordinatorRunStats getStats()
  {
    return delegate.getStats();
  }
}
