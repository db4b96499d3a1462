package org.getafix.broker.routing;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.ImmutableList;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.client.selector.ServerSelectorStrategy;
import org.apache.druid.query.Query;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.routing.RoutingCounters;
import org.getafix.core.routing.RoutingPolicy;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A Druid {@link ServerSelectorStrategy} that delegates the choice to a getafix-core {@link RoutingPolicy}.
 *
 * <p>All four {@code pick} methods are overridden: the interface's defaults call each other in a cycle, and Druid's
 * tier strategies call the list-returning {@code pick(query, servers, segment, n)} with {@code n = 1} for every
 * segment of every query. That path allocates nothing here: the candidates go through a per-thread reusable view,
 * and the one-element result is a cached immutable list per server (weakly keyed, so departed servers are dropped).
 */
public abstract class GetafixServerSelectorStrategy implements ServerSelectorStrategy
{
  private final RoutingPolicy policy;
  private final RoutingCounters counters;
  private final ThreadLocal<DruidCandidateView> views = ThreadLocal.withInitial(DruidCandidateView::new);
  private final Cache<QueryableDruidServer, List<QueryableDruidServer>> singletons =
      CacheBuilder.newBuilder().weakKeys().build();

  protected GetafixServerSelectorStrategy(RoutingPolicy policy, RoutingCounters counters)
  {
    this.policy = policy;
    this.counters = counters;
  }

  /** The policy's name, the {@code policy} dimension of {@code getafix/route/picks}. */
  public String policyName()
  {
    return policy.name();
  }

  /** Whether the routing round must keep the Coordinator's routing table fresh for this strategy. */
  public abstract boolean usesRoutingTable();

  /** Whether the routing round must poll the Historicals' queue reports for this strategy. */
  public abstract boolean usesQueueReports();

  @Nullable
  @Override
  public <T> QueryableDruidServer pick(@Nullable Query<T> query, Set<QueryableDruidServer> servers, DataSegment segment)
  {
    if (servers.isEmpty()) {
      return null;
    }
    final DruidCandidateView view = views.get();
    view.fill(servers, segment);
    try {
      final int chosen = policy.pick(view);
      counters.recordPick();
      return view.server(chosen);
    }
    finally {
      view.clear();
    }
  }

  @Override
  public <T> List<QueryableDruidServer> pick(
      @Nullable Query<T> query,
      Set<QueryableDruidServer> servers,
      DataSegment segment,
      int numServersToPick
  )
  {
    if (numServersToPick <= 0 || servers.isEmpty()) {
      return ImmutableList.of();
    }
    if (numServersToPick == 1) {
      return singletonOf(pick(query, servers, segment));
    }
    if (servers.size() <= numServersToPick) {
      return ImmutableList.copyOf(servers);
    }
    // Several distinct servers (Druid asks for this when listing query candidates): repeated picks, each over the
    // holders not chosen yet, so the order reflects the policy's preference.
    final DruidCandidateView view = views.get();
    view.fill(servers, segment);
    try {
      final List<QueryableDruidServer> chosen = new ArrayList<>(numServersToPick);
      while (chosen.size() < numServersToPick) {
        final int index = policy.pick(view);
        counters.recordPick();
        chosen.add(view.server(index));
        view.remove(index);
      }
      return chosen;
    }
    finally {
      view.clear();
    }
  }

  @Nullable
  @Override
  @SuppressWarnings("deprecation")
  public QueryableDruidServer pick(Set<QueryableDruidServer> servers, DataSegment segment)
  {
    return pick(null, servers, segment);
  }

  @Override
  @SuppressWarnings("deprecation")
  public List<QueryableDruidServer> pick(Set<QueryableDruidServer> servers, DataSegment segment, int numServersToPick)
  {
    return pick(null, servers, segment, numServersToPick);
  }

  private List<QueryableDruidServer> singletonOf(QueryableDruidServer server)
  {
    final List<QueryableDruidServer> cached = singletons.getIfPresent(server);
    if (cached != null) {
      return cached;
    }
    final List<QueryableDruidServer> created = ImmutableList.of(server);
    singletons.put(server, created);
    return created;
  }
}
