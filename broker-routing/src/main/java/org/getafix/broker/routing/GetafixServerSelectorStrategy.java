package org.getafix.broker.routing;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.ImmutableList;
import org.apache.druid.client.QueryableDruidServer;
import org.apache.druid.client.selector.ServerSelectorStrategy;
import org.apache.druid.query.Query;
import org.apache.druid.timeline.DataSegment;
import org.getafix.core.routing.RoutingCounters;
import org.getafix.core.routing.RoutingPolicies;
import org.getafix.core.routing.RoutingPolicy;
import org.getafix.core.routing.RoutingRandom;
import org.getafix.core.routing.RoutingSettings;

import javax.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * A Druid {@link ServerSelectorStrategy} that delegates the choice to a getafix-core {@link RoutingPolicy} named in
 * {@link RoutingPolicies}: the one Broker strategy for every Getafix policy. The nested one-line subclasses exist
 * only because Druid's {@code ServerSelectorStrategy} maps each {@code type} id to a class and does not pass the id
 * on (its {@code @JsonTypeInfo} is not {@code visible}), so a class cannot learn which name built it; each subclass
 * names its policy, and {@link GetafixRoutingModule} registers them under those names.
 *
 * <p>All four {@code pick} methods are overridden: the interface's defaults call each other in a cycle, and Druid's
 * tier strategies call the list-returning {@code pick(query, servers, segment, n)} with {@code n = 1} for every
 * segment of every query. That path allocates nothing here: the candidates go through a per-thread reusable view,
 * and the one-element result is a cached immutable list per server (weakly keyed, so departed servers are dropped).
 */
public class GetafixServerSelectorStrategy implements ServerSelectorStrategy
{
  private final RoutingPolicies.Entry entry;
  private final RoutingSettings settings;
  private final RoutingPolicy policy;
  private final RoutingCounters counters;
  private final ThreadLocal<DruidCandidateView> views = ThreadLocal.withInitial(DruidCandidateView::new);
  private final Cache<QueryableDruidServer, List<QueryableDruidServer>> singletons =
      CacheBuilder.newBuilder().weakKeys().build();

  GetafixServerSelectorStrategy(
      String name,
      BrokerRoutingState state,
      @Nullable BalancerProperties properties,
      LongSupplier nanoClock,
      RandomGenerator random
  )
  {
    this.entry = RoutingPolicies.REGISTRY.get(name);
    this.settings = (properties == null ? new BalancerProperties() : properties).settings();
    this.counters = state.counters();
    this.policy = entry.create(
        new RoutingPolicies.Inputs(settings, state.tables(), state.feedback(), counters, nanoClock, random)
    );
  }

  private GetafixServerSelectorStrategy(String name, BrokerRoutingState state, @Nullable BalancerProperties properties)
  {
    this(name, state, properties, System::nanoTime, RoutingRandom.threadLocal());
  }

  /** The policy's one name: its {@code druid.broker.balancer.type} and the {@code policy} metric dimension. */
  public String policyName()
  {
    return entry.name();
  }

  /** The knobs in force, defaults filled in. */
  public RoutingSettings settings()
  {
    return settings;
  }

  /** Whether the routing round must keep the Coordinator's routing table fresh for this strategy. */
  public boolean usesRoutingTable()
  {
    return entry.traits().routingTable();
  }

  /** Whether the routing round must poll the Historicals' queue reports for this strategy. */
  public boolean usesQueueReports()
  {
    return entry.traits().queueReports();
  }

  /** {@code druid.broker.balancer.type=getafixLbr}. */
  public static class Lbr extends GetafixServerSelectorStrategy
  {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public Lbr(@JacksonInject BrokerRoutingState state, @Nullable BalancerProperties properties)
    {
      super(RoutingPolicies.LBR, state, properties);
    }
  }

  /** {@code druid.broker.balancer.type=getafixAbr}. */
  public static class Abr extends GetafixServerSelectorStrategy
  {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public Abr(@JacksonInject BrokerRoutingState state, @Nullable BalancerProperties properties)
    {
      super(RoutingPolicies.ABR, state, properties);
    }
  }

  /** {@code druid.broker.balancer.type=getafixLbrMl}. */
  public static class LbrMl extends GetafixServerSelectorStrategy
  {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public LbrMl(@JacksonInject BrokerRoutingState state, @Nullable BalancerProperties properties)
    {
      super(RoutingPolicies.LBR_ML, state, properties);
    }
  }

  /** {@code druid.broker.balancer.type=getafixAdaptive}. */
  public static class Adaptive extends GetafixServerSelectorStrategy
  {
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public Adaptive(@JacksonInject BrokerRoutingState state, @Nullable BalancerProperties properties)
    {
      super(RoutingPolicies.ADAPTIVE, state, properties);
    }
  }

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
